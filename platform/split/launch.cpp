// Where a kernel launch runs and how (launch.hpp): the slot, the direct way, and the launch as a
// command of its queue (whole, timed, or split by one of the engines).
#include "platform/split/launch.hpp"

#include "platform/engine/submit.hpp"
#include "platform/observe/launch_stats.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/split_unified.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <atomic>
#include <memory>

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

// The launch as a command of its queue, submitted when the queue's order allows (at once, from
// this thread, when nothing is ahead of it).
Ref<Event> queueLaunch(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& launch,
                       std::vector<Ref<Event>> deps, int slot) {
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
        [keep, args, launch, accesses, whole](Submission& sub) -> cl_event {
            SplitDecision decision = splitDecision(*keep, args, launch, static_cast<unsigned>(sub.slot));
            if (keep->context()->memoryModel() == MemoryModel::Unified) {
                decision = unifiedSplitDecision(decision, *keep, args);
                if (decision.split) return submitUnifiedSplit(sub, *keep, args, launch, decision);
            }
            if (decision.split) return submitSplit(sub, *keep, args, launch, decision);
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
                    check(BACKEND(sub.backendQueue, clEnqueueMarkerWithWaitList)(sub.backendQueue, wait.size(),
                                                                                 listOrNull(wait), &e));
                    return e;
                }
                std::lock_guard lock(keep->launchMutex());
                keep->applyArgs(static_cast<unsigned>(sub.slot), args);
                cl_kernel bk = keep->backend(static_cast<unsigned>(sub.slot));
                check(BACKEND(sub.backendQueue, clEnqueueNDRangeKernel)(
                    sub.backendQueue, bk, launch.dims, launch.hasOffset ? launch.offset : nullptr, launch.global,
                    launch.hasLocal ? launch.local : nullptr, wait.size(), listOrNull(wait), deferrable ? nullptr : &e));
                if (deferrable) sub.deferredDone = sub.queue.deferredEventAfterLast(static_cast<unsigned>(sub.slot), sub.backendQueue);
                return e;
            });
            // Unsplit launches feed the history that decides whether splitting this kernel pays.
            if (decision.timeUnsplit) timeUnsplitLaunch(timed ? done : nullptr, keep->name(), launch);
            whole->workGroups = workGroupsOf(launch, keep->maxWorkGroupSize());
            whole->cpuWorkGroups = isCpuSlot(static_cast<unsigned>(sub.slot)) ? whole->workGroups : 0;
            whole->submitted = true;
            countLaunch(counters::LaunchesWhole, whole->workGroups, whole->cpuWorkGroups);
            return done;
        });
}

}  // namespace

Ref<Event> launchKernel(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& geometry,
                        std::vector<Ref<Event>> waitFor, bool wantEvent) {
    return queueLaunch(type, queue, kernel, geometry, std::move(waitFor), chooseSlot(kernel));
}

}  // namespace hetero
