// The N-way split engine for discrete memory (docs/multi-slot.md, issue 17): one launch over two
// or more GPU slots (Backends::gpuSlots), each running the chunk variant over its own exclusive,
// contiguous range of the flattened work-groups, fixed up front (no abort, no status word):
//   - before any kernel, every slot's copy of every argument is made current, and the primary
//     (the first slot, where the launch was placed) snapshots the written objects (`orig`);
//   - after its kernel, each other slot's copy of each written object comes to the primary through
//     host memory (`recv`) and merge/merge.hpp's kernel folds it in: primary := recv != orig ? recv
//     : primary, raw bits at the stored size (docs/hazards.md H2). Exclusive ranges make this exact;
//   - the written objects are then current on the primary only; the other slots' copies are stale
//     until something needs them there.
// The CPU slot joins where the decision gives it a share (SplitDecision::nwayCpuShare): the last,
// exclusive range, at the top, sized from the speeds its earlier splits measured; its copy is the
// host copy. The FluidiCL pair (discrete_split.hpp) stays for one GPU + CPU.
#pragma once

#include "platform/engine/command.hpp"
#include "platform/split/decision.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hetero {

// Runs the launch split over decision.nwaySlots (the first = sub.slot). Returns the backend event
// (of the primary slot) that completes when the merged results are in place there.
cl_event submitNwaySplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                         const LaunchGeometry& launch, const SplitDecision& decision);

// N-way launches submitted and not finished; they count against kMaxDiscreteSplitsInFlight.
unsigned nwaySplitsInFlight();

// Each slot's weight in a split of `kernel` (its KernelVariants::historyKey) over `slots`: GPUs of
// one name equal, else by their speeds measured in earlier N-way splits of the kernel, else by
// compute units (SplitHistory::nwayGpuWeights). With `cpuShare` > 0 the last slot is the CPU,
// weighted to take that share of the whole (SplitDecision::nwayCpuShare). Under the chaos knob they
// are drawn at random, so that the ranges' edges fall everywhere.
std::vector<double> nwayShareWeights(const std::vector<unsigned>& slots, const std::string& kernel, double cpuShare = 0);

// The other GPU slots' share of a split of `kernel` over `slots` over the first's (their weights, as
// above): what auto mode's model expects of them (decision.cpp).
double nwayOthersOverFirst(const std::vector<unsigned>& slots, const std::string& kernel);

}  // namespace hetero
