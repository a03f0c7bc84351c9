// How large an adaptive split's next CPU chunk may be (discrete_split.cpp): the CPU takes work-groups
// from the top down while the GPU sweeps them from the bottom up, skipping those whose results came.
// A chunk that ends after the GPU got to its groups is wasted work, and one still running when the
// GPU ends holds the launch's completion back (its tail). FluidiCL's chunks double without bound:
// syr2k's adaptive probes on an H200 took 10-12.7 ms against 9.2 run whole, a chunk outlasting the
// GPU (docs/results/h200-session31). Pure arithmetic, tested on its own (test/platform_unit/).
#pragma once

#include <algorithm>
#include <cstdint>

namespace hetero {

// The most work-groups below `next` that a CPU chunk started at `now` may take and still end, its
// results sent (`sendSeconds`), before a GPU that started group 0 at `gpuFrom` and runs the groups
// in order, `gpuPerGroup` seconds each, gets to the lowest of them, at `cpuPerGroup` seconds each;
// 0 when fewer than `fewest` would.
inline uint64_t groupsThatEndInTime(uint64_t next, double now, double gpuFrom, double gpuPerGroup, double cpuPerGroup,
                                    double sendSeconds, uint64_t fewest) {
    // n groups [next - n, next) end at now + n * cpuPerGroup + sendSeconds; the GPU reaches
    // group next - n at gpuFrom + (next - n) * gpuPerGroup.
    const double room = gpuFrom + double(next) * gpuPerGroup - now - sendSeconds;
    if (room <= 0 || cpuPerGroup + gpuPerGroup <= 0) return 0;
    const double fit = room / (cpuPerGroup + gpuPerGroup);
    const uint64_t n = fit >= double(next) ? next : static_cast<uint64_t>(fit);
    return n < std::max<uint64_t>(fewest, 1) ? 0 : n;
}

}  // namespace hetero
