#include "platform/split/variants.hpp"

#include "platform/split/decision.hpp"
#include "platform/split/history_store.hpp"

#include "devices/backend.hpp"
#include "devices/backend_objects.hpp"
#include "platform/memory/memory_model.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/kept_binaries.hpp"
#include "platform/observe/counters.hpp"
#include "platform/split/config.hpp"
#include "platform/split/resources.hpp"
#include "platform/split/split_history.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "platform/support/thread_name.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <functional>
#include <future>
#include <system_error>
#include <thread>

namespace hetero {

namespace {

// Runs every job at once, each but the first in a thread of its own (on this thread where no
// thread can be had), and returns when all have; then rethrows the first exception of a job, if
// any. Not parallelFor: its kept threads are for short copies, and these are one-off builds.
void runAtOnce(const std::vector<std::function<void()>>& jobs) {
    std::exception_ptr failed;
    auto keepFirst = [&failed] {
        if (!failed) failed = std::current_exception();
    };
    // A job this thread runs may throw too: the jobs after it still run, and the others are waited for.
    auto runHere = [&keepFirst](const std::function<void()>& job) {
        try {
            job();
        } catch (...) {
            keepFirst();
        }
    };
    std::vector<std::future<void>> running;
    running.reserve(jobs.size());  // only starting a thread may throw below
    for (size_t i = 1; i < jobs.size(); ++i) {
        try {
            running.push_back(std::async(std::launch::async, [&job = jobs[i]] {
                nameThisThread("hetero variants");
                job();
            }));
        } catch (const std::system_error&) {
            runHere(jobs[i]);
        }
    }
    if (!jobs.empty()) runHere(jobs[0]);
    for (auto& r : running) {
        try {
            r.get();
        } catch (...) {
            keepFirst();
        }
    }
    if (failed) std::rethrow_exception(failed);
}

// HETERO_TEST_VARIANTS_BUILD_DELAY_MS=<n> (tests only): a build in the background first waits this
// long, so that launches and the process's exit meet it under way.
unsigned buildDelayMs() {
    static const unsigned ms = [] {
        auto v = config::get("HETERO_TEST_VARIANTS_BUILD_DELAY_MS", "test_variants_build_delay_ms");
        return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 0u;
    }();
    return ms;
}

// Builds under way in threads of their own. An application may return from main while one
// compiles: the ending threads wait for them (thread_end.hpp), and so does an exit
// handler registered with the first build, for a process that exits from a thread that never
// called in (after the backends were loaded: it runs before their exit handlers, not before
// those LLVM registers during a compile).
struct BuildsUnderWay {
    std::mutex mutex;
    std::condition_variable over;
    unsigned count = 0;
};
BuildsUnderWay& buildsUnderWay() {
    static auto* b = new BuildsUnderWay;  // never destroyed: used at exit
    return *b;
}

// Whether auto mode's history says a kernel of `v` would have split in the last process that
// launched it, its variants built (SplitHistory::prebuildVariants).
bool historyWantsVariants(const ProgramVariants& v) {
    if (splitMode() != SplitMode::Auto) return false;
    for (const auto& k : v.analysis.kernels)
        if (k.splittable && SplitHistory::instance().prebuildVariants(v.historyKey + "/" + k.name)) {
            HETERO_LOG(Info, "split variants built with the program: the history says kernel %s splits", k.name.c_str());
            return true;
        }
    return false;
}

}  // namespace

void ProgramVariants::build(Context* context) {
    const auto& slots = Device::instance()->slots();
    std::vector<backend::Program> built(context->slotCount());
    std::vector<std::unique_ptr<DistinctBuild>> builtNames(context->slotCount());
    // Every slot's build, and every GPU slot's merge kernels, at once: launches run whole until the
    // build is over (under HETERO_SPLIT=always they complete after it), and one after another they
    // took longer than syr2k's whole launch on an H200 (NVIDIA's variants, PoCL's, NVIDIA's merge kernels: the
    // first launch 14.4-15.7 ms against 9.25 native with kept binaries; docs/results/h200-session32).
    std::vector<std::function<void()>> jobs;
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        jobs.push_back([&, s] {
            // Two slots of one PoCL device run the chunk variant at once, and so do two contexts'
            // builds of it: each needs a kernel hash of its own there (slotOwnBuildOptions,
            // distinct_build.hpp: a PoCL 4.0-5.0 bug). PoCL names a program built from a binary by
            // the binary alone, whatever the options: such a slot is built from source.
            builtNames[s] = std::make_unique<DistinctBuild>(slots[s], source, slotOwnBuildOptions(slots, s, options));
            const std::string& slotOptions = builtNames[s]->options();
            built[s] = kept_binaries::build(slots[s], context->backend(s), source, slotOptions, slotOptions == options);
            if (!built[s]) HETERO_LOG(Warn, "split variants did not build on slot %u; launches run unsplit", s);
        });
    }
    // Every discrete split merges on a GPU slot (the pair's on its GPU, N-way ones on the primary,
    // which also search changed spans on every other GPU slot; unified splits merge nothing): those
    // kernels are built here, with the variants, before they count as built, so that no split
    // builds or waits for them. Built by the first split that merged, NVIDIA's build of them (about
    // 190 ms on a fresh machine) was that split's merge: syr2k LARGE's first planned split took
    // 199 ms against 5.2 whole on an H200 (docs/results/h200-session30); over four H100s one build
    // per GPU added 13 ms to the first split. Built even where the variants do not build on that
    // slot (it is not known yet): no split merges there then, and the kernels go unused.
    if (context->memoryModel() == MemoryModel::Discrete) {
        for (unsigned s : Backends::instance().gpuSlots()) {
            if (s >= context->slotCount()) continue;
            jobs.push_back([context, s] {
                try {
                    context->splitResources().slot(s).mergeKernels.prepare();
                } catch (const Error&) {  // the first launch that needs them tries again, and fails there
                }
            });
        }
    }
    runAtOnce(jobs);
    std::vector<std::unique_ptr<SlotLanes>> builtLanes;
    for (unsigned s = 0; s < context->slotCount(); ++s) builtLanes.push_back(std::make_unique<SlotLanes>());
    lanes_ = std::move(builtLanes);
    names = std::move(builtNames);
    programs = std::move(built);  // read by others only once state_ says Built
    state_.store(State::Built, std::memory_order_release);
    counters::add(counters::VariantBuilds);
}

std::shared_ptr<Tail> ProgramVariants::buildInBackground(Context* context) {
    std::lock_guard lock(mutex_);
    if (state_.load() == State::Built) return nullptr;
    if (state_.load() == State::Building) return building_;
    auto tail = std::make_shared<Tail>();
    Ref<Context> keep(context);  // its backend contexts, while the build runs
    std::shared_ptr<ProgramVariants> self;
    BuildsUnderWay& under = buildsUnderWay();
    static std::once_flag atExit;
    std::call_once(atExit, [] { std::atexit(waitForVariantBuilds); });
    try {
        self = shared_from_this();
        std::lock_guard counting(under.mutex);
        std::thread([self, keep, tail, &under]() mutable {
            nameThisThread("hetero variants");
            if (const unsigned ms = buildDelayMs()) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
            const auto start = std::chrono::steady_clock::now();
            try {
                self->build(keep.get());
                HETERO_LOG(Info, "split variants built in %.1f ms",
                           std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            } catch (...) {
                HETERO_LOG(Warn, "building the split variants failed; launches run unsplit");
                self->programs.clear();
                self->state_.store(State::Built, std::memory_order_release);
                counters::add(counters::VariantBuilds);
            }
            {
                std::lock_guard done(self->mutex_);
                self->building_.reset();
            }
            self.reset();  // where these were the last references, released before the exit goes on
            keep = Ref<Context>();
            {
                // Counted over before the tail finishes: what runs then (an application's callback)
                // may exit, and must not wait for this thread.
                std::lock_guard counted(under.mutex);
                if (--under.count == 0) under.over.notify_all();
            }
            // Last: the launches that found the variants unbuilt complete now (event_tail.hpp).
            tail->finish();
        }).detach();
        ++under.count;
    } catch (const std::system_error&) {
        return nullptr;  // no thread: launches run whole, and the next one tries again
    }
    state_.store(State::Building);
    building_ = tail;
    return tail;
}

std::shared_ptr<Tail> ProgramVariants::buildingTail() {
    if (state_.load(std::memory_order_acquire) != State::Building) return nullptr;
    std::lock_guard lock(mutex_);
    return building_;
}

void ProgramVariants::waitForBuild() {
    std::shared_ptr<Tail> tail = buildingTail();
    if (!tail) return;
    std::promise<void> over;
    std::future<void> done = over.get_future();
    tail->whenFinished([&over] { over.set_value(); });
    done.wait();
}

KernelLanes& ProgramVariants::kernelLanes(unsigned slot, const std::string& kernelName) {
    if (slot >= lanes_.size()) fail(CL_INVALID_OPERATION);
    SlotLanes& l = *lanes_[slot];
    std::lock_guard lock(l.mutex);
    auto& k = l.kernels[kernelName];
    if (!k) k = std::make_unique<KernelLanes>(Device::instance()->slots()[slot].isPocl());
    return *k;
}

cl_program ProgramVariants::laneProgram(unsigned slot, unsigned lane) {
    if (slot >= lanes_.size() || slot >= programs.size() || !programs[slot]) fail(CL_INVALID_OPERATION);
    SlotLanes& l = *lanes_[slot];
    std::lock_guard lock(l.mutex);
    if (l.programs.size() < lane) {
        l.programs.resize(lane);
        l.names.resize(lane);
    }
    backend::Program& p = l.programs[lane - 1];
    if (!p) {
        const Slot& s = Device::instance()->slots()[slot];
        cl_context c = backend::programContext(programs[slot].get());
        const std::string& base = names.at(slot)->options();
        auto name = std::make_unique<DistinctBuild>(s, source, laneBuildOptions(base, lane));
        HETERO_LOG(Info, "split variants on slot %u: a build for lane %u (two queues run one at once)", slot, lane);
        p = kept_binaries::build(s, c, source, name->options(), false);
        if (!p) fail(CL_OUT_OF_RESOURCES);
        l.names[lane - 1] = std::move(name);
    }
    return p.get();
}

void waitForVariantBuilds() {
    BuildsUnderWay& b = buildsUnderWay();
    std::unique_lock lock(b.mutex);
    b.over.wait(lock, [&] { return b.count == 0; });
}

bool splittingConfigured() {
    Device* d = Device::instance();
    return d && d->slots().size() >= 2 && splitMode() != SplitMode::Off;
}

std::shared_ptr<ProgramVariants> buildProgramVariants(Context* context, const std::string& source,
                                                      const std::string& options) {
    auto v = std::make_shared<ProgramVariants>();
    v->analysis = transform::analyze({source}, options);
    v->historyKey = history_store::programKey(source, options);
    keepSplitHistoryBetweenRuns();
    bool any = false;
    for (const auto& k : v->analysis.kernels) {
        any = any || k.splittable;
        if (!k.splittable) HETERO_LOG(Info, "kernel %s runs unsplit: %s", k.name.c_str(), k.reason.c_str());
    }
    if (!v->analysis.parsed || !any) return nullptr;
    v->source = transform::makeVariants({source}, options, v->analysis).source;
    v->options = options;
    if (eagerVariantBuilds())
        v->build(context);
    else if (historyWantsVariants(*v))
        v->buildInBackground(context);  // its launches run whole until it is over (splitDecision)
    return v;
}

std::shared_ptr<KernelVariants> createKernelVariants(const std::shared_ptr<ProgramVariants>& program,
                                                     const std::string& name) {
    if (!program) return nullptr;
    const transform::KernelAnalysis* ka = program->analysis.find(name);
    if (!ka || !ka->splittable) return nullptr;
    auto kv = std::make_shared<KernelVariants>();
    kv->program = program;
    kv->analysis = ka;
    kv->historyKey = program->historyKey + "/" + name;
    kv->ready();  // eager builds: the kernels exist from the start
    return kv;
}

bool KernelVariants::ready() {
    if (ready_.load(std::memory_order_acquire)) return true;
    if (!program->built()) return false;
    std::lock_guard lock(mutex);
    if (ready_.load()) return true;
    const std::string& name = analysis->name;
    for (size_t slot = 0; slot < program->programs.size(); ++slot) {
        cl_program p = program->programs[slot].get();
        backend::Kernel chunkKernel, abortKernel;
        if (p) {
            chunkKernel = backend::kernel(p, name + "__hetero_chunk");
            abortKernel = backend::kernel(p, name + "__hetero_abort");
        }
        size_t fixed[3] = {0, 0, 0};
        if (chunkKernel && backend::kernelWorkGroupInfo(chunkKernel.get(), Device::instance()->slots()[slot].device,
                                                        CL_KERNEL_COMPILE_WORK_GROUP_SIZE, fixed) == CL_SUCCESS)
            fixedWorkGroupSize |= fixed[0] || fixed[1] || fixed[2];
        chunk.push_back(std::move(chunkKernel));
        abort.push_back(std::move(abortKernel));
        for (Laned* v : {&chunkLaned_, &abortLaned_}) {
            v->lanes.push_back(p ? &program->kernelLanes(static_cast<unsigned>(slot), name + v->suffix) : nullptr);
            v->others.emplace_back();
        }
    }
    ready_.store(true, std::memory_order_release);
    return true;
}

KernelVariants::LaneCommand KernelVariants::laneCommand(Laned& variant, unsigned slot, cl_command_queue queue) {
    LaneCommand c;
    KernelLanes* lanes = slot < variant.lanes.size() ? variant.lanes[slot] : nullptr;
    if (!lanes) fail(CL_INVALID_OPERATION);  // no variants on the slot
    c.choice = lanes->choose(queue);
    const unsigned lane = c.choice.lane();
    if (lane == 0) {
        c.kernel = variant.lane0[slot].get();
        return c;
    }
    auto& mine = variant.others[slot];
    if (mine.size() < lane) mine.resize(lane);
    if (!mine[lane - 1]) mine[lane - 1] = backend::kernel(program->laneProgram(slot, lane), analysis->name + variant.suffix);
    c.kernel = mine[lane - 1].get();
    if (!c.kernel) fail(CL_OUT_OF_RESOURCES);
    return c;
}

KernelVariants::LaneCommand KernelVariants::chunkOn(unsigned slot, cl_command_queue queue) {
    return laneCommand(chunkLaned_, slot, queue);
}

KernelVariants::LaneCommand KernelVariants::abortOn(unsigned slot, cl_command_queue queue) {
    return laneCommand(abortLaned_, slot, queue);
}

void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra) {
    for (size_t i = 0; i < extra.size(); ++i)
        check(backend::setArg(k, first + static_cast<cl_uint>(i), extra[i].size, extra[i].value.data()));
}

}  // namespace hetero
