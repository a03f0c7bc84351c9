// Mutations of OpenCL C program text for the transform fuzzer: each takes a program (its source
// strings and build options) and returns a hostile variant of it, deterministically from the
// random engine it is given, so that a seed and an iteration number reproduce a mutant exactly.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace fuzz {

struct Program {
    std::vector<std::string> sources;  // the strings given to clCreateProgramWithSource
    std::string options;               // the build options
};

using Rng = std::mt19937_64;

// The engine of iteration `iteration` under `seed`: independent of every other iteration.
Rng rngFor(uint64_t seed, uint64_t iteration);

// One to three mutations from every family (truncation, byte flips, deep nesting of parens, braces,
// statements and #if, huge and recursive macros, long identifiers, unbalanced comments and strings,
// #include of missing files, #line abuse, pragmas, NUL bytes, line-ending and encoding changes,
// splices of `donor`, hostile build options). The result may be anything; names what was done.
Program mutateHostile(const Program& base, const std::string& donor, Rng& rng, std::string& what);

// Mutations that leave a valid program valid on a conforming compiler almost always (nesting below
// the compilers' limits, unused huge macros, self-referential macros, long parameter names,
// directives and comments between top-level declarations, line splices, other line endings):
// for comparing results through Hetero with the backend's. `paramNames` are renamed as whole words.
Program mutateValid(const Program& base, const std::vector<std::string>& paramNames, Rng& rng, std::string& what);

// A printable summary of a program for logs (its length and the first bytes, escaped).
std::string describe(const Program& p);

}  // namespace fuzz
