// The split engine (FluidiCL, seed 004): one launch of a splittable kernel runs at once on a "GPU"
// slot (the abortable variant over the whole NDRange, from the low work-group IDs) and a "CPU" slot
// (chunk-variant subkernels from the high IDs down). After each CPU chunk its written buffers go to
// the GPU, followed by the status word; when the GPU kernel ends a merge kernel combines the results.
//
// What may be split, and when it pays, is decided here too (splitDecision): configuration
// (HETERO_SPLIT, HETERO_CPU_SHARE), the transform's verdict, and per-kernel timing history.
#pragma once

#include "platform/command.hpp"
#include "platform/kernel.hpp"
#include "platform/split_history.hpp"
#include "transform/transform.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

// The transform's output for one program: analysed at clBuildProgram, built on the slots only
// when a launch first wants to split (HETERO_SPLIT_BUILD=lazy, the default: compiling the variants
// made every build several times slower, for programs that mostly never split), or at once (eager).
struct ProgramVariants : std::enable_shared_from_this<ProgramVariants> {
    transform::ProgramAnalysis analysis;
    std::string source;                // the variants program (transform::makeVariants)
    std::string options;               // the application's build options
    std::vector<cl_program> programs;  // per slot once built; nullptr where the variants did not build
    ~ProgramVariants();

    bool built() const { return state_.load(std::memory_order_acquire) == State::Built; }
    // Builds on every slot, on this thread (eager builds).
    void build(Context* context);
    // Starts the build in a thread of its own unless it is built or under way. Returns the build's
    // tail while it runs (event_tail.hpp): a launch that found the variants unbuilt runs whole and
    // completes after the build, so that no compiler runs on once the application saw its launches
    // complete. Nullptr once built.
    std::shared_ptr<Tail> buildInBackground(Context* context);

private:
    enum class State { Unbuilt, Building, Built };
    std::atomic<State> state_{State::Unbuilt};
    std::mutex mutex_;
    std::shared_ptr<Tail> building_;  // while State::Building
};

// Variant kernels of one application kernel, per slot; made once the program's variants are built.
struct KernelVariants {
    std::shared_ptr<ProgramVariants> program;  // keeps analysis and programs alive
    const transform::KernelAnalysis* analysis = nullptr;
    std::vector<cl_kernel> chunk;  // K__hetero_chunk per slot (nullptr: not available); once ready()
    std::vector<cl_kernel> abort;  // K__hetero_abort per slot; once ready()
    bool fixedWorkGroupSize = false;  // reqd_work_group_size: its chunks never run work-groups split (§6.3)
    std::mutex mutex;              // held while a launch sets arguments and enqueues
    ~KernelVariants();
    // True once chunk and abort exist (made here the first time the program's variants are built);
    // they never change afterwards.
    bool ready();

private:
    std::atomic<bool> ready_{false};
};

// True when launches may be split at all (two slots or more, HETERO_SPLIT not "off").
bool splittingConfigured();

// Analyses `source` and makes the variants program, built at once on every slot when
// HETERO_SPLIT_BUILD=eager (else when a launch first wants to split); nullptr when nothing is
// splittable (logged; never an error for the application).
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
    // The launch would have split, but the kernel's variants are still being built: it runs whole
    // and completes only after that build (Submission::tails).
    std::shared_ptr<Tail> variantsBuilding;
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
// Times a launch run whole for the decision history when SplitDecision::timeUnsplit asks: `done`
// is its backend event on a queue with profiling (Queue::timingQueue), or null when it could not
// be timed. See launch_timing.hpp.
void timeUnsplitLaunch(cl_event done, const std::string& kernel, const LaunchGeometry& launch);

// Shared with the unified engine (platform/split_unified.cpp), which follows the same rules:
// the NDRange of a split launch (resolving a NULL local size as the discrete engine does),
transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize);
// HETERO_CPU_SHARE (a fixed CPU share in (0,1], or negative: adaptive),
double cpuShare();
// the history of split launches (auto mode),
// (`seconds`: the split's time from when it could start; `probe`: it was a probe, whose loss
// against running whole counts against the kernel's probe budget)
void recordSplit(const std::string& kernel, const LaunchGeometry& launch, double seconds, bool probe);
// the transform's extra arguments of a variant kernel, from argument index `first`,
void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra);
// a slot's compute units (at least 1), and seconds on the steady clock.
cl_uint computeUnits(unsigned slot);
double splitClock();

}  // namespace hetero
