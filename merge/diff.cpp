#include "merge/diff.hpp"

#include "platform/support/parallel_for.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <vector>

namespace hetero::merge {

namespace {

constexpr size_t kBlock = 4096;
// From here on the slices are compared on several threads: one core compares a few GB/s, and a
// split launch's CPU side scans every written object whole after its chunks, before the GPU may merge.
constexpr size_t kParallelBytes = size_t(1) << 20;

// [first, last) of the differing bytes of one slice, {bytes, 0} when it has none.
std::pair<size_t, size_t> differingBytes(const unsigned char* a, const unsigned char* b, size_t bytes) {
    size_t first = 0;
    while (first < bytes) {
        size_t n = std::min(kBlock, bytes - first);
        if (std::memcmp(a + first, b + first, n) != 0) break;
        first += n;
    }
    if (first == bytes) return {bytes, 0};
    while (a[first] == b[first]) ++first;
    size_t last = bytes;
    while (last - first > kBlock && std::memcmp(a + last - kBlock, b + last - kBlock, kBlock) == 0) last -= kBlock;
    while (a[last - 1] == b[last - 1]) --last;
    return {first, last};
}

}  // namespace

std::pair<size_t, size_t> differingRange(const unsigned char* a, const unsigned char* b, size_t bytes,
                                         size_t elementSize) {
    size_t first = bytes, last = 0;
    if (bytes < kParallelBytes) {
        std::tie(first, last) = differingBytes(a, b, bytes);
    } else {
        const unsigned slices = parallelThreads();
        const size_t slice = (bytes + slices - 1) / slices;
        std::vector<std::pair<size_t, size_t>> found(slices, {bytes, 0});
        parallelFor(slices, [&](unsigned i) {
            const size_t at = std::min(bytes, size_t(i) * slice), n = std::min(slice, bytes - at);
            auto [f, l] = differingBytes(a + at, b + at, n);
            if (f < l) found[i] = {at + f, at + l};
        });
        for (const auto& [f, l] : found) {
            first = std::min(first, f);
            last = std::max(last, l);
        }
    }
    if (first >= last) return {0, 0};
    first -= first % elementSize;
    last = std::min(bytes, (last + elementSize - 1) / elementSize * elementSize);
    return {first, last};
}

}  // namespace hetero::merge
