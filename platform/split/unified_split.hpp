// The split engine for unified memory (issue 5; seeds 000 and 003): both slots run the chunk variant
// of the kernel on the same memory, taking chunks of flattened work-groups from opposite ends of the
// NDRange — the "GPU" (preferred) slot from the bottom, the "CPU" slot from the top — until they
// meet. Every work-group runs exactly once on one device, so nothing is copied or merged. Chunk sizes
// follow each device's measured speed (guided self-scheduling weighted by throughput).
#pragma once

#include "platform/engine/command.hpp"
#include "platform/split/decision.hpp"

#include <string>
#include <vector>

namespace hetero {

// What the unified engine adds to splitDecision's rules: every memory argument lives in unified
// memory, and the chunk variant exists on both slots. Returns `decision`, unsplit with a reason if not.
SplitDecision unifiedSplitDecision(SplitDecision decision, const Kernel& kernel, const std::vector<KernelArg>& args);

// Runs the launch split between decision.gpuSlot (= sub.slot) and decision.cpuSlot. Returns the
// backend event (of the GPU slot's context) that completes when both devices are done.
cl_event submitUnifiedSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                            const LaunchGeometry& launch, const SplitDecision& decision);

}  // namespace hetero
