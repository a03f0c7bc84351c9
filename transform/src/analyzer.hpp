// Per-kernel analysis of a parsed program, plus the source positions the rewriter needs.
#pragma once

#include "parse.hpp"
#include "transform/transform.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace hetero::transform::detail {

// Where a function declaration sits in the program text, for copying it under another name.
struct FunctionSite {
    std::string name;
    std::string file;                // "" for the program itself, else the included header (offsets are in it)
    bool ok = false;                 // every position below is literal program text
    std::string problem;             // why not, when !ok
    bool isDefinition = false;
    size_t start = 0, end = 0;       // [start, end): the declaration (without a prototype's ';')
    size_t nameOffset = 0;           // name token
    size_t openParen = 0, closeParen = 0;
    bool emptyParams = false;        // "()" or "(void)": extra parameters replace the list
    size_t bodyOpen = 0;             // just after the body's '{' (definitions)
    size_t insertAt = 0;             // in the program: just after the declaration ('}' or ';'), or after
                                     // the #include line of its header
};

struct KernelDetail {
    FunctionSite site;
    std::vector<size_t> loopChecks;      // just after the '{' of loops where an abort check is safe (H1)
    std::set<std::string> chunkHelpers;  // names of helpers (transitively) calling remapped work-item functions
};

struct ProgramModel {
    ProgramAnalysis analysis;
    std::vector<KernelDetail> kernels;                        // parallel to analysis.kernels
    std::map<std::string, std::vector<FunctionSite>> helpers;  // name -> every declaration of that name
    std::map<std::string, std::string> files;                  // header name -> contents (sites in headers)
};

ProgramModel analyzeProgram(const ParsedProgram& program);

}  // namespace hetero::transform::detail
