#include "platform/support/log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace hetero {
namespace {
LogLevel configuredLevel() {
    static const LogLevel level = [] {
        const char* v = std::getenv("HETERO_LOG");
        if (!v || !*v) return LogLevel::Warn;
        if (!strcasecmp(v, "error") || !strcmp(v, "0")) return LogLevel::Error;
        if (!strcasecmp(v, "warn") || !strcmp(v, "1")) return LogLevel::Warn;
        if (!strcasecmp(v, "info") || !strcmp(v, "2")) return LogLevel::Info;
        if (!strcasecmp(v, "debug") || !strcmp(v, "3")) return LogLevel::Debug;
        std::fprintf(stderr, "hetero: HETERO_LOG=%s not understood (error|warn|info|debug); using warn\n", v);
        return LogLevel::Warn;
    }();
    return level;
}
}  // namespace

bool logEnabled(LogLevel level) { return level <= configuredLevel(); }

void logMessage(LogLevel level, const char* format, ...) {
    static std::mutex mutex;
    static const char* names[] = {"error", "warn", "info", "debug"};
    std::lock_guard lock(mutex);
    std::fprintf(stderr, "hetero: %s: ", names[static_cast<int>(level)]);
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
}
}  // namespace hetero
