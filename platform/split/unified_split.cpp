#include "platform/split/unified_split.hpp"

#include "platform/split/chaos.hpp"
#include "platform/split/exit_gate.hpp"
#include "platform/split/config.hpp"
#include "platform/split/split_common.hpp"
#include "platform/split/variants.hpp"
#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/engine/queue.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/support/log.hpp"
#include "platform/support/thread_name.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <thread>

namespace hetero {

// ---------------------------------------------------------------------------------------------
// Per-context resources: one internal in-order queue per slot for the chunks (never the
// application's queues: a later command there waiting for this launch would block its chunks).
// ---------------------------------------------------------------------------------------------
struct UnifiedResources {
    Context* context = nullptr;
    std::mutex mutex;
    std::vector<backend::Queue> queues;

    cl_command_queue queue(unsigned slot) {
        std::lock_guard lock(mutex);
        if (!queues[slot]) {
            queues[slot] = backend::queue(context->backend(slot), Device::instance()->slots()[slot].device, 0);
            if (!queues[slot]) fail(CL_OUT_OF_RESOURCES);
        }
        return queues[slot].get();
    }
    // No clFinish on the queues as they go (see Queue::~Queue): the context may go on a backend's
    // callback thread. Every launch holds the context until its work is done.
};

UnifiedResources& Context::unifiedResources() {
    std::call_once(unifiedOnce_, [this] {
        auto* r = new UnifiedResources;
        r->context = this;
        r->queues.resize(slotCount());
        unified_ = std::unique_ptr<UnifiedResources, void (*)(UnifiedResources*)>(r, [](UnifiedResources* p) { delete p; });
    });
    return *unified_;
}

namespace {

// The two sides of a launch: the "GPU" (preferred slot) takes chunks from the lowest work-groups up,
// the "CPU" from the highest down.
enum Side : unsigned { Gpu = 0, Cpu = 1 };
Side otherSide(Side s) { return s == Gpu ? Cpu : Gpu; }

// Per kernel and global size, the seconds per work-group each side took last time: the next launch
// starts with chunks of the right proportion instead of probing again.
struct Speeds {
    double perGroup[2] = {-1, -1};
};
std::mutex speedsMutex;
std::map<std::string, Speeds>& speedHistory() {
    static auto* h = new std::map<std::string, Speeds>;
    return *h;
}
std::string speedKey(const std::string& kernel, const LaunchGeometry& l) {
    std::string k = kernel;
    for (cl_uint d = 0; d < l.dims; ++d) k += ":" + std::to_string(l.global[d]);
    return k;
}

// One split launch, shared by the two side workers.
struct UnifiedRun {
    Ref<Context> context;
    Ref<Kernel> kernel;
    std::shared_ptr<KernelVariants> variants;
    std::vector<KernelArg> args;  // keeps the memory objects alive
    std::string name, key;
    LaunchGeometry launch;
    transform::NDRange range;
    uint64_t groups = 0;
    unsigned slot[2] = {0, 0};
    uint64_t minChunk[2] = {1, 1};   // compute units: the smallest chunk that fills the device
    std::vector<cl_event> before[2];  // backend events each side waits for first (owned)
    backend::Event done;              // user event of the GPU slot's context: the launch's event
    double started = 0, traceStarted = 0;
    double begun = -1;  // when the first chunk was taken (what it waited for does not count as its time)
    std::shared_ptr<ProbeTicket> probe;  // the launch is a probe (auto mode)
    backend::QuietWaits quiet;           // waits block rather than spin until the CPU side is done

    // The partition, under `mutex`: work-groups [lo, hi) are not assigned yet.
    std::mutex mutex;
    uint64_t lo = 0, hi = 0;
    bool fixedShare = false;   // HETERO_CPU_SHARE: the CPU takes [floor, groups), the GPU the rest
    uint64_t floor = 0;
    bool active[2] = {true, true};  // still taking chunks
    double seconds[2] = {0, 0};     // time each side spent on its chunks
    double lastPerGroup[2] = {-1, -1};  // seconds per work-group of each side's latest chunk
    double busyUntil[2] = {0, 0};       // when each side's running chunk should end (estimate)
    double historyPerGroup[2] = {-1, -1};
    uint64_t ran[2] = {0, 0};       // work-groups each side ran
    uint64_t lastChunk[2] = {0, 0};
    unsigned chunks[2] = {0, 0};
    std::atomic<int> sidesLeft{2};  // the side that brings it to 0 completes the launch
    cl_int failure = CL_SUCCESS;    // a chunk failed: the launch fails, nobody takes more
    cl_int leftBehind = CL_SUCCESS; // an enqueue failed and its chunk was handed back

    ~UnifiedRun() {
        for (auto& list : before) backend::releaseAll(list);
        done.reset();  // only when the launch never started
    }
    // The latest chunk's speed: the first chunk of a launch may include the backend's compilation
    // for this local size, and the devices' load changes while a launch runs.
    double perGroup(Side s) const { return lastPerGroup[s] > 0 ? lastPerGroup[s] : historyPerGroup[s]; }
};

// A chunk should be worth its fixed costs (an enqueue, the backend's dispatch, a worker's wake-up:
// tens of microseconds): at least this much work, unless that is more than the side's fair share.
constexpr double kChunkSeconds = 250e-6;

// How many work-groups `side` takes next at time `t`; 0: none (the rest is left to the other side).
// Caller holds r.mutex. Guided self-scheduling weighted by measured speed: each side takes half of
// its fair share of what is left (the share with which both would finish together, counting what
// the other still has running), so chunks shrink towards the meeting point.
uint64_t nextChunk(const UnifiedRun& r, Side side, double t) {
    const uint64_t left = r.hi - r.lo;
    if (left == 0 || r.failure != CL_SUCCESS) return 0;
    const Side other = otherSide(side);
    if (!r.active[other]) return left;  // alone now: everything that is left
    if (chaos::on()) return 1 + chaos::below(static_cast<unsigned>(std::min<uint64_t>(left, 1u << 20)));
    if (r.fixedShare) {
        if (side == Gpu) return r.lo < r.floor ? std::min(r.floor, r.hi) - r.lo : 0;
        return r.hi > r.floor ? r.hi - std::max(r.floor, r.lo) : 0;
    }
    const double mine = r.perGroup(side), theirs = r.perGroup(other);
    if (mine <= 0) return std::min(r.minChunk[side], left);  // first chunk: a probe that just fills the device
    if (theirs <= 0) {
        // The other is still on its probe (perhaps compiling): grow, but keep half of what is left.
        return std::min(std::max(r.minChunk[side], std::min(2 * r.lastChunk[side], left / 2)), left);
    }
    // Seconds the other side needs for all that is left, after what it is running now.
    const double otherAlone = std::max(0.0, r.busyUntil[other] - t) + double(left) * theirs;
    const double fair = otherAlone / (mine + theirs);  // n * mine == otherAlone - n * theirs
    uint64_t n = std::max({static_cast<uint64_t>(std::ceil(fair / 2)), static_cast<uint64_t>(std::ceil(kChunkSeconds / mine)),
                           r.minChunk[side]});
    n = std::min(n, std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(fair))));
    // Never take a chunk that would end after the other device could have done all that is left.
    if (double(n) * mine >= otherAlone) n = static_cast<uint64_t>(std::max(0.0, std::ceil(otherAlone / mine) - 1));
    return std::min(n, left);
}

bool failed(cl_event e) {
    cl_int st = CL_COMPLETE;
    backend::eventStatus(e, &st);
    return st < 0;
}

// One side: chunks from its end until nothing is left for it.
void runSide(UnifiedRun& r, Side side) {
    const unsigned slot = r.slot[side];
    const trace::Lane lane{static_cast<int>(slot), "chunks"};
    auto stop = [&](cl_int failure) {
        std::lock_guard lock(r.mutex);
        if (failure != CL_SUCCESS && r.failure == CL_SUCCESS) r.failure = failure;
        r.active[side] = false;
    };
    try {
        cl_command_queue queue = r.context->unifiedResources().queue(slot);
        const cl_uint numArgs = static_cast<cl_uint>(r.args.size());
        // What the launch waited for (earlier writes, the command's wait list on this slot).
        auto& before = r.before[side];
        if (backend::waitFor(before) != CL_SUCCESS)
            return stop(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        chaos::delay(10000);  // test knob: one side starts late (or not)
        for (;;) {
            chaos::delay(2000);
            uint64_t begin, end;
            {
                std::lock_guard lock(r.mutex);
                const double t = splitClock();
                uint64_t n = nextChunk(r, side, t);
                if (n == 0) {
                    r.active[side] = false;
                    return;
                }
                if (side == Gpu) {
                    begin = r.lo;
                    end = r.lo += n;
                } else {
                    end = r.hi;
                    begin = r.hi -= n;
                }
                r.lastChunk[side] = n;
                r.busyUntil[side] = t + double(n) * std::max(0.0, r.perGroup(side));
                if (r.begun < 0) r.begun = t;
            }
            const double t0 = splitClock(), traceBegin = trace::enabled() ? trace::now() : 0;
            backend::Event last;  // the chunk's last sub-launch
            unsigned enqueued = 0;
            cl_int error = CL_SUCCESS;
            // The CPU side's chunks pass the exit gate; the GPU side's take over what it refuses.
            auto enqueueChunk = [&] {
                std::lock_guard lock(r.variants->mutex);
                KernelVariants::LaneCommand c = r.variants->chunkOn(slot, queue);
                r.kernel->applyArgs(c.kernel, slot, r.args);
                for (const auto& sl : transform::chunkLaunches(r.range, begin, end)) {
                    setVariantExtraArgs(c.kernel, numArgs, sl.extraArgs);
                    backend::Event e;
                    check(backend::enqueueKernel(queue, c.kernel, sl.dims, sl.offset, sl.global, sl.local, {}, e.receive()));
                    last = std::move(e);  // releases the one before
                    ++enqueued;
                }
                c.choice.ran(last.get());
            };
            try {
                if (side == Cpu)
                    exit_gate::enqueue(enqueueChunk, last);
                else
                    enqueueChunk();
            } catch (const Error& e) {
                error = e.code;
            }
            if (error != CL_SUCCESS && enqueued == 0) {
                // Nothing of the chunk runs: hand it back for the other side, and leave.
                if (!exit_gate::closed())
                    HETERO_LOG(Warn, "split launch of %s: slot %u refused a chunk (%s); the other device takes over",
                               r.name.c_str(), slot, errorName(error));
                std::lock_guard lock(r.mutex);
                if (side == Gpu)
                    r.lo = begin;  // only this side moves lo, so lo is still `end`
                else
                    r.hi = end;
                r.leftBehind = error;
                r.active[side] = false;
                return;
            }
            // The in-order queue: the last sub-launch done means the whole chunk is.
            if (last) {
                if (backend::waitFor(last.get()) != CL_SUCCESS || failed(last.get())) error = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
                last.reset();
            }
            if (error != CL_SUCCESS) return stop(error);  // part of the chunk may have run: the launch fails
            const double t1 = splitClock();
            if (trace::enabled())
                trace::span(lane, r.name, traceBegin, trace::now(),
                            {trace::num("first", double(begin)), trace::num("last", double(end - 1))});
            std::lock_guard lock(r.mutex);
            r.seconds[side] += t1 - t0;
            r.lastPerGroup[side] = (t1 - t0) / double(end - begin);
            r.ran[side] += end - begin;
            ++r.chunks[side];
        }
    } catch (const Error& e) {
        stop(e.code);
    } catch (const std::exception&) {
        stop(CL_OUT_OF_HOST_MEMORY);
    }
}

// After both sides: history, counters, trace, log; then the launch's event completes.
void finish(UnifiedRun& r) {
    const double seconds = splitClock() - r.started;
    cl_int result = r.failure;
    if (result == CL_SUCCESS && r.lo < r.hi) result = r.leftBehind != CL_SUCCESS ? r.leftBehind : CL_OUT_OF_RESOURCES;
    if (result == CL_SUCCESS && r.ran[Gpu] + r.ran[Cpu] != r.groups) {  // never: every group exactly once
        HETERO_LOG(Error, "split launch of %s: %llu + %llu work-groups ran of %llu", r.name.c_str(),
                   (unsigned long long)r.ran[Gpu], (unsigned long long)r.ran[Cpu], (unsigned long long)r.groups);
        result = CL_OUT_OF_RESOURCES;
    }
    if (result == CL_SUCCESS) {
        recordSplit(r.variants->historyKey, r.launch, splitClock() - std::max(r.started, r.begun), r.probe != nullptr,
                    r.groups ? double(r.ran[Cpu]) / double(r.groups) : -1);
        std::lock_guard lock(speedsMutex);
        Speeds& s = speedHistory()[r.key];
        for (Side side : {Gpu, Cpu}) {
            if (r.ran[side] > 0)
                s.perGroup[side] = r.seconds[side] / double(r.ran[side]);
            else if (s.perGroup[side] > 0)
                s.perGroup[side] *= 0.75;  // left out on an old estimate: look better each time until probed again
        }
    }
    // The "CPU" is the other slot, whatever its device type (two PoCL slots are both CPUs).
    countLaunch(counters::LaunchesSplitUnified, r.groups, r.ran[Cpu]);
    for (Side side : {Gpu, Cpu}) counters::addSlotWorkGroups(r.slot[side], r.ran[side]);
    traceLaunch(r.name, static_cast<int>(r.slot[Gpu]), r.groups, r.ran[Cpu], true, r.traceStarted, trace::now(),
                {trace::str("memory", "unified")});
    HETERO_LOG(Info, "split %s (unified): %llu work-groups, CPU did %llu (%.1f%%) in %u chunks, GPU %u chunks, 0 bytes moved, %.3f ms%s",
               r.name.c_str(), (unsigned long long)r.groups, (unsigned long long)r.ran[Cpu],
               r.groups ? 100.0 * double(r.ran[Cpu]) / double(r.groups) : 0.0, r.chunks[Cpu], r.chunks[Gpu], seconds * 1e3,
               result == CL_SUCCESS ? "" : ", failed");
    backend::Event done = std::move(r.done);
    // Let go of the kernel, memory objects and context before the launch is seen complete, so that an
    // application releasing everything then sees its objects go at once (the run itself may live on
    // a little in a worker's hands).
    r.args.clear();
    r.variants.reset();
    r.kernel = Ref<Kernel>();
    r.context = Ref<Context>();
    backend::complete(done.get(), result == CL_SUCCESS ? CL_COMPLETE : result);
    done.reset();
}

// Two process-wide workers, one for the "GPU" side of every unified launch and one for the "CPU"
// side, each taking launches in submission order. That order is one of dependencies (a command is
// submitted only after everything it waits for), so a worker never waits for a launch queued behind
// it; and however many launches an application enqueues, the engine uses two threads.
class Workers {
public:
    static Workers& instance() {
        static Workers* w = new Workers;  // never destroyed: the workers wait on it until the process ends
        return *w;
    }
    // Throws Error when the threads cannot be started.
    void push(const std::shared_ptr<UnifiedRun>& run) {
        std::call_once(started_, [this] {
            try {
                for (Side side : {Gpu, Cpu}) std::thread([this, side] {
                    nameThisThread(side == Gpu ? "hetero unif gpu" : "hetero unif cpu");
                    loop(side);
                }).detach();
                running_ = true;
            } catch (const std::exception&) {
            }
        });
        if (!running_) fail(CL_OUT_OF_RESOURCES);
        std::lock_guard lock(mutex_);
        for (Side side : {Gpu, Cpu}) pending_[side].push_back(run);
        changed_.notify_all();
    }

private:
    void loop(Side side) {
        for (;;) {
            std::shared_ptr<UnifiedRun> run;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return !pending_[side].empty(); });
                run = std::move(pending_[side].front());
                pending_[side].pop_front();
            }
            runSide(*run, side);
            if (side == Cpu) run->quiet.release();  // the CPU is done: waits may spin again
            if (--run->sidesLeft == 0) finish(*run);  // the launch is complete once both sides are
        }
    }
    std::once_flag started_;
    bool running_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::shared_ptr<UnifiedRun>> pending_[2];
};

}  // namespace

SplitDecision unifiedSplitDecision(SplitDecision decision, const Kernel& kernel, const std::vector<KernelArg>& args) {
    if (!decision.split) return decision;
    for (const auto& a : args)
        if (a.mem && !a.mem->storage().singleCopy()) {
            decision.split = false;
            decision.why = "a memory argument keeps a copy per device (an image, or a misaligned CL_MEM_USE_HOST_PTR)";
            return decision;
        }
    const auto& kv = kernel.variants();
    if (!kv->chunk[decision.gpuSlot] || !kv->chunk[decision.cpuSlot]) {
        decision.split = false;
        decision.why = "the chunk variant is missing on a slot";
    }
    return decision;
}

cl_event submitUnifiedSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                            const LaunchGeometry& launch, const SplitDecision& decision) {
    auto run = std::make_shared<UnifiedRun>();
    UnifiedRun& r = *run;
    r.context = Ref<Context>(kernel.context());
    r.kernel = Ref<Kernel>(&kernel);
    r.variants = kernel.variants();
    r.args = args;
    r.name = kernel.name();
    r.key = speedKey(r.name, launch);
    r.launch = launch;
    r.probe = decision.probe;
    r.started = splitClock();
    r.quiet = backend::QuietWaits(quietWaits());
    r.traceStarted = trace::enabled() ? trace::now() : 0;
    r.slot[Gpu] = decision.gpuSlot;
    r.slot[Cpu] = decision.cpuSlot;
    r.range = resolveSplitRange(r.launch, kernel.maxWorkGroupSize());
    r.groups = r.range.numGroups();
    r.hi = r.groups;
    const double share = cpuShare();
    r.fixedShare = share > 0;
    r.floor = r.fixedShare ? r.groups - static_cast<uint64_t>(std::llround(share * double(r.groups))) : 0;
    for (Side side : {Gpu, Cpu}) r.minChunk[side] = computeUnits(r.slot[side]);
    {
        std::lock_guard lock(speedsMutex);
        auto it = speedHistory().find(r.key);
        if (it != speedHistory().end())
            for (Side side : {Gpu, Cpu}) r.historyPerGroup[side] = it->second.perGroup[side];
    }

    cl_context gpuContext = r.context->backend(r.slot[Gpu]);
    r.done = backend::userEvent(gpuContext);
    if (!r.done) fail(CL_OUT_OF_RESOURCES);

    // Every storage once, locked in address order (sub-buffers share their root's storage).
    std::vector<Storage*> storages, written;
    for (const auto& a : args)
        if (a.mem) {
            storages.push_back(&a.mem->storage());
            if (!(a.mem->flags() & CL_MEM_READ_ONLY)) written.push_back(&a.mem->storage());
        }
    for (auto* v : {&storages, &written}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    std::vector<std::unique_lock<std::mutex>> locks;
    for (Storage* s : storages) locks.emplace_back(s->mutex);
    // Nothing moves (one copy); each side waits for the writes still running before its first chunk.
    std::vector<cl_event> waits[2] = {sub.waitsOn(nullptr), {}};  // the sides run on queues of their own
    for (Storage* s : storages)
        for (Side side : {Gpu, Cpu}) s->makeFresh(r.slot[side], sub.queue, waits[side]);
    for (const auto& a : args)  // the backend objects exist before the side threads use them
        if (a.mem)
            for (Side side : {Gpu, Cpu}) a.mem->backendMem(r.slot[side]);
    for (Side side : {Gpu, Cpu})
        for (cl_event e : waits[side]) r.before[side].push_back(backend::retainEvent(e));
    backend::Event forCommand = backend::Event::retained(r.done.get());  // one for the command, one for the engine
    Workers::instance().push(run);
    // The launch's writes are ready when both sides are done; other slots get a bridge of the event.
    for (Storage* s : written) s->wroteOn(r.slot[Gpu], forCommand.get());
    return forCommand.release();
}

}  // namespace hetero
