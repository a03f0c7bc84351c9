// The measuring knob HETERO_TEST_SPLIT_ONLY (config.hpp): one side of a static split, run alone,
// so that bench/run can time what each device takes for its part (its real-ideal figures).
// Results are wrong on purpose: the other side's work-groups are never computed.
#pragma once

#include "platform/engine/command.hpp"
#include "platform/engine/submit.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/launch_geometry.hpp"

#include <vector>

namespace hetero {

// Where a launch runs under the knob: the CPU side on a CPU slot other than `gpuSlot` (the decision's
// rule), else `gpuSlot`, which also runs kernels that cannot be split (whole, as a split would).
unsigned onlySideSlot(const Kernel& kernel, unsigned gpuSlot);

// Enqueues only the knob's side of the static split of the launch on sub.slot: the abortable
// variant with the status word already at the CPU's share (GPU side), or the chunk variant over
// the top share (CPU side). False when the kernel has no such variant there: it then runs whole.
bool submitOnlySide(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                    const std::vector<Access>& accesses, cl_event& done);

}  // namespace hetero
