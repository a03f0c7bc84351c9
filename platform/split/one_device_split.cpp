// An N-way split over GPU slots of one device (one_device_split.hpp).
#include "platform/split/one_device_split.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/engine/queue.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/chaos.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/split/nway_split.hpp"
#include "platform/split/split_common.hpp"
#include "platform/split/split_launch.hpp"
#include "platform/support/log.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>

namespace hetero {

namespace {

std::atomic<unsigned> inFlight{0};

// Everything one launch holds until its thread is done.
struct OneDeviceRun : SplitLaunch {
    struct Part {
        unsigned slot = 0;
        uint64_t lo = 0, hi = 0;  // its work-groups [lo, hi)
        backend::Event done;      // its last command
    };
    std::vector<Part> parts;      // parts[0]: the primary, on the launch's own queue
    backend::Event met;           // on the primary's queue, behind the launch's dependencies
    cl_event userPrimary = nullptr;  // completes the launch (its backend event); owned
    std::shared_ptr<Tail> tail = std::make_shared<Tail>();
    std::thread gateOpener;       // test knob (chaos): holds the primary's part back a random while

    unsigned primary() const { return parts[0].slot; }

    // What a submission that failed half-way, or the thread, left.
    ~OneDeviceRun() {
        if (gateOpener.joinable()) gateOpener.join();
        if (userPrimary) {  // never handed over: nothing waits for it
            backend::complete(userPrimary, CL_OUT_OF_RESOURCES);
            backend::releaseEvent(userPrimary);
        }
    }
};

// The other parts, once the launch's dependencies are met; then every part's end. Returns the
// launch's status; every part's queue is idle after.
cl_int runParts(OneDeviceRun& r) {
    SplitResources& res = *r.resources;
    cl_int result = CL_COMPLETE;
    try {
        {
            trace::Scope span({int(r.primary()), "N-way start"}, "dependencies (marker)");
            if (r.met) check(backend::waitFor(r.met.get()));
        }
        for (size_t i = 1; i < r.parts.size(); ++i) {
            auto& p = r.parts[i];
            chaos::delay(2000);
            trace::Scope span({int(r.primary()), "N-way start"}, "kernel of slot " + std::to_string(p.slot));
            cl_command_queue queue = res.slot(p.slot).queue.get();
            r.enqueuePart(p.slot, queue, p.lo, p.hi, {}, p.done, r.primary());
            backend::flush(queue);
        }
        for (const auto& p : r.parts) check(backend::waitFor(p.done.get()));
    } catch (const Error& e) {
        HETERO_LOG(Error, "split launch of %s over one device failed (%s)", r.name.c_str(), errorName(e.code));
        result = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
    }
    // A failed launch leaves the written objects' contents undefined, as on any device; but every
    // part is over before anybody may use them again.
    for (size_t i = 1; i < r.parts.size(); ++i) {
        try {
            backend::finish(res.slot(r.parts[i].slot).queue.get());
        } catch (const Error&) {  // its queue was never made: nothing of it runs
        }
    }
    if (r.parts[0].done && backend::waitFor(r.parts[0].done.get()) != CL_SUCCESS && result == CL_COMPLETE)
        result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return result;
}

// The launch's thread. It completes for the application when this ends (its tail).
void runOneDevice(std::shared_ptr<OneDeviceRun> run) {
    OneDeviceRun& r = *run;
    std::shared_ptr<Tail> tail = r.tail;
    cl_int result;
    {
        trace::Scope span({int(r.primary()), "N-way thread"}, r.name);
        result = runParts(r);
    }
    if (r.gateOpener.joinable()) r.gateOpener.join();
    if (result == CL_COMPLETE)
        recordSplit(r.variants->historyKey, r.launch, splitClock() - r.started, r.probe != nullptr, -1);
    std::vector<std::pair<unsigned, uint64_t>> parts;
    for (const auto& p : r.parts) parts.emplace_back(p.slot, p.hi - p.lo);
    std::string shares;
    const uint64_t cpuGroups = countNwayLaunch(r.groups, parts, shares);
    traceLaunch(r.name, int(r.primary()), r.groups, cpuGroups, true, r.traceBegin, trace::now(),
                {trace::str("memory", "discrete"), trace::num("nway_slots", double(r.parts.size())),
                 trace::str("shares", shares), trace::str("device", "one")});
    HETERO_LOG(Info, "split %s N-way on one device: %llu work-groups (%s), %.3f ms%s", r.name.c_str(),
               (unsigned long long)r.groups, shares.c_str(), (splitClock() - r.started) * 1e3,
               result == CL_COMPLETE ? "" : ", failed");

    cl_event userPrimary = std::exchange(r.userPrimary, nullptr);
    finishSplitThread(std::move(run), userPrimary, result, std::move(tail), inFlight);
}

}  // namespace

bool slotsOfOneDevice(const Context& context, const std::vector<unsigned>& slots) {
    return !slots.empty() &&
           std::all_of(slots.begin(), slots.end(), [&](unsigned s) { return context.sameBackend(s, slots[0]); });
}

unsigned oneDeviceSplitsInFlight() { return inFlight.load(); }

cl_event submitOneDeviceSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                              const LaunchGeometry& launch, const SplitDecision& decision) {
    trace::Scope submission({sub.slot, "N-way start"}, "submission");
    auto run = std::make_shared<OneDeviceRun>();
    OneDeviceRun& r = *run;
    r.begin(kernel, args, launch, decision);
    std::vector<Written> written;
    const char* why = "";
    if (!writtenStorages(*r.variants, args, written, why)) fail(CL_INVALID_OPERATION);  // decided earlier
    const std::vector<unsigned>& slots = decision.nwaySlots;
    if (slots.empty() || slots[0] != static_cast<unsigned>(sub.slot) || !slotsOfOneDevice(*r.context, slots))
        fail(CL_INVALID_OPERATION);
    // Under chaos the edges fall anywhere, inside rows too.
    const std::vector<uint64_t> bounds = transform::partBounds(r.range, nwayShareWeights(slots, r.variants->historyKey), !chaos::on());
    for (size_t i = 0; i < slots.size(); ++i) {
        if (!r.variants->chunk[slots[i]]) fail(CL_INVALID_OPERATION);  // decided earlier
        if (i > 0 && bounds[i + 1] == bounds[i]) continue;
        r.parts.push_back({slots[i], bounds[i], bounds[i + 1], {}});
    }
    const unsigned primary = r.primary();
    cl_context primaryContext = r.context->backend(primary);
    cl_command_queue primaryQueue = sub.backendQueue;

    // Every object current on the primary, whose objects every part uses; sub-buffers' backend
    // objects made under the storage lock, here, not by the thread.
    auto [storages, locks] = lockArgumentStorages(args);
    for (const auto& a : args)
        if (a.mem) a.mem->backendMem(primary);
    std::vector<cl_event> primaryWait = sub.waitsOn(primaryQueue);
    for (DiscreteStorage* s : storages) s->makeFresh(primary, sub.queue, primaryWait);
    // In order behind the launch's dependencies and the queue's earlier commands: the others start
    // once it is done.
    if (r.parts.size() > 1) check(backend::enqueueMarker(primaryQueue, primaryWait, r.met.receive()));
    // Test knob: hold the primary's part back a random while, so the others get ahead of it or not.
    backend::Event gateHeld = chaos::holdBack(primaryContext, primaryWait, r.gateOpener);
    r.enqueuePart(primary, primaryQueue, r.parts[0].lo, r.parts[0].hi, primaryWait, r.parts[0].done, primary);
    backend::flush(primaryQueue);

    r.userPrimary = backend::userEvent(primaryContext).release();
    if (!r.userPrimary) fail(CL_OUT_OF_RESOURCES);
    // Nothing below throws: the storages now rely on the thread completing userPrimary.
    for (const auto& w : written) w.storage->wroteOn(primary, r.userPrimary);
    locks.clear();
    return handToSplitThread(r.userPrimary, r.tail, sub.tails, inFlight, [run]() mutable { runOneDevice(std::move(run)); });
}

}  // namespace hetero
