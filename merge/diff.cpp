#include "merge/diff.hpp"

#include <algorithm>
#include <cstring>

namespace hetero::merge {

std::pair<size_t, size_t> differingRange(const unsigned char* a, const unsigned char* b, size_t bytes,
                                         size_t elementSize) {
    constexpr size_t block = 4096;
    size_t first = 0;
    while (first < bytes) {
        size_t n = std::min(block, bytes - first);
        if (std::memcmp(a + first, b + first, n) != 0) break;
        first += n;
    }
    if (first == bytes) return {0, 0};
    while (a[first] == b[first]) ++first;
    size_t last = bytes;
    while (last - first > block && std::memcmp(a + last - block, b + last - block, block) == 0) last -= block;
    while (a[last - 1] == b[last - 1]) --last;
    first -= first % elementSize;
    last = std::min(bytes, (last + elementSize - 1) / elementSize * elementSize);
    return {first, last};
}

}  // namespace hetero::merge
