// What changed in a buffer since it was last sent: a split launch sends the GPU only those bytes.
#pragma once

#include <cstddef>
#include <utility>

namespace hetero::merge {

// The byte range [first, last) where `a` and `b` differ, widened to whole elements of
// `elementSize` (docs/hazards.md H2); {0, 0} when they are equal. From 1 MiB on, slices are compared
// on parallelFor's threads (platform/support/parallel_for.hpp); the caller's thread takes part.
std::pair<size_t, size_t> differingRange(const unsigned char* a, const unsigned char* b, size_t bytes,
                                         size_t elementSize);

}  // namespace hetero::merge
