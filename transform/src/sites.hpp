// Where a function declaration sits in the program or one of its headers: the positions the
// rewriter edits when it copies the declaration under another name.
#pragma once

#include "analyzer.hpp"
#include "parse.hpp"

#include <clang-c/Index.h>

#include <map>
#include <string>

namespace hetero::transform::detail {

// The program's own text and those of the headers it includes, for copying declarations.
struct SourceFiles {
    const ParsedProgram* program = nullptr;
    std::map<std::string, std::string> texts;  // header name -> contents
    std::map<std::string, size_t> includeEnd;  // header name -> program offset after its #include line
};

// Fills includeEnd for every header the program includes (through its outermost #include).
void findIncludes(const ParsedProgram& program, SourceFiles& files);

FunctionSite siteOf(CXCursor fn, SourceFiles& files);

}  // namespace hetero::transform::detail
