// Launch sizes: the local size chosen for a launch that gave none, work-group counts, NDRanges.
#include "platform/split/launch_geometry.hpp"

#include <algorithm>

namespace hetero {

void chooseLocalSize(LaunchGeometry& l, size_t maxGroup) {
    for (cl_uint d = 0; d < l.dims; ++d) {
        size_t limit = d == 0 ? std::min<size_t>(64, maxGroup) : 1;
        size_t best = 1;
        for (size_t c = limit; c >= 1; --c)
            if (l.global[d] % c == 0) {
                best = c;
                break;
            }
        l.local[d] = best;
    }
    l.hasLocal = true;
}

uint64_t workGroupsOf(const LaunchGeometry& launch, size_t maxGroup) {
    if (launch.empty) return 0;
    LaunchGeometry l = launch;
    if (!l.hasLocal) chooseLocalSize(l, maxGroup ? maxGroup : 1);
    uint64_t groups = 1;
    for (cl_uint d = 0; d < l.dims; ++d) groups *= (l.global[d] + l.local[d] - 1) / l.local[d];  // non-uniform: the last is partial
    return groups;
}

transform::NDRange toNDRange(const LaunchGeometry& l) {
    transform::NDRange r;
    r.dims = l.dims;
    for (cl_uint d = 0; d < 3; ++d) {
        r.offset[d] = d < l.dims ? l.offset[d] : 0;
        r.global[d] = d < l.dims ? l.global[d] : 1;
        r.local[d] = d < l.dims ? l.local[d] : 1;
    }
    return r;
}

transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize) {
    if (!launch.hasLocal) chooseLocalSize(launch, maxWorkGroupSize ? maxWorkGroupSize : 1);
    return toNDRange(launch);
}

}  // namespace hetero
