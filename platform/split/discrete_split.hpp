// The split engine for discrete memory (FluidiCL): one launch of a splittable kernel runs at once on
// a "GPU" slot (the abortable variant over the whole NDRange, from the low work-group IDs) and a
// "CPU" slot (chunk-variant subkernels from the high IDs down). After each CPU chunk its written
// buffers go to the GPU, followed by the status word; when the GPU kernel ends a merge kernel
// combines the results (merge/), and the merged result streams back to the CPU's copies.
#pragma once

#include "platform/engine/command.hpp"
#include "platform/split/decision.hpp"

#include <vector>

namespace hetero {

// Runs the launch split between decision.gpuSlot (= sub.slot) and decision.cpuSlot. Returns the
// backend event (on the GPU slot) that completes when the merged results are in place.
cl_event submitSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                     const LaunchGeometry& launch, const SplitDecision& decision);

// Each split launch in flight holds snapshot, receive and staging buffers of every object it writes,
// and a thread; an application that enqueues thousands of launches at once must not get thousands
// of those: beyond this many, a launch runs whole.
constexpr unsigned kMaxDiscreteSplitsInFlight = 16;
unsigned discreteSplitsInFlight();

}  // namespace hetero
