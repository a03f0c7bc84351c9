// Where a function declaration sits in the program or one of its headers: the positions the
// rewriter edits when it copies the declaration under another name.
#pragma once

#include "analyzer.hpp"
#include "copy_rules.hpp"
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
    std::vector<std::pair<size_t, size_t>> declarationExtents;  // [start, end) of the program's top-level declarations
    std::map<std::string, std::string> userHeaders;  // every header not in a system directory -> contents
    std::map<std::string, IncludeChain> includeChains;
};

// Fills includeEnd for every header the program includes (through its outermost #include), and
// userHeaders and includeChains for those outside system directories.
void findIncludes(const ParsedProgram& program, SourceFiles& files);

FunctionSite siteOf(CXCursor fn, SourceFiles& files);

}  // namespace hetero::transform::detail
