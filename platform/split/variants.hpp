// The split variants of a program's kernels (K__hetero_chunk, K__hetero_abort: transform/README.md),
// built on every slot. The one hook through which programs and kernels take part in splitting.
#pragma once

#include "devices/backend_call.hpp"
#include "devices/distinct_build.hpp"
#include "devices/kernel_lanes.hpp"
#include "platform/engine/event_tail.hpp"
#include "platform/split/span_guesses.hpp"
#include "platform/split/whole_verdict.hpp"
#include "transform/transform.hpp"

#include <CL/cl.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

class Context;

// The transform's output for one program: analysed at clBuildProgram, built on the slots only
// when a launch first wants to split (HETERO_SPLIT_BUILD=lazy, the default: compiling the variants
// made every build several times slower, for programs that mostly never split) or the history says
// one will, or at once (eager).
struct ProgramVariants : std::enable_shared_from_this<ProgramVariants> {
    transform::ProgramAnalysis analysis;
    std::string historyKey;            // the program in auto mode's history (history_store::programKey)
    std::string source;                // the variants program (transform::makeVariants)
    std::string options;               // the application's build options
    // Per slot once built: the name each build holds on a PoCL device (distinct_build.hpp), given
    // back only after the programs are released (declared before them).
    std::vector<std::unique_ptr<DistinctBuild>> names;
    std::vector<backend::Program> programs;  // per slot once built; empty where the variants did not build

    bool built() const { return state_.load(std::memory_order_acquire) == State::Built; }
    // The lanes of variant kernel `kernelName` on `slot` (kernel_lanes.hpp: tracked on PoCL), and
    // the program of a lane above 0, built on first use (throws Error). Once built.
    KernelLanes& kernelLanes(unsigned slot, const std::string& kernelName);
    cl_program laneProgram(unsigned slot, unsigned lane);
    // Builds on every slot, on this thread (eager builds).
    void build(Context* context);
    // Starts the build in a thread of its own unless it is built or under way. Returns the build's
    // tail while it runs (event_tail.hpp), nullptr once built. No compiler may run on once the
    // process exits: the end of every application thread that built a program or launched a
    // kernel waits for the builds under way (waitForVariantBuilds), and so does the exit.
    std::shared_ptr<Tail> buildInBackground(Context* context);
    // The tail of the build under way, nullptr when none is.
    std::shared_ptr<Tail> buildingTail();
    // Returns once no build is under way (the application released the program: nothing of it
    // may compile on unseen).
    void waitForBuild();

private:
    enum class State { Unbuilt, Building, Built };
    // A slot's lanes: each variant kernel's, and the builds of lanes above 0 (lane - 1), with
    // their names (declared before the programs: given back after them).
    struct SlotLanes {
        std::mutex mutex;
        std::map<std::string, std::unique_ptr<KernelLanes>> kernels;
        std::vector<std::unique_ptr<DistinctBuild>> names;
        std::vector<backend::Program> programs;
    };
    std::vector<std::unique_ptr<SlotLanes>> lanes_;  // per slot, made with the build
    std::atomic<State> state_{State::Unbuilt};
    std::mutex mutex_;
    std::shared_ptr<Tail> building_;  // while State::Building
};

// Variant kernels of one application kernel, per slot; made once the program's variants are built.
struct KernelVariants {
    std::shared_ptr<ProgramVariants> program;  // keeps analysis and programs alive
    const transform::KernelAnalysis* analysis = nullptr;
    std::vector<backend::Kernel> chunk;  // K__hetero_chunk per slot (empty: not available); once ready()
    std::vector<backend::Kernel> abort;  // K__hetero_abort per slot; once ready()
    bool fixedWorkGroupSize = false;  // reqd_work_group_size: its chunks never run work-groups split
    std::string historyKey;           // the kernel in auto mode's history: program's key + "/" + name
    std::mutex mutex;              // held while a launch sets arguments and enqueues
    SpanGuesses spanGuesses;       // where its last N-way launches' parts changed what they wrote
    WholeVerdict wholeVerdict;     // the direct way's (launch.cpp), under the kernel's LaunchLock
    ~KernelVariants() { wholeVerdict.settle(historyKey); }
    // True once chunk and abort exist (made here the first time the program's variants are built);
    // they never change afterwards.
    bool ready();
    // A command of the chunk (abort) variant on `slot`'s `queue`: the kernel of the lane it takes
    // (kernel_lanes.hpp), `chunk[slot]` (`abort[slot]`) for lane 0. With `mutex` held, once ready;
    // `choice.ran` once the command is enqueued (the lanes stay held until then).
    struct LaneCommand {
        cl_kernel kernel = nullptr;
        KernelLanes::Choice choice;
    };
    LaneCommand chunkOn(unsigned slot, cl_command_queue queue);
    LaneCommand abortOn(unsigned slot, cl_command_queue queue);

private:
    // One variant kernel's builds on every slot: lane 0's (chunk or abort), the lanes' shared with
    // every kernel object of its name (found once, when ready), and this object's kernels of the
    // lanes above 0.
    struct Laned {
        const char* suffix;
        std::vector<backend::Kernel>& lane0;
        std::vector<KernelLanes*> lanes;               // per slot
        std::vector<std::vector<backend::Kernel>> others;  // per slot, by lane - 1
    };
    LaneCommand laneCommand(Laned& variant, unsigned slot, cl_command_queue queue);
    Laned chunkLaned_{"__hetero_chunk", chunk, {}, {}}, abortLaned_{"__hetero_abort", abort, {}, {}};
    std::atomic<bool> ready_{false};
};

// True when launches may be split at all (two slots or more, HETERO_SPLIT not "off").
bool splittingConfigured();

// Returns once no build of split variants is under way: the end of an application thread waits
// here (thread_end.hpp). No launch waits for a build (decision.cpp, holdsBuild), and an
// application may exit as soon as its last wait returns, while a build still compiles.
void waitForVariantBuilds();

// Analyses `source` and makes the variants program, built at once on every slot when
// HETERO_SPLIT_BUILD=eager, else when a launch first wants to split, or in the background from now
// where auto mode's history says a kernel of the program would have split in the last process that
// launched it (SplitHistory::prebuildVariants); nullptr when nothing is splittable (logged; never
// an error for the application).
std::shared_ptr<ProgramVariants> buildProgramVariants(Context* context, const std::string& source,
                                                      const std::string& options);

// Creates the variant kernels of `name`; nullptr when the kernel is not splittable.
std::shared_ptr<KernelVariants> createKernelVariants(const std::shared_ptr<ProgramVariants>& program,
                                                     const std::string& name);

// Sets the transform's extra arguments of a variant kernel, from argument index `first`.
void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra);

}  // namespace hetero
