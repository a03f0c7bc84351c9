// Whether one launch runs whole or split, and between which slots: configuration (config.hpp), the
// transform's verdict, what the launch writes (docs/hazards.md H2, H5) and, in auto mode, the
// kernel's history (split_history.hpp) fed by timings of its launches.
#pragma once

#include "platform/objects/kernel.hpp"
#include "platform/split/launch_geometry.hpp"
#include "platform/split/split_history.hpp"
#include "platform/split/variants.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hetero {

// How one launch will run: on one slot, split between gpuSlot and cpuSlot, or split over nwaySlots.
struct SplitDecision {
    bool split = false;
    std::shared_ptr<ProbeTicket> probe;  // set when this split is a probe (auto mode)
    bool timeUnsplit = false;  // auto mode wants this launch timed if it runs whole (timeUnsplitLaunch)
    bool timeNext = false;     // and the next one (SplitHistory::Decision::timeNext)
    // Auto mode planned the CPU's share (SplitHistory::planShare): the split runs as a static split
    // of it. <0: adaptive (or HETERO_CPU_SHARE's static share).
    double plannedShare = -1;
    // Auto mode's expectation of the launch's time run whole (SplitHistory::Decision::wholeSeconds;
    // negative: not known).
    double expectedWholeSeconds = -1;
    unsigned gpuSlot = 0, cpuSlot = 0;
    // An N-way split (nway_split.hpp): the GPU slots that take part, gpuSlot (the primary) first,
    // and the CPU slot last where it joins (nwayCpuShare > 0). Empty for a split between gpuSlot
    // and cpuSlot.
    std::vector<unsigned> nwaySlots;
    // The CPU slot's share of an N-way split's work-groups, at the top (0: it takes no part), and
    // whether it is the trial share that measures the CPU's speed (SplitHistory::recordTrialSplit).
    double nwayCpuShare = 0;
    bool nwayCpuTrial = false;
    const char* why = "";  // why not split (a literal: no allocation on the launch path)
    // Auto mode found the launch unable to gain: this many of the kernel's next launches of the
    // same cost may run whole untimed without being decided (whole_verdict.hpp), and are counted
    // in the history as launches (historyCounts) unless the GPU runs them in one go, which the
    // history never hears of.
    unsigned wholeUntimedFor = 0;
    bool historyCounts = true;
    // Under HETERO_SPLIT=always, the launch would have split but the kernel's variants are still
    // being built: it runs whole and completes only after that build (Submission::tails).
    std::shared_ptr<Tail> variantsBuilding;
};
SplitDecision splitDecision(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                            unsigned preferredSlot);

// The history's key for a launch: its global size.
LaunchSize historySizeOf(const LaunchGeometry& launch);

// The bytes of the memory objects a launch of `kernel` (its variants `kv`) may write (`mems[i]`:
// argument i's object, or null), which auto mode's model counts a split as moving (0 in unified
// memory).
double bytesMayWrite(const Kernel& kernel, const KernelVariants& kv, Mem* const* mems, size_t count);

// What a split launch writes: one entry per storage, with the scalar size it is written through.
struct Written {
    Storage* storage;
    size_t elementSize;
};
// The written storages of a launch; false (and `why`) when it cannot be split (H2, H5).
bool writtenStorages(const KernelVariants& kv, const std::vector<KernelArg>& args, std::vector<Written>& out,
                     const char*& why);

// Reads auto mode's history of this device set once (history_store.hpp), and has it written back
// when the process exits, so that a program's next run starts where this one ended. Called when a
// program that may split is built: file and driver queries stay out of the first launch's time
// (a program that launches each kernel once paid 0.15-0.25 ms on the H100 when the first launch did it).
void keepSplitHistoryBetweenRuns();

// A marker enqueued on `queue` with `waitList`: its completion is when a launch enqueued right
// after it could start (a split launch's time counts from there). Null if the backend refused.
cl_event startTiming(cl_command_queue queue, const std::vector<cl_event>& waitList);

// Times a launch run whole for the decision history (`kernel`: its KernelVariants::historyKey)
// when SplitDecision::timeUnsplit asks: `done`
// is its backend event on a queue with profiling (Queue::timingQueue), or null when it could not
// be timed. See launch_timing.hpp.
void timeUnsplitLaunch(cl_event done, const std::string& kernel, const LaunchGeometry& launch);

// Records a split launch in the history under the kernel's KernelVariants::historyKey (`seconds`:
// from when it could start; `probe`: it was a probe, whose loss against running whole counts
// against the kernel's probe budget; `cpuShare`: the share of the work-groups the CPU did, or -1;
// `planned`: its share was auto mode's plan).
void recordSplit(const std::string& kernel, const LaunchGeometry& launch, double seconds, bool probe,
                 double cpuShare, bool planned = false);
// Records an N-way split launch whose CPU took its trial share (SplitHistory::recordTrialSplit),
// instead of recordSplit.
void recordTrialSplit(const std::string& kernel, const LaunchGeometry& launch, double seconds);
// Records the CPU's own speed in a split launch of `kernel` (SplitHistory::recordCpuSpeed): a chunk
// of `chunkGroups` of the launch's work-groups took `chunkSeconds`; its first chunk started
// `startSeconds` into the split. Call before recordSplit.
void recordCpuSpeed(const std::string& kernel, const LaunchGeometry& launch, uint64_t groups, uint64_t chunkGroups,
                    double chunkSeconds, double startSeconds);
// Records a GPU slot's own speed in an N-way split of `kernel` (SplitHistory::recordNwayGpuSpeed):
// its part of `partGroups` of the launch's work-groups took `seconds`. Call before recordSplit.
void recordNwayGpuSpeed(const std::string& kernel, unsigned slot, const LaunchGeometry& launch, uint64_t groups,
                        uint64_t partGroups, double seconds);

}  // namespace hetero
