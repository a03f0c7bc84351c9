// The transform's promises on any source text, checked in a child process per mutant so that a
// crash or a hang costs one case and is reported with the mutant, not the whole run.
#pragma once

#include "mutators.hpp"

#include <string>

namespace fuzz {

struct CaseResult {
    // ParserCrash: libclang's own parse died (clang's limit on nesting, where PoCL's compiler, the
    // same clang, dies on the text too: not the transform's promise to keep).
    enum Kind { Ok, Violation, Crash, Hang, ParserCrash } kind = Ok;
    std::string detail;    // the broken promise, the signal, or the time limit
    bool parsed = false;   // libclang parsed the mutant cleanly
    unsigned kernels = 0;  // kernels the analysis found
    unsigned split = 0;    // kernels the variants program holds variants of
};

// analyze() then makeVariants() on `p` in a child process, which must end within `hangSeconds`:
//  * a program that does not parse has no splittable kernel;
//  * a variants program holding any variant parses cleanly;
//  * every kernel with variants was called splittable; neither call throws.
// `cli`: also run the hetero-transform tool (path) on the mutant written to a file in `scratchDir`.
CaseResult checkInChild(const Program& p, unsigned hangSeconds, const std::string& cli, const std::string& scratchDir);

}  // namespace fuzz
