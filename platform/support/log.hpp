// HETERO_LOG=error|warn|info|debug (default warn): messages to stderr, prefixed "hetero:".
#pragma once

#include <cstdarg>

namespace hetero {

enum class LogLevel { Error = 0, Warn = 1, Info = 2, Debug = 3 };

bool logEnabled(LogLevel level);
void logMessage(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

#define HETERO_LOG(level, ...)                                                  \
    do {                                                                        \
        if (::hetero::logEnabled(::hetero::LogLevel::level))                    \
            ::hetero::logMessage(::hetero::LogLevel::level, __VA_ARGS__);       \
    } while (0)

}  // namespace hetero
