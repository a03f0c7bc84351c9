// Translating OpenCL build options into the clang arguments that parse the program as a backend would.
#pragma once

#include <string>
#include <vector>

namespace hetero::transform::detail {

struct ClangOptions {
    std::vector<std::string> args;     // passed to libclang after the fixed OpenCL arguments
    std::string clStd = "CL1.2";       // from -cl-std=, CL1.2 when absent
    std::vector<std::string> ignored;  // options that do not change how the source parses
    bool unsupported = false;          // e.g. -cl-std=CLC++: not parsed as OpenCL C
    std::string unsupportedReason;
};

// Splits like a shell would for the common cases (whitespace, single and double quotes).
std::vector<std::string> splitOptions(const std::string& options);

ClangOptions translateOptions(const std::string& options);

}  // namespace hetero::transform::detail
