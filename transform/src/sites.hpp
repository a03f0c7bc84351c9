// Where a function declaration sits in the program or one of its headers: the positions the
// rewriter edits when it copies the declaration under another name.
#pragma once

#include "analyzer.hpp"
#include "parse.hpp"

#include <clang-c/Index.h>

#include <map>
#include <string>
#include <vector>

namespace hetero::transform::detail {

// The program's own text and those of the headers it includes, for copying declarations.
struct SourceFiles {
    const ParsedProgram* program = nullptr;
    std::map<std::string, std::string> texts;  // header name -> contents
    std::map<std::string, size_t> includeEnd;  // header name -> program offset after its #include line
    std::vector<CXCursor> macroExpansions;     // in the program (with the detailed preprocessing record)
    std::vector<unsigned> declarationStarts;   // program offsets where top-level declarations begin
};

// Fills includeEnd for every header the program includes (through its outermost #include).
void findIncludes(const ParsedProgram& program, SourceFiles& files);

FunctionSite siteOf(CXCursor fn, SourceFiles& files);

}  // namespace hetero::transform::detail
