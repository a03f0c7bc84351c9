// Parsing an OpenCL C program (the application's source strings and build options) with libclang.
#pragma once

#include <clang-c/Index.h>

#include <memory>
#include <string>
#include <vector>

namespace hetero::transform::detail {

struct ParsedProgram {
    CXIndex index = nullptr;
    CXTranslationUnit tu = nullptr;
    std::string fileName;  // name of the in-memory main file
    std::string text;      // the source strings concatenated, as clCreateProgramWithSource does
    std::string clStd;     // CL1.2, CL2.0, ...
    std::vector<std::string> macroOptions;  // the -D/-U build options, in order ("-DX=1", "-UY")
    bool ok = false;       // parsed without errors
    std::string log;       // diagnostics, formatted for a build log
    ParsedProgram() = default;
    ParsedProgram(const ParsedProgram&) = delete;
    ParsedProgram& operator=(const ParsedProgram&) = delete;
    ~ParsedProgram();
};

std::unique_ptr<ParsedProgram> parseProgram(const std::vector<std::string>& sources, const std::string& options);

// The directory holding the clang OpenCL headers (opencl-c-base.h) for the loaded libclang; empty if none.
const std::string& openclHeaderDir();

// Whether functions stamped out whole by a macro invocation are rewritten (HETERO_TRANSFORM_MACRO_KERNELS=on;
// off by default until the shared corpus expects it). Part of every cache key.
bool macroKernelsEnabled();

// Number of libclang parses done by this process (tests use it to observe the cache).
unsigned long parseCount();

}  // namespace hetero::transform::detail
