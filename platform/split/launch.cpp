// Where a kernel launch runs and how (launch.hpp): the slot, the direct way, and the launch as a
// command of its queue (whole, timed, or split by one of the engines).
#include "platform/split/launch.hpp"

#include "devices/backend_commands.hpp"
#include "platform/engine/submit.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/memory/memory_model.hpp"
#include "platform/objects/context.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/config.hpp"
#include "platform/split/decision.hpp"
#include "platform/split/discrete_split.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/split/nway_split.hpp"
#include "platform/split/one_device_split.hpp"
#include "platform/split/only_side.hpp"
#include "platform/split/unified_split.hpp"
#include "platform/split/whole_verdict.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>

namespace hetero {
namespace {

// HETERO_RUN_ON: gpu | cpu | <slot> | alternate (round robin over slots, to exercise coherence).
// Read once; anything else (or a slot the kernel is missing on) runs on the kernel's reference slot.
struct RunOn {
    enum Mode { Gpu, Cpu, Slot, Alternate, Reference } mode = Gpu;
    unsigned slot = 0;
};

const RunOn& runOn() {
    static const RunOn setting = [] {
        const std::string v = config::get("HETERO_RUN_ON", "run_on").value_or("gpu");
        RunOn r;
        if (v == "alternate") {
            r.mode = RunOn::Alternate;
        } else if (v == "cpu") {
            r.mode = RunOn::Cpu;
        } else if (v == "gpu") {
            r.mode = RunOn::Gpu;
        } else if (!v.empty() && v.size() < 10 && v.find_first_not_of("0123456789") == std::string::npos) {
            r.mode = RunOn::Slot;
            r.slot = static_cast<unsigned>(std::stoul(v));
        } else {
            HETERO_LOG(Warn, "HETERO_RUN_ON=%s not understood (gpu|cpu|<slot>|alternate)", v.c_str());
            r.mode = RunOn::Reference;
        }
        return r;
    }();
    return setting;
}

int chooseSlot(const Kernel& kernel) {
    static std::atomic<unsigned> next{0};
    const RunOn& setting = runOn();
    const auto& slots = Device::instance()->slots();
    auto firstOfType = [&](cl_device_type t) -> int {
        for (const auto& s : slots)
            if ((s.type & t) && kernel.availableOn(s.index)) return static_cast<int>(s.index);
        return -1;
    };
    int slot = -1;
    switch (setting.mode) {
    case RunOn::Alternate:
        for (size_t tries = 0; tries < slots.size() && slot < 0; ++tries) {
            unsigned s = next++ % slots.size();
            if (kernel.availableOn(s)) slot = static_cast<int>(s);
        }
        break;
    case RunOn::Cpu: slot = firstOfType(CL_DEVICE_TYPE_CPU); break;
    case RunOn::Gpu: slot = firstOfType(CL_DEVICE_TYPE_GPU); break;
    case RunOn::Slot:
        if (setting.slot < slots.size() && kernel.availableOn(setting.slot)) slot = static_cast<int>(setting.slot);
        break;
    case RunOn::Reference: break;
    }
    return slot >= 0 ? slot : kernel.referenceSlot();
}

// ---------------------------------------------------------------------------------------------
// The direct way
// ---------------------------------------------------------------------------------------------

// At most this many arguments, memory objects (storages) and backend waits go the direct way: the
// lists live on the stack. More go the ordinary way.
constexpr unsigned kDirectArgs = 32;
constexpr unsigned kDirectStorages = 8;
constexpr unsigned kDirectWaits = 12;

// The memory arguments a direct launch holds while it submits: only as many as it took are
// released on the way out (an array of Ref would construct and destroy all kDirectArgs of them
// on every launch).
class HeldMems {
public:
    HeldMems() = default;
    HeldMems(const HeldMems&) = delete;
    HeldMems& operator=(const HeldMems&) = delete;
    ~HeldMems() {
        for (unsigned i = 0; i < count_; ++i) taken_[i]->release();
    }
    void keep(Ref<Mem> m) { taken_[count_++] = m.detach(); }  // at most kDirectArgs

private:
    Mem* taken_[kDirectArgs];
    unsigned count_ = 0;
};

// The storages a direct launch uses, each locked once (sub-buffers share their root's), without
// waiting: try_lock takes part in no lock order, and whoever cannot have one goes the ordinary way.
class StorageLocks {
public:
    StorageLocks() = default;
    StorageLocks(const StorageLocks&) = delete;
    StorageLocks& operator=(const StorageLocks&) = delete;
    ~StorageLocks() {
        for (unsigned i = 0; i < count_; ++i) used_[i].storage->mutex.unlock();
    }
    enum Added { Failed, Already, Locked };
    // Failed when there is no room or the lock is taken.
    Added add(Storage* s, bool writes) {
        for (unsigned i = 0; i < count_; ++i)
            if (used_[i].storage == s) {
                used_[i].writes |= writes;
                return Already;
            }
        if (count_ == kDirectStorages || !s->mutex.try_lock()) return Failed;
        used_[count_++] = {s, writes};
        return Locked;
    }
    struct Used {
        Storage* storage;
        bool writes;
    };
    const Used* begin() const { return used_; }
    const Used* end() const { return used_ + count_; }

private:
    Used used_[kDirectStorages];
    unsigned count_ = 0;
};

// Submits the launch at once on `slot`'s backend queue (a timed one on its profiling side queue),
// if it runs whole there and nothing has to move first but a pinned host copy's send. False when it
// cannot; `decided` then holds the split decision if one was made (the ordinary way uses it rather
// than ask again: the history counts every decision).
bool launchDirect(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& launch, unsigned slot,
                  bool wantEvent, std::optional<SplitDecision>& decided, Ref<Event>& event) {
    Queue::Direct direct(queue, slot);
    if (!direct.ok()) return false;
    Kernel::LaunchLock argsHeld(kernel);
    if (!argsHeld.ok()) return false;
    const std::vector<StoredKernelArg>& stored = kernel.currentArgs();
    if (stored.size() > kDirectArgs) return false;
    // The kernel does not retain its memory arguments (clSetKernelArg does not): this launch holds
    // them while it submits, as the ordinary way's command does.
    HeldMems held;
    Mem* mems[kDirectArgs];
    cl_command_queue target = direct.backendQueue();
    bool timed = false;      // auto mode times this launch (decision.hpp: timeUnsplit)
    bool timeNext = false;   // and the next one
    StorageLocks storages;
    DiscreteStorage* toSend[kDirectStorages];
    unsigned sendCount = 0;
    for (size_t i = 0; i < stored.size(); ++i) {
        const StoredKernelArg& a = stored[i];
        mems[i] = nullptr;
        // Unset, released since, or a sampler: the ordinary way reports or handles it.
        if (!a.set || a.sampler) return false;
        if (!a.mem) continue;
        Ref<Mem> strong = a.mem.lock();
        if (!strong) return false;
        Mem* m = mems[i] = strong.get();
        held.keep(std::move(strong));
        if (m->isImage()) return false;
        Storage& s = m->storage();
        // Every memory argument counts as written unless the object is read-only.
        auto added = storages.add(&s, !(m->flags() & CL_MEM_READ_ONLY));
        if (added == StorageLocks::Failed) return false;
        if (added == StorageLocks::Already) continue;
        // Stale here: sent from a pinned host copy on the launch's queue, ahead of it, once the
        // launch is known to run whole (a split moves what it needs its own way), where that needs
        // no wait; else its contents move the ordinary way.
        if (!s.freshOn(slot)) {
            DiscreteStorage* copies = s.discrete();
            if (!copies || !copies->canSendWithoutWaiting(slot)) return false;
            toSend[sendCount++] = copies;
        }
    }
    const uint64_t groups = workGroupsOf(launch, kernel.maxWorkGroupSize());
    if (const auto& kv = kernel.variants()) {
        // Auto mode's verdict on the launches before decides this one if nothing it rests on changed
        // (whole_verdict.hpp); else a fresh decision.
        WholeVerdict& verdict = kv->wholeVerdict;
        const WholeVerdict::Key key{slot, historySizeOf(launch), groups, bytesMayWrite(kernel, *kv, mems, stored.size()),
                                    kv->ready(), SplitHistory::instance().changes()};
        if (verdict.decides(key)) {
            decided.emplace();  // whole: should the launch go the ordinary way after all, it is not decided twice
        } else {
            verdict.settle(kv->historyKey);
            // What the decision looks at, in a list of this thread's used again (no allocation per
            // launch) that lets go of the memory objects once the decision is made.
            thread_local std::vector<KernelArg> args;
            struct LetGo {
                std::vector<KernelArg>& args;
                ~LetGo() { for (auto& a : args) a.mem = Ref<Mem>(); }
            } letGo{args};
            args.resize(stored.size());
            for (size_t i = 0; i < stored.size(); ++i) {
                args[i].set = true;
                args[i].size = stored[i].size;
                args[i].mem = Ref<Mem>(mems[i]);  // null for other arguments
                args[i].stamp = stored[i].stamp;
            }
            SplitDecision d = splitDecision(kernel, args, launch, slot);
            const bool whole = !d.split && !d.variantsBuilding;
            if (whole && !d.timeUnsplit) verdict.keep(key, d.wholeUntimedFor, d.historyCounts);
            timed = whole && d.timeUnsplit;
            timeNext = whole && d.timeNext;
            decided = std::move(d);
            if (!whole) return false;
        }
    }
    // A timed launch runs on the queue's profiling side queue (launch_timing.hpp), after what the
    // queue holds on the slot's own queue.
    if (timed && !(target = queue.timingQueue(slot))) return false;  // the ordinary way runs it untimed
    // Sent on the launch's queue: the launch after them there needs no wait for them.
    for (unsigned i = 0; i < sendCount; ++i)
        if (!toSend[i]->sendWithoutWaiting(slot, target)) return false;
    // What the launch waits for, on `target`: the command before it, and each storage's ready event.
    static_assert(kDirectWaits >= kDirectStorages + 1);
    cl_event waits[kDirectWaits];
    unsigned waitCount = 0;
    if (cl_event previous = direct.previousOn(target)) waits[waitCount++] = previous;
    for (const auto& u : storages)
        if (cl_event ready = u.storage->readyFor(slot, target)) waits[waitCount++] = ready;
    // No backend event unless profiling or a timing needs one (deferred_event.hpp): a launch whose
    // event the application did not ask for has no times anybody could ask for. Traced launches
    // never come here.
    const bool deferrable = !timed && (!queue.profiling() || !wantEvent);
    cl_event done = nullptr;
    cl_kernel bk = kernel.backend(slot);
    // Without an event or a wait, a launch of a kernel the backend took before goes to the
    // queue's pipe, whose thread makes its backend calls (devices/call_pipe.hpp).
    bool piped = false;
    if (deferrable && waitCount == 0 && kernel.launchedOn(slot)) {
        backend::CallPipe* pipe = direct.pipe();
        if (pipe && pipe->ready() && kernel.currentArgsPipeable(slot, mems)) {
            backend::CallPipe::Launch& l = pipe->next();
            kernel.pipeCurrentArgs(slot, mems, l);
            l.kernel = bk;
            l.dims = launch.dims;
            l.hasOffset = launch.hasOffset;
            l.hasLocal = launch.hasLocal;
            std::copy(launch.offset, launch.offset + 3, l.offset);
            std::copy(launch.global, launch.global + 3, l.global);
            std::copy(launch.local, launch.local + 3, l.local);
            pipe->push();
            piped = true;
        }
    }
    if (!piped) {
        try {
            kernel.applyCurrentArgs(slot, mems);
        } catch (const Error&) {
            return false;  // the ordinary way tries again and reports it on the launch's event
        }
        if (backend::enqueueKernel(target, bk, launch.dims, launch.hasOffset ? launch.offset : nullptr, launch.global,
                                   launch.hasLocal ? launch.local : nullptr, {waits, waitCount},
                                   deferrable ? nullptr : &done) != CL_SUCCESS)
            return false;
        kernel.launchTakenOn(slot);
    }
    std::shared_ptr<DeferredEvent> later;
    if (!done) later = queue.deferredEventAfterLast(slot, target);
    for (const auto& u : storages) {
        if (!u.writes) continue;
        if (done)
            u.storage->wroteOn(slot, done, target);
        else
            u.storage->wroteOn(slot, later);
    }
    if (timed) timeUnsplitLaunch(done, kernel.variants()->historyKey, launch);
    event = direct.submitted(type, done, std::move(later), wantEvent, piped, target);
    // The side queue of the next launch's timing, made while this one runs (on NVIDIA tens of
    // microseconds, which the timed launch paid before).
    if (timeNext) queue.timingQueue(slot);
    countWholeLaunch(slot, groups);
    return true;
}

// ---------------------------------------------------------------------------------------------
// The ordinary way: a command of the queue
// ---------------------------------------------------------------------------------------------

Ref<Event> queueLaunch(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& launch,
                       std::vector<Ref<Event>> deps, int slot, std::optional<SplitDecision> decided) {
    auto args = kernel.argsForLaunch();
    Ref<Kernel> keep(&kernel);
    // Every memory argument is brought to the slot; all but read-only objects count as written.
    auto accesses = [args] {
        std::vector<Access> a;
        for (const auto& arg : args)
            if (arg.mem) a.push_back({arg.mem.get(), !(arg.mem->flags() & CL_MEM_READ_ONLY), false});
        return a;
    };
    // A launch run whole is counted at submission and, when tracing, drawn on the "launches" lane
    // when it completes; the split engine counts and draws its own.
    struct Whole {
        uint64_t workGroups = 0, cpuWorkGroups = 0;
        bool submitted = false;
    };
    auto whole = std::make_shared<Whole>();
    CommandLabel what(type);
    if (trace::enabled()) {
        what.detail = kernel.name();
        what.alsoTrace = [whole, name = kernel.name()](int slot, double begin, double end, cl_int) {
            if (whole->submitted) traceLaunch(name, slot, whole->workGroups, whole->cpuWorkGroups, false, begin, end);
        };
    }
    return queue.enqueue(
        std::move(what), std::move(deps), [slot] { return slot; },
        [keep, args, launch, accesses, whole, decided](Submission& sub) -> cl_event {
            auto countWhole = [&] {
                whole->workGroups = workGroupsOf(launch, keep->maxWorkGroupSize());
                whole->cpuWorkGroups = countWholeLaunch(static_cast<unsigned>(sub.slot), whole->workGroups);
                whole->submitted = true;
            };
            // Measuring knob (HETERO_TEST_SPLIT_ONLY): one side of a static split, else whole.
            const bool onlySide = testOnlySide() != OnlySide::Off;
            if (onlySide && !launch.empty) {
                cl_event done = nullptr;
                if (submitOnlySide(sub, *keep, args, launch, accesses(), done)) {
                    countWhole();
                    return done;
                }
            }
            SplitDecision decision = onlySide ? SplitDecision{}
                                     : decided ? *decided
                                               : splitDecision(*keep, args, launch, static_cast<unsigned>(sub.slot));
            if (keep->context()->memoryModel() == MemoryModel::Unified) {
                decision = unifiedSplitDecision(decision, *keep, args);
                if (decision.split) return submitUnifiedSplit(sub, *keep, args, launch, decision);
            }
            if (decision.split && !decision.nwaySlots.empty())
                return slotsOfOneDevice(*keep->context(), decision.nwaySlots)
                           ? submitOneDeviceSplit(sub, *keep, args, launch, decision)
                           : submitNwaySplit(sub, *keep, args, launch, decision);
            if (decision.split) return submitSplit(sub, *keep, args, launch, decision);
            if (decision.variantsBuilding) sub.tails.push_back(decision.variantsBuilding);
            // A timed launch runs on the queue's profiling side queue (launch_timing.hpp).
            cl_command_queue timed = nullptr;
            if (decision.timeUnsplit && !launch.empty) timed = sub.queue.timingQueue(static_cast<unsigned>(sub.slot));
            if (timed) sub.backendQueue = timed;  // submitWith orders it after the commands ahead
            // No backend event unless someone needs one (deferred_event.hpp). Profiled and traced
            // commands take their times from it.
            const bool deferrable = !timed && !launch.empty && !sub.queue.profiling() && !trace::enabled();
            cl_event done = submitWith(sub, accesses(), [&](std::vector<cl_event>& wait) {
                cl_event e = nullptr;
                if (launch.empty) {
                    check(backend::enqueueMarker(sub.backendQueue, wait, &e));
                    return e;
                }
                std::lock_guard lock(keep->launchMutex());
                keep->applyArgs(static_cast<unsigned>(sub.slot), args);
                cl_kernel bk = keep->backend(static_cast<unsigned>(sub.slot));
                check(backend::enqueueKernel(sub.backendQueue, bk, launch.dims, launch.hasOffset ? launch.offset : nullptr,
                                             launch.global, launch.hasLocal ? launch.local : nullptr, wait,
                                             deferrable ? nullptr : &e));
                if (deferrable) sub.deferredDone = sub.queue.deferredEventAfterLast(static_cast<unsigned>(sub.slot), sub.backendQueue);
                return e;
            });
            // Unsplit launches feed the history that decides whether splitting this kernel pays.
            if (decision.timeUnsplit) timeUnsplitLaunch(timed ? done : nullptr, keep->variants()->historyKey, launch);
            countWhole();
            return done;
        });
}

}  // namespace

Ref<Event> launchKernel(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& geometry,
                        std::vector<Ref<Event>> waitFor, bool wantEvent) {
    const bool onlySide = testOnlySide() != OnlySide::Off;
    int slot = chooseSlot(kernel);
    if (onlySide) slot = static_cast<int>(onlySideSlot(kernel, static_cast<unsigned>(slot)));
    std::optional<SplitDecision> decided;
    // The direct way leaves out what the queue's machinery is for: waits on other commands'
    // events, empty launches (a marker), and traced commands (their spans); and the measuring knob.
    if (waitFor.empty() && !geometry.empty && !trace::enabled() && !onlySide) {
        Ref<Event> event;
        if (launchDirect(type, queue, kernel, geometry, static_cast<unsigned>(slot), wantEvent, decided, event))
            return event;
    }
    return queueLaunch(type, queue, kernel, geometry, std::move(waitFor), slot, std::move(decided));
}

}  // namespace hetero
