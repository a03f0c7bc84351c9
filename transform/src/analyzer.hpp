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
    // A definition stamped out whole by one invocation of a function-like macro: the copy is a copy
    // of the macro (edited at the positions above, which then lie in its #define) and of the
    // invocation; a name that comes from the invocation's arguments is renamed by an object-like macro.
    bool viaMacro = false;
    std::string macroName;
    size_t invocationStart = 0, invocationEnd = 0;  // "M(args)"
    size_t definitionStart = 0, definitionEnd = 0;  // "M(params) body" of the #define
    bool nameInArguments = false;
    // Placing the copy (copy_rules.cpp): directives that give the macros the original changes their
    // state at the original; the original's first line (and its invocation's, when made by a
    // macro) for the copy's #line; the line the program resumes at after the copies.
    std::string restore;
    size_t copyLine = 0, invocationLine = 0, resumeLine = 0;
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
