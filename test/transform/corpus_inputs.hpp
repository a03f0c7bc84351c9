// The deterministic inputs of a corpus kernel: one byte array per buffer argument, as its //@ init
// says (zero, iota, const:V, randint:lo:hi, rand); empty for other arguments. Used by the transform
// tests and by the engine tests that run the corpus through Hetero.
#pragma once

#include "corpus_spec.hpp"

#include <cstdint>
#include <vector>

namespace corpus {

std::vector<std::vector<unsigned char>> initialBuffers(const KernelSpec& spec, uint64_t seed);

}  // namespace corpus
