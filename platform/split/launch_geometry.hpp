// A kernel launch's sizes as the application gave them, and the work-groups they make.
#pragma once

#include "transform/transform.hpp"

#include <CL/cl.h>

#include <cstddef>
#include <cstdint>

namespace hetero {

// A launch as the application gave it (sizes resolved).
struct LaunchGeometry {
    cl_uint dims = 1;
    size_t offset[3] = {0, 0, 0};
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {0, 0, 0};
    bool hasOffset = false;
    bool hasLocal = false;
    bool empty = false;
};

// A local size for a launch that gave none: what divides the global size, up to 64 in dimension 0
// (the split engines' rule; the backend's own choice cannot be asked for).
void chooseLocalSize(LaunchGeometry& l, size_t maxGroup);

// The work-groups of a launch. Without a local size, those of chooseLocalSize(), so that whole and
// split launches of one kernel are counted in the same work-groups. 0 for an empty launch.
uint64_t workGroupsOf(const LaunchGeometry& l, size_t maxGroup);

// The launch as the transform sees it (unused dimensions are 1).
transform::NDRange toNDRange(const LaunchGeometry& l);

// The NDRange of a split launch, choosing a local size first when the application gave none.
transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize);

}  // namespace hetero
