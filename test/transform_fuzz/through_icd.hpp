// Mutants through clBuildProgram as an application makes it: on platform "Hetero" (through the ICD
// loader, which the test environment points at Hetero alone) and on PoCL directly, side by side.
#pragma once

#include "corpus_spec.hpp"
#include "mutators.hpp"

#include <string>

namespace fuzz {

struct IcdResult {
    bool nativeBuilt = false;
    bool heteroBuilt = false;
    unsigned launchesCompared = 0;
    unsigned launchesSplit = 0;  // of those, how many Hetero split (its counters)
    std::string problem;         // empty: Hetero behaved as the backend did
};

// Builds `p` on both; the build must succeed through Hetero exactly when it does on PoCL. When it
// does, launches every kernel of `spec` that the corpus can launch (test/transform/corpus) with
// its inputs (`inputSeed`), and every buffer must end bit-identical on both.
struct IcdTarget;
IcdTarget* openIcdTarget(std::string& error);
IcdResult buildAndCompare(IcdTarget& target, const Program& p, const corpus::ProgramSpec& spec, uint64_t inputSeed);
// Whether the corpus can launch `kernel` here (a splittable kernel with a launch, no images, no
// OpenCL 2.0 requirement).
bool launchable(const corpus::KernelSpec& kernel);

}  // namespace fuzz
