// The split engine (FluidiCL, seed 004): one launch of a splittable kernel runs at once on a "GPU"
// slot (the abortable variant over the whole NDRange, from the low work-group IDs) and a "CPU" slot
// (chunk-variant subkernels from the high IDs down). After each CPU chunk its written buffers go to
// the GPU, followed by the status word; when the GPU kernel ends a merge kernel combines the results.
//
// What may be split, and when it pays, is decided here too (splitDecision): configuration
// (HETERO_SPLIT, HETERO_CPU_SHARE), the transform's verdict, and per-kernel timing history.
#pragma once

#include "platform/engine/command.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/split_history.hpp"
#include "transform/transform.hpp"

#include <memory>
#include <string>
#include <vector>

namespace hetero {

// The transform's output for one program, compiled on every slot.
struct ProgramVariants {
    transform::ProgramAnalysis analysis;
    std::string historyKey;  // the program in auto mode's history (history_store::programKey)
    std::vector<cl_program> programs;  // per slot; nullptr where the variants did not build
    ~ProgramVariants();
};

// Variant kernels of one application kernel, per slot.
struct KernelVariants {
    std::shared_ptr<ProgramVariants> program;  // keeps analysis and programs alive
    const transform::KernelAnalysis* analysis = nullptr;
    std::vector<cl_kernel> chunk;  // K__hetero_chunk per slot (nullptr: not available)
    std::vector<cl_kernel> abort;  // K__hetero_abort per slot
    bool fixedWorkGroupSize = false;  // reqd_work_group_size: its chunks never run work-groups split (§6.3)
    std::string historyKey;           // the kernel in auto mode's history: program's key + "/" + name
    std::mutex mutex;              // held while a launch sets arguments and enqueues
    ~KernelVariants();
};

// True when launches may be split at all (two slots or more, HETERO_SPLIT not "off").
bool splittingConfigured();

// Analyses `source` and builds the variants on every slot; nullptr when nothing is splittable or
// the variants did not build (logged; never an error for the application).
std::shared_ptr<ProgramVariants> buildProgramVariants(Context* context, const std::string& source,
                                                      const std::string& options);

// Creates the variant kernels of `name`; nullptr when the kernel is not splittable.
std::shared_ptr<KernelVariants> createKernelVariants(const std::shared_ptr<ProgramVariants>& program,
                                                     const std::string& name);

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

// How one launch will run: on one slot, or split between gpuSlot and cpuSlot.
struct SplitDecision {
    bool split = false;
    std::shared_ptr<ProbeTicket> probe;  // set when this split is a probe (auto mode)
    bool timeUnsplit = false;  // auto mode wants this launch timed if it runs whole (timeUnsplitLaunch)
    unsigned gpuSlot = 0, cpuSlot = 0;
    std::string why;  // for the log: why not split
};
SplitDecision splitDecision(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                            unsigned preferredSlot);

// Runs the launch split between decision.gpuSlot (= sub.slot) and decision.cpuSlot. Returns the
// backend event (on the GPU slot) that completes when the merged results are in place.
cl_event submitSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                     const LaunchGeometry& launch, const SplitDecision& decision);

// A marker enqueued on `queue` with `waitList`: its completion is when a launch enqueued right
// after it could start (a split launch's time counts from there). Null if the backend refused.
cl_event startTiming(cl_command_queue queue, const std::vector<cl_event>& waitList);
// One reference to a backend event, released when it goes.
struct HeldEvent {
    cl_event e = nullptr;
    HeldEvent() = default;
    HeldEvent(const HeldEvent&) = delete;
    HeldEvent& operator=(const HeldEvent&) = delete;
    ~HeldEvent() { if (e) BACKEND(e, clReleaseEvent)(e); }
};
// Times a launch run whole for the decision history (`kernel`: its KernelVariants::historyKey)
// when SplitDecision::timeUnsplit asks: `done`
// is its backend event on a queue with profiling (Queue::timingQueue), or null when it could not
// be timed. See launch_timing.hpp.
void timeUnsplitLaunch(cl_event done, const std::string& kernel, const LaunchGeometry& launch);

// Shared with the unified engine (platform/split/split_unified.cpp), which follows the same rules:
// the NDRange of a split launch (resolving a NULL local size as the discrete engine does),
transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize);
// HETERO_CPU_SHARE (a fixed CPU share in (0,1], or negative: adaptive),
double cpuShare();
// the history of split launches (auto mode), under the kernel's KernelVariants::historyKey
// (`seconds`: the split's time from when it could start; `probe`: it was a probe, whose loss
// against running whole counts against the kernel's probe budget; `cpuShare`: the share of the
// work-groups the CPU did),
void recordSplit(const std::string& kernel, const LaunchGeometry& launch, double seconds, bool probe, double cpuShare);
// the transform's extra arguments of a variant kernel, from argument index `first`,
void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra);
// a slot's compute units (at least 1), and seconds on the steady clock.
cl_uint computeUnits(unsigned slot);
double splitClock();

}  // namespace hetero
