// The N-way split engine for discrete memory (nway_split.hpp; docs/multi-slot.md has the plan).
#include "platform/split/nway_split.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "merge/changed_span.hpp"
#include "merge/merge.hpp"
#include "platform/engine/queue.hpp"
#include "platform/engine/event.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/memory/pinned_pool.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/objects/platform.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/chaos.hpp"
#include "platform/split/device_trace.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/split/resources.hpp"
#include "platform/split/split_common.hpp"
#include "platform/split/split_launch.hpp"
#include "platform/split/split_history.hpp"
#include "platform/split/split_workers.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <utility>

namespace hetero {

namespace {

std::atomic<unsigned> inFlight{0};

// Whether the GPU slots `slots` are devices of one name, which take equal shares. Test knob
// HETERO_TEST_NWAY_UNALIKE=1: never (PoCL slots standing in for GPUs of different names).
bool alikeDevices(const std::vector<unsigned>& slots) {
    static const bool unalike = config::get("HETERO_TEST_NWAY_UNALIKE", "test_nway_unalike").value_or("") == "1";
    const auto& all = Device::instance()->slots();
    return !unalike &&
           std::all_of(slots.begin(), slots.end(), [&](unsigned s) { return all[s].deviceName == all[slots[0]].deviceName; });
}

// Test knob HETERO_TEST_NWAY_SLOW_SLOT=<slot>: the launch's thread waits 20 ms before it enqueues
// that slot's part (not the primary's), which its measured speed then counts (icd.nway-unalike).
int slowSlot() {
    static const int slot = [] {
        const std::string v = config::get("HETERO_TEST_NWAY_SLOW_SLOT", "test_nway_slow_slot").value_or("");
        return v.empty() ? -1 : std::atoi(v.c_str());
    }();
    return slot;
}

// The GPU slots' weights in a split of `kernel` over `slots` (SplitHistory::nwayGpuWeights).
void gpuWeights(const std::string& kernel, const std::vector<unsigned>& slots, std::vector<double>& weights) {
    const bool alike = alikeDevices(slots);
    std::vector<unsigned> units;
    if (!alike)
        for (unsigned s : slots) units.push_back(computeUnits(s));
    SplitHistory::instance().nwayGpuWeights(kernel, slots, units, alike, weights);
}

// When a part's kernel completed (splitClock), set from its event's completion callback, which may
// run after the launch's thread is done with the run: for auto mode's speeds (recordPartSpeeds).
struct DoneClock {
    std::atomic<double> at{-1};
};
void CL_CALLBACK noteDone(cl_event, cl_int status, void* data) {
    auto* clock = static_cast<std::shared_ptr<DoneClock>*>(data);
    if (status == CL_COMPLETE) (*clock)->at = splitClock();
    delete clock;
}
std::shared_ptr<DoneClock> clockOf(cl_event done) {
    auto clock = std::make_shared<DoneClock>();
    auto* held = new std::shared_ptr<DoneClock>(clock);
    if (backend::onComplete(done, noteDone, held) != CL_SUCCESS) delete held;  // then never set: nothing recorded
    return clock;
}

// Everything one N-way launch holds until its thread is done.
struct NwayRun : SplitLaunch {
    struct Part {                   // one slot's share
        unsigned slot = 0;
        uint64_t lo = 0, hi = 0;    // its work-groups [lo, hi)
        std::vector<cl_event> ready;  // its copies' earlier users: done before its kernel (owned)
        std::vector<cl_mem> written;  // its copy of each target (the storages own them)
        cl_event user = nullptr;      // its copies are used until this completes (usedUntil); owned
        std::vector<backend::Event> brought;  // the writes that brought its copies (bringCopies)
        // Per target, its results read into a pinned block (empty: none to be had, resultsThroughMap),
        // and the bytes the block holds: the whole object, the span found, or a guessed span
        // (guessSpan) that covers the one found.
        std::vector<PinnedPool::Block> results;
        std::vector<backend::Event> resultReads;
        std::vector<merge::ByteRange> held;
        std::vector<PinnedPool::Block> missed;  // blocks of guesses that missed: their reads may still run
        bool bringsCopies = false;    // some of its copies are brought by the thread (bringLater)
        // Per target that sends only the span its kernel changed (Target::spanned): its copy before
        // the kernel (null for the others), and where the kernel changed it, searched on the slot
        // (merge/changed_span.hpp): a pair of element indices per target, read back into `found`.
        std::vector<cl_mem> before;
        cl_mem spans = nullptr;
        std::vector<cl_uint> found;
        backend::Event foundRead;
        backend::Event kernelStarts;  // with HETERO_TRACE: a marker just before its kernel (traceOnDevice)
        // For auto mode's speeds (recordPartSpeeds), where measured: when it could start (the
        // primary's: a marker just before it; the others': when the thread enqueued it) and when
        // its kernel completed.
        double enqueuedAt = -1;
        std::shared_ptr<DoneClock> started, finished;
    };
    std::vector<Part> parts;        // parts[0]: the primary, on the launch's own queue
    struct Target {                 // a written memory object, on the primary
        size_t elementSize, bytes;
        cl_mem onPrimary, orig, recv;
        bool neverWritten;          // its copies hold whatever their allocation held: zeroed first
        // The other slots send back only the span their kernels changed, not the whole object:
        // large objects (a search and a snapshot on each slot cost less than the bytes saved), and
        // every object under chaos, so that the tests' small buffers take this path too.
        bool spanned;
        DiscreteStorage* storage;   // kept alive by args
        uint64_t from;              // its version before the launch (the launch makes it from + 1)
    };
    std::vector<Target> targets;
    // A copy the thread brings from the primary to other slots, through a pinned block, while the
    // primary's kernel runs (DiscreteStorage::bringLater): the submitting thread does not wait for it.
    struct Bring {
        DiscreteStorage* storage = nullptr;  // kept alive by args
        cl_mem from = nullptr;        // on the primary: the object's copy (read-only) or its orig snapshot
        PinnedPool::Block block;
        std::vector<size_t> parts;    // the parts whose copy it is, and those copies
        std::vector<cl_mem> to;
        // The version each of those copies held before (a previous N-way launch may have left a
        // record of what it lacks, DiscreteStorage::refreshRanges) and the version brought.
        std::vector<uint64_t> fromVersions;
        uint64_t version = 0;
        // Resolved by the thread: the byte ranges each part gets, and the bounds of all of them.
        std::vector<std::vector<merge::ByteRange>> ranges;
        size_t lo = 0, hi = 0;
    };
    std::vector<Bring> brings;
    std::shared_ptr<PinnedPool> pinned;  // the brings' blocks' pool
    bool broughtAll = false;             // every bring's writes were enqueued
    bool submitted = false;              // handed to the thread, which completes every event
    // Every storage of the launch and its version at submission: a part whose copies were not all
    // brought reports each of its copies as failed (Storage::bringFailed).
    std::vector<std::pair<DiscreteStorage*, uint64_t>> versions;
    std::vector<cl_event> snapshots;  // the primary's fills and orig copies: after the launch's dependencies
    backend::Event primaryDone;
    // Where the primary's own kernel changed each spanned target (searchPrimarySpans), read into
    // primaryFound: with the others' spans, what each other slot's copy lacks afterwards.
    cl_mem primarySpans = nullptr;
    std::vector<cl_uint> primaryFound;
    backend::Event primaryFoundRead;
    cl_event userPrimary = nullptr;   // completes the launch (its backend event); owned
    std::shared_ptr<Tail> tail = std::make_shared<Tail>();
    std::thread gateOpener;           // test knob (chaos): holds the primary's kernel back a random while

    // The CPU's part (an index into parts; 0: none, nwayDecision).
    size_t cpuPart = 0;
    bool cpuTrial = false;  // its share is the trial share (SplitDecision::nwayCpuTrial)
    // The parts' speeds are measured (Part::started, finished): where the CPU takes part, or the
    // GPUs are of different names (their shares follow their speeds); not under chaos.
    bool measured = false;

    unsigned primary() const { return parts[0].slot; }

    // What a launch that failed half-way through its submission, or its thread, left.
    ~NwayRun() {
        // A submission that failed after the primary's span read was enqueued: it writes primaryFound.
        if (primaryFoundRead) backend::waitFor(primaryFoundRead.get());
        if (gateOpener.joinable()) gateOpener.join();
        // The thread finished every queue that used the blocks; a submission that failed used none.
        for (auto& b : brings)
            if (b.block) pinned->give(b.block);
        for (auto& p : parts) {
            for (auto& block : p.results)
                if (block) pinned->give(block);
            for (auto& block : p.missed) pinned->give(block);
        }
        for (size_t i = 1; resources && context && i < parts.size(); ++i) {
            auto& p = parts[i];
            cl_context partContext = context->backend(p.slot);
            for (size_t t = 0; t < p.before.size(); ++t)
                if (p.before[t]) resources->pool.give(partContext, p.before[t], targets[t].bytes);
            if (p.spans) resources->pool.give(partContext, p.spans, 2 * sizeof(cl_uint) * targets.size());
        }
        cl_context primaryContext = context && !parts.empty() ? context->backend(primary()) : nullptr;
        if (resources && primaryContext && primarySpans)
            resources->pool.give(primaryContext, primarySpans, 2 * sizeof(cl_uint) * targets.size());
        if (resources && primaryContext)
            for (auto& t : targets) {
                if (t.orig) resources->pool.give(primaryContext, t.orig, t.bytes);
                if (t.recv) resources->pool.give(primaryContext, t.recv, t.bytes);
            }
        primaryDone.reset();
        backend::releaseAll(snapshots);
        for (auto& p : parts) {
            backend::releaseAll(p.ready);
            if (p.user) {  // never handed over: nothing waits for it
                backend::complete(p.user, CL_OUT_OF_RESOURCES);
                backend::releaseEvent(p.user);
            }
            // A submission that failed after marking copies current that nobody will bring.
            if (p.bringsCopies && !submitted)
                for (const auto& [storage, version] : versions) storage->bringFailed(p.slot, version);
        }
        if (userPrimary) {
            backend::complete(userPrimary, CL_OUT_OF_RESOURCES);
            backend::releaseEvent(userPrimary);
        }
    }
};

// With HETERO_TRACE: part `p`'s kernel as its device ran it, from the marker before it to its
// last chunk's end.
void traceOnDevice(const NwayRun::Part& p, cl_event done) {
    traceOnDeviceClock(p.slot, {int(p.slot), "N-way kernels (device clock)"}, "part kernel", p.kernelStarts.get(),
                       CL_PROFILING_COMMAND_END, done, {trace::num("work_groups", double(p.hi - p.lo))});
}

// `bytes` of `from` (another slot's buffer, read on `fromQueue`) into `to` on the primary through a
// map of `from`, when no pinned block could be had for it (runParts reads results into one): NVIDIA
// stages a map in host memory pinned for that slot's context only, so both copies run at 1.8 GB/s
// (18 MB in 10 ms between two H100s, against 0.8 ms through a block: docs/results/h100-session13).
void resultsThroughMap(cl_command_queue fromQueue, cl_mem from, cl_command_queue primaryQueue, cl_mem to, size_t first,
                       size_t bytes) {
    backend::withMapped(fromQueue, from, CL_MAP_READ, first + bytes, [&](unsigned char* p) {
        check(backend::enqueueAndWait(
            [&](cl_event* sent) { return backend::enqueueWrite(primaryQueue, to, first, bytes, p + first, {}, sent); }));
    });
}

// Before a part's kernel, on its queue: a snapshot of its copy of each spanned target, and the
// span pairs set to "nothing changed".
void snapshotForSpans(NwayRun& r, NwayRun::Part& p, cl_command_queue queue) {
    SplitResources& res = *r.resources;
    cl_context partContext = r.context->backend(p.slot);
    merge::KernelSet& kernels = res.slot(p.slot).mergeKernels;
    p.before.assign(r.targets.size(), nullptr);
    bool any = false;
    for (size_t t = 0; t < r.targets.size(); ++t) {
        if (!r.targets[t].spanned) continue;
        any = true;
        p.before[t] = res.pool.take(partContext, r.targets[t].bytes);
        kernels.enqueueCopy(queue, p.written[t], p.before[t], r.targets[t].bytes, {}, nullptr);
    }
    if (!any) return;
    p.spans = res.pool.take(partContext, 2 * sizeof(cl_uint) * r.targets.size());
    kernels.enqueueSpanReset(queue, p.spans, static_cast<cl_uint>(r.targets.size()));
}

// After a part's kernel, on its queue: where it changed each spanned target, read back into `found`.
void searchChangedSpans(NwayRun& r, NwayRun::Part& p, cl_command_queue queue) {
    if (!p.spans) return;
    merge::KernelSet& kernels = r.resources->slot(p.slot).mergeKernels;
    for (size_t t = 0; t < r.targets.size(); ++t)
        if (p.before[t])
            kernels.enqueueSpan(queue, p.written[t], p.before[t], r.targets[t].bytes, r.targets[t].elementSize, p.spans,
                                static_cast<cl_uint>(t));
    p.found.assign(2 * r.targets.size(), 0);
    check(backend::enqueueRead(queue, p.spans, 0, sizeof(cl_uint) * p.found.size(), p.found.data(), {},
                               p.foundRead.receive()));
}

// Right behind the primary's kernel, on the launch's own queue, while the others still compute:
// where it changed each spanned target, against the target's orig snapshot.
void searchPrimarySpans(NwayRun& r, cl_command_queue queue) {
    if (r.parts.size() < 2 ||
        std::none_of(r.targets.begin(), r.targets.end(), [](const NwayRun::Target& t) { return t.spanned; }))
        return;
    SplitResources& res = *r.resources;
    const unsigned primary = r.primary();
    merge::KernelSet& kernels = res.slot(primary).mergeKernels;
    const size_t pairs = 2 * sizeof(cl_uint) * r.targets.size();
    r.primarySpans = res.pool.take(r.context->backend(primary), pairs);
    kernels.enqueueSpanReset(queue, r.primarySpans, static_cast<cl_uint>(r.targets.size()));
    for (size_t t = 0; t < r.targets.size(); ++t)
        if (r.targets[t].spanned)
            kernels.enqueueSpan(queue, r.targets[t].onPrimary, r.targets[t].orig, r.targets[t].bytes,
                                r.targets[t].elementSize, r.primarySpans, static_cast<cl_uint>(t));
    r.primaryFound.assign(2 * r.targets.size(), 0);
    check(backend::enqueueRead(queue, r.primarySpans, 0, pairs, r.primaryFound.data(), {}, r.primaryFoundRead.receive()));
}

// The bytes [first, end) of target `t` that part `p` sends back: all of it, or the span it changed.
merge::ByteRange sentRange(const NwayRun& r, const NwayRun::Part& p, size_t t) {
    if (!r.targets[t].spanned) return {0, r.targets[t].bytes};
    return merge::spanBytes(&p.found[2 * t], r.targets[t].elementSize);
}

// Part `p`'s span of target `t` in the kernel's SpanGuesses.
SpanGuesses::Key spanKey(const NwayRun& r, const NwayRun::Part& p, size_t t) {
    return {p.slot, t, r.targets[t].bytes, r.range};
}

// Where part `p` will have changed target `t`, before its search says ({0, 0}: no guess): where it
// did at the kernel's last launch of this shape. Under chaos the guess is now and then one element
// short (the search proves it wrong) or the whole object (wider than the span: merged all the same).
merge::ByteRange guessSpan(NwayRun& r, const NwayRun::Part& p, size_t t) {
    const merge::ByteRange guess = r.variants->spanGuesses.guess(spanKey(r, p, t));
    if (!chaos::on() || guess.first >= guess.second) return guess;
    switch (chaos::below(4)) {
        case 0: return {guess.first, guess.second - r.targets[t].elementSize};
        case 1: return {0, r.targets[t].bytes};
        default: return guess;
    }
}

// After the merges: what each other slot's copy of each spanned target lacks of the result, for a
// later launch's bring (DiscreteStorage::recordRefresh): the primary's span and the other parts'.
void recordRefreshes(const NwayRun& r) {
    if (r.primaryFound.empty()) return;
    for (size_t t = 0; t < r.targets.size(); ++t) {
        const auto& target = r.targets[t];
        if (!target.spanned || !target.storage) continue;
        std::vector<merge::ByteRange> spans{merge::spanBytes(&r.primaryFound[2 * t], target.elementSize)};
        for (size_t i = 1; i < r.parts.size(); ++i) spans.push_back(sentRange(r, r.parts[i], t));
        for (size_t i = 1; i < r.parts.size(); ++i)
            target.storage->recordRefresh(r.parts[i].slot, target.from, target.from + 1, merge::lackedRanges(spans, i));
    }
}

// The brings (NwayRun::Bring), once the launch's dependencies are met: each copy read from the
// primary into its pinned block in pieces on the primary's internal queue, and each piece written on
// to every slot that needs it as soon as it is in, so reads and writes overlap (bench/tools/peer_copy
// between two H100s: 35-46 GB/s pipelined in 8 MiB pieces, 27 GB/s whole). The writes' events go to
// each part's `brought`; the part's kernel follows them on its in-order queue.
constexpr size_t kBringPiece = size_t{8} << 20;

// Objects from this size send back only the span each other slot's kernel changed (Target::spanned).
constexpr size_t kSpanFrom = size_t{2} << 20;
// HETERO_TEST_NWAY_WHOLE_RESULTS=1 (measuring only): whole objects come back, as before spans.
bool testWholeResults() {
    static const bool on = [] {
        auto v = config::get("HETERO_TEST_NWAY_WHOLE_RESULTS", "test_nway_whole_results");
        return v && *v == "1";
    }();
    return on;
}

void bringCopies(NwayRun& r, cl_command_queue primaryTransfer, size_t& bytesMoved) {
    SplitResources& res = *r.resources;
    trace::Scope span({int(r.primary()), "N-way copies out"}, "to " + std::to_string(r.parts.size() - 1) + " slots");
    std::vector<std::vector<backend::Event>> reads(r.brings.size());
    for (size_t b = 0; b < r.brings.size(); ++b) {
        auto& br = r.brings[b];
        const size_t bytes = br.storage->bytes();
        // Each copy gets the whole object, or what a previous N-way launch that wrote it left
        // that copy lacking: its dependencies (met now) included that launch.
        br.ranges.assign(br.parts.size(), {});
        br.lo = bytes, br.hi = 0;
        for (size_t k = 0; k < br.parts.size(); ++k) {
            if (!br.storage->refreshRanges(r.parts[br.parts[k]].slot, br.fromVersions[k], br.version, br.ranges[k]))
                br.ranges[k] = {{0, bytes}};
            for (const auto& [first, end] : br.ranges[k]) br.lo = std::min(br.lo, first), br.hi = std::max(br.hi, end);
        }
        for (size_t offset = br.lo; offset < br.hi; offset += kBringPiece) {
            const size_t len = std::min(kBringPiece, br.hi - offset);
            check(backend::enqueueRead(primaryTransfer, br.from, offset, len, br.block.data + offset, {},
                                       reads[b].emplace_back().receive()));
        }
    }
    backend::flush(primaryTransfer);
    for (size_t b = 0; b < r.brings.size(); ++b) {
        const auto& br = r.brings[b];
        if (chaos::failBring()) fail(CL_OUT_OF_RESOURCES);  // test knob: the transfer fails
        size_t piece = 0;
        for (size_t offset = br.lo; offset < br.hi; offset += kBringPiece, ++piece) {
            const size_t end = std::min(offset + kBringPiece, br.hi);
            check(backend::waitFor(reads[b][piece].get()));
            chaos::delay(500);
            for (size_t k = 0; k < br.parts.size(); ++k) {
                auto& p = r.parts[br.parts[k]];
                cl_command_queue queue = res.slot(p.slot).queue.get();
                for (const auto& [first, last] : br.ranges[k]) {
                    const size_t from = std::max(first, offset), to = std::min(last, end);
                    if (from >= to) continue;
                    check(backend::enqueueWrite(queue, br.to[k], from, to - from, br.block.data + from, {},
                                                p.brought.emplace_back().receive()));
                    bytesMoved += to - from;
                }
                backend::flush(queue);
            }
        }
    }
}

// The other slots' kernels, then each one's results merged into the primary's copies in turn.
// Returns the launch's status; every slot's queue is idle and its `user` event complete after.
cl_int runParts(NwayRun& r, size_t& bytesMoved, unsigned& merges) {
    SplitResources& res = *r.resources;
    const unsigned primary = r.primary();
    cl_command_queue primaryTransfer = res.slot(primary).queue.get();
    std::vector<backend::Event> done(r.parts.size());
    cl_int result = CL_COMPLETE;
    bool primaryWaited = false;
    try {
        {
            // The launch's dependencies are met once the primary's snapshots are done (they waited for them).
            trace::Scope span({int(primary), "N-way start"}, "dependencies (primary's snapshots)");
            backend::waitAll(r.snapshots);
            backend::releaseAll(r.snapshots);
        }
        {
            // Commands on the shared internal queues never carry wait lists (one launch's dependencies
            // would hold every other launch behind it there): waited for here instead, before the
            // brings overwrite any copy.
            trace::Scope span({int(primary), "N-way start"}, "earlier users of the parts' copies");
            for (size_t i = 1; i < r.parts.size(); ++i) {
                auto& p = r.parts[i];
                chaos::delay(2000);
                backend::waitAll(p.ready);
                backend::releaseAll(p.ready);
            }
        }
        if (!r.brings.empty()) bringCopies(r, primaryTransfer, bytesMoved);
        r.broughtAll = true;
        // Every part's kernel first, then what follows each: enqueued one part after another, the
        // searches and reads behind each kernel held the next part's start back (four H100s: a
        // part's kernel 0.2-0.4 ms after the one before, docs/results/h100-session17).
        for (size_t i = 1; i < r.parts.size(); ++i) {
            auto& p = r.parts[i];
            trace::Scope span({int(primary), "N-way start"}, "kernel of slot " + std::to_string(p.slot));
            cl_command_queue queue = res.slot(p.slot).queue.get();
            for (size_t t = 0; t < r.targets.size(); ++t)
                if (r.targets[t].neverWritten)
                    res.slot(p.slot).mergeKernels.enqueueZero(queue, p.written[t], r.targets[t].bytes, {}, nullptr);
            snapshotForSpans(r, p, queue);
            if (trace::enabled()) check(backend::enqueueMarker(queue, {}, p.kernelStarts.receive()));
            if (r.measured) p.enqueuedAt = splitClock();
            if (static_cast<int>(p.slot) == slowSlot()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
            r.enqueuePart(p.slot, queue, p.lo, p.hi, {}, done[i], p.slot);
            if (r.measured) p.finished = clockOf(done[i].get());
            backend::flush(queue);
        }
        for (size_t i = 1; i < r.parts.size(); ++i) {
            auto& p = r.parts[i];
            cl_command_queue queue = res.slot(p.slot).queue.get();
            searchChangedSpans(r, p, queue);
            // Its results start back as soon as its kernel is done, each into a pinned block of its
            // own: the slots' reads overlap one another and the merges, which go one slot at a time.
            // A spanned target's read starts at once where its span can be guessed, else once the
            // search found it (readSpans).
            for (size_t t = 0; t < r.targets.size(); ++t) {
                const auto& target = r.targets[t];
                const merge::ByteRange range = target.spanned ? guessSpan(r, p, t) : merge::ByteRange{0, target.bytes};
                const bool now = r.pinned && range.first < range.second;
                PinnedPool::Block& block =
                    p.results.emplace_back(now ? r.pinned->take(range.second - range.first) : PinnedPool::Block{});
                backend::Event& read = p.resultReads.emplace_back();
                p.held.push_back(block ? range : merge::ByteRange{0, 0});
                if (block)
                    check(backend::enqueueRead(queue, p.written[t], range.first, range.second - range.first, block.data,
                                               {}, read.receive()));
            }
            backend::flush(queue);
        }
        // A part's spanned results whose guess missed start back once its spans are known: every
        // part whose search is done by then, whenever the merge loop below comes to a part (waiting
        // for that one). The spans found are the next launch's guesses.
        auto readSpans = [&](size_t wanted) {
            for (size_t i = 1; i < r.parts.size(); ++i) {
                auto& p = r.parts[i];
                if (!p.foundRead || (i != wanted && !backend::done(p.foundRead.get()))) continue;
                trace::Scope span({int(primary), "N-way spans"}, "of slot " + std::to_string(p.slot));
                check(backend::waitFor(p.foundRead.get()));
                p.foundRead.reset();
                cl_command_queue queue = res.slot(p.slot).queue.get();
                for (size_t t = 0; t < r.targets.size(); ++t) {
                    if (!r.targets[t].spanned) continue;
                    const merge::ByteRange found = sentRange(r, p, t);
                    r.variants->spanGuesses.remember(spanKey(r, p, t), found);
                    const bool guessed = p.held[t].first < p.held[t].second;
                    if (guessed)
                        HETERO_LOG(Debug, "split %s N-way: slot %u's guessed span of object %zu %s", r.name.c_str(), p.slot,
                                   t, covers(p.held[t], found) ? "covered the span found" : "missed");
                    if (covers(p.held[t], found) || !r.pinned) continue;
                    // The guess's block takes the span found where it is big enough: the read into it
                    // goes after the guessed one on the same in-order queue. A new block of a size the
                    // pool does not keep costs a pinned allocation (gemm LARGE on two H100s: 2.2 ms of
                    // a 4 ms launch whose parts had moved by one row, docs/results/h100x2-session26).
                    const bool fits = p.results[t] && p.results[t].bytes >= found.second - found.first;
                    if (p.results[t] && !fits) p.missed.push_back(std::exchange(p.results[t], PinnedPool::Block{}));
                    if (!fits) p.results[t] = r.pinned->take(found.second - found.first);
                    p.held[t] = p.results[t] ? found : merge::ByteRange{0, 0};
                    if (p.results[t])
                        check(backend::enqueueRead(queue, p.written[t], found.first, found.second - found.first,
                                                   p.results[t].data, {}, p.resultReads[t].receive()));
                }
                backend::flush(queue);
            }
        };
        for (size_t i = 1; i < r.parts.size(); ++i) {
            auto& p = r.parts[i];
            cl_command_queue queue = res.slot(p.slot).queue.get();
            check(backend::waitFor(done[i].get()));
            if (i == r.cpuPart) r.quiet.release();  // the CPU is done: waits may spin again
            traceOnDevice(p, done[i].get());
            for (const auto& write : p.brought) check(backend::waitFor(write.get()));  // its inputs did arrive
            readSpans(i);
            chaos::delay(2000);
            // Its copy of each written object (or of the span its kernel changed) into recv on the
            // primary, through host memory; merged over that range only. A guessed read that covers
            // the span goes whole: outside the span the part's copy equals orig, which the merge keeps.
            std::vector<merge::Target> mergeTargets;
            for (size_t t = 0; t < r.targets.size(); ++t) {
                const auto& target = r.targets[t];
                const merge::ByteRange found = sentRange(r, p, t);
                const PinnedPool::Block& block = p.results[t];
                const auto [first, end] = found.first < found.second && block ? p.held[t] : found;
                mergeTargets.push_back({target.onPrimary, target.recv, target.orig, end - first, target.elementSize,
                                        first < end, false, first});
                if (first == end) continue;  // it changed nothing of this object
                trace::Scope span({int(primary), "N-way results in"}, "from slot " + std::to_string(p.slot));
                if (block) {
                    // Not waited for: the merge follows it on the same in-order queue, and the block
                    // goes back to the pool with the run, after the queue's last finish.
                    check(backend::waitFor(p.resultReads[t].get()));
                    check(backend::enqueueWrite(primaryTransfer, target.recv, first, end - first, block.data, {}, nullptr));
                } else {
                    resultsThroughMap(queue, p.written[t], primaryTransfer, target.recv, first, end - first);
                }
                bytesMoved += end - first;
            }
            // Nothing of this launch uses that slot's copies any more.
            check(backend::finish(queue));
            backend::complete(p.user, CL_COMPLETE);
            backend::releaseEvent(p.user);
            p.user = nullptr;
            if (!primaryWaited) {
                check(backend::waitFor(r.primaryDone.get()));
                // Its span search reads the primary's copies: done before any merge changes them, so
                // that it finds the primary's own span. (Racing a merge it could only find more: a
                // merge writes only values that differ from orig, so the refresh would send more
                // than needed, never less. Once the launch completes, anything may write there.)
                if (r.primaryFoundRead) check(backend::waitFor(r.primaryFoundRead.get()));
                primaryWaited = true;
            }
            chaos::delay(2000);
            trace::Scope span({int(primary), "merge"}, "N-way merge of slot " + std::to_string(p.slot));
            merges += merge::combine(primaryTransfer, res.slot(primary).mergeKernels, mergeTargets, merge::CpuPart::Some,
                                     merge::MergeWait::No);
        }
    } catch (const Error& e) {
        HETERO_LOG(Error, "N-way split launch of %s failed (%s)", r.name.c_str(), errorName(e.code));
        result = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
    }
    // A failed launch leaves the written objects' contents undefined, as on any device; but every
    // command it enqueued is over before anybody may use the copies again.
    for (size_t i = 1; i < r.parts.size(); ++i) {
        auto& p = r.parts[i];
        if (!p.user) continue;
        try {
            backend::finish(res.slot(p.slot).queue.get());
        } catch (const Error&) {  // its queue was never made: nothing of it runs
        }
        // Its read-only copies are intact (its written ones stale) unless they were to be brought
        // and not all were: then work already waiting for them fails, and they count as stale.
        bool intact = !p.bringsCopies || r.broughtAll;
        for (const auto& write : p.brought) intact = intact && backend::status(write.get()) == CL_COMPLETE;
        backend::complete(p.user, intact ? CL_COMPLETE : CL_OUT_OF_RESOURCES);
        backend::releaseEvent(p.user);
        p.user = nullptr;
        if (!intact)
            for (const auto& [storage, version] : r.versions) storage->bringFailed(p.slot, version);
    }
    if (cl_int primaryStatus = backend::waitFor(r.primaryDone.get()); primaryStatus != CL_SUCCESS && result == CL_COMPLETE)
        result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // The primary's span search reads its copies too: over before the launch completes.
    if (r.primaryFoundRead && backend::waitFor(r.primaryFoundRead.get()) != CL_SUCCESS && result == CL_COMPLETE)
        result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // The results' writes and the merges, enqueued without waits: over before the launch completes.
    if (backend::finish(primaryTransfer) != CL_SUCCESS && result == CL_COMPLETE) result = CL_OUT_OF_RESOURCES;
    if (result == CL_COMPLETE) recordRefreshes(r);
    return result;
}

// Each part's speed over its own work-groups, where measured: the GPUs' for their shares and the
// CPU's (SplitHistory::nwayGpuWeights, nwayCpuShare), the CPU's start counted from the primary's.
// Each counts from when it could start (NwayRun::Part::started, enqueuedAt: after its copies were
// current) to its kernel's completion, as completion callbacks saw them; nothing where a callback
// has not run.
void recordPartSpeeds(const NwayRun& r) {
    if (!r.measured) return;
    const double primaryFrom = r.parts[0].started ? r.parts[0].started->at.load() : -1.0;
    if (primaryFrom < 0) return;
    std::string line;
    for (size_t i = 0; i < r.parts.size(); ++i) {
        const auto& p = r.parts[i];
        const double from = i == 0 ? primaryFrom : p.enqueuedAt, at = p.finished ? p.finished->at.load() : -1.0;
        if (from < 0 || at < 0 || p.hi == p.lo) continue;
        char part[96];
        std::snprintf(part, sizeof part, "%sslot %u: %llu in %.3f ms", line.empty() ? "" : ", ", p.slot,
                      (unsigned long long)(p.hi - p.lo), (at - from) * 1e3);
        line += part;
        if (r.cpuPart > 0 && i == r.cpuPart)
            recordCpuSpeed(r.variants->historyKey, r.launch, r.groups, p.hi - p.lo, at - from,
                           std::max(0.0, from - primaryFrom));
        else
            recordNwayGpuSpeed(r.variants->historyKey, p.slot, r.launch, r.groups, p.hi - p.lo, at - from);
    }
    HETERO_LOG(Debug, "split %s N-way: parts' work-groups (%s)", r.name.c_str(), line.c_str());
}

// The launch's thread: the parts, the merges, then the launch's event. It completes for the
// application when this ends (its tail).
void runNway(std::shared_ptr<NwayRun> run) {
    NwayRun& r = *run;
    std::shared_ptr<Tail> tail = r.tail;
    size_t bytesMoved = 0;
    unsigned merges = 0;
    cl_int result;
    {
        trace::Scope span({int(r.primary()), "N-way thread"}, r.name);
        result = runParts(r, bytesMoved, merges);
    }
    if (r.gateOpener.joinable()) r.gateOpener.join();
    if (result == CL_COMPLETE) recordPartSpeeds(r);
    // For auto mode's history: from submission (a split queued behind other work counts that too).
    if (result == CL_COMPLETE && r.cpuTrial)
        recordTrialSplit(r.variants->historyKey, r.launch, splitClock() - r.started);
    else if (result == CL_COMPLETE)
        recordSplit(r.variants->historyKey, r.launch, splitClock() - r.started, r.probe != nullptr, -1);

    std::vector<std::pair<unsigned, uint64_t>> parts;
    for (const auto& p : r.parts) parts.emplace_back(p.slot, p.hi - p.lo);
    std::string shares;
    const uint64_t cpuGroups = countNwayLaunch(r.groups, parts, shares);
    counters::add(counters::BytesBetweenDevices, bytesMoved);
    counters::add(counters::Merges, merges);
    traceLaunch(r.name, int(r.primary()), r.groups, cpuGroups, true, r.traceBegin, trace::now(),
                {trace::str("memory", "discrete"), trace::num("nway_slots", double(r.parts.size())),
                 trace::str("shares", shares), trace::num("bytes", double(bytesMoved))});
    HETERO_LOG(Info, "split %s N-way: %llu work-groups (%s), %zu bytes moved, %u merges, %.3f ms%s", r.name.c_str(),
               (unsigned long long)r.groups, shares.c_str(), bytesMoved, merges, (splitClock() - r.started) * 1e3,
               result == CL_COMPLETE ? "" : ", failed");

    cl_event userPrimary = std::exchange(r.userPrimary, nullptr);
    finishSplitThread(std::move(run), userPrimary, result, std::move(tail), inFlight);
}

}  // namespace

unsigned nwaySplitsInFlight() { return inFlight.load(); }

std::vector<double> nwayShareWeights(const std::vector<unsigned>& slots, const std::string& kernel, double cpuShare) {
    std::vector<double> weights;
    if (chaos::on()) {
        for (size_t i = 0; i < slots.size(); ++i) weights.push_back(double(1 + chaos::below(4)));
        return weights;
    }
    const bool cpu = cpuShare > 0 && !slots.empty();
    gpuWeights(kernel, cpu ? std::vector<unsigned>(slots.begin(), slots.end() - 1) : slots, weights);
    double sum = 0;
    for (double w : weights) sum += w;
    if (cpu) weights.push_back(sum * cpuShare / (1 - cpuShare));
    return weights;
}

double nwayOthersOverFirst(const std::vector<unsigned>& slots, const std::string& kernel) {
    if (slots.empty()) return 0;
    if (alikeDevices(slots)) return double(slots.size() - 1);  // no allocation: asked at every auto decision
    std::vector<double> weights;
    gpuWeights(kernel, slots, weights);
    double others = 0;
    for (size_t i = 1; i < weights.size(); ++i) others += weights[i];
    return others / weights[0];
}

cl_event submitNwaySplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                         const SplitDecision& decision) {
    // With HETERO_TRACE: the application's thread's share of the launch's start (two H100s:
    // 0.15-0.3 ms of a start of 0.25-0.66 ms, docs/results/h100-session16).
    trace::Scope submission({sub.slot, "N-way start"}, "submission");
    // With HETERO_TRACE, its steps too, each from the end of the one before (lane "N-way submission").
    double stepBegin = trace::enabled() ? trace::now() : 0;
    auto stepDone = [&](const char* step) {
        if (!trace::enabled()) return;
        const double now = trace::now();
        trace::span({sub.slot, "N-way submission"}, step, stepBegin, now);
        stepBegin = now;
    };
    auto run = std::make_shared<NwayRun>();
    NwayRun& r = *run;
    r.begin(kernel, args, launch, decision);
    r.context->noteNwaySplit();
    std::vector<Written> written;
    const char* why = "";
    if (!writtenStorages(*r.variants, args, written, why)) fail(CL_INVALID_OPERATION);  // decided earlier
    // Every slot's range; a slot whose range is empty takes no part (the primary always does).
    const std::vector<unsigned>& slots = decision.nwaySlots;
    if (slots.empty() || slots[0] != static_cast<unsigned>(sub.slot)) fail(CL_INVALID_OPERATION);
    // Under chaos the edges fall anywhere, inside rows too (the tests' coverage of partial rows).
    // The CPU's part, where it joins, is the last: the top of the work-groups, as in the pair.
    const double cpuShare = decision.nwayCpuShare > 0 && slots.size() > 2 ? decision.nwayCpuShare : 0;
    const std::vector<uint64_t> bounds =
        transform::partBounds(r.range, nwayShareWeights(slots, r.variants->historyKey, cpuShare), !chaos::on());
    for (size_t i = 0; i < slots.size(); ++i) {
        if (!r.variants->chunk[slots[i]]) fail(CL_INVALID_OPERATION);  // decided earlier
        if (i > 0 && bounds[i + 1] == bounds[i]) continue;
        if (cpuShare > 0 && i + 1 == slots.size()) {
            r.cpuPart = r.parts.size();
            r.cpuTrial = decision.nwayCpuTrial;
        }
        auto& part = r.parts.emplace_back();
        part.slot = slots[i];
        part.lo = bounds[i];
        part.hi = bounds[i + 1];
    }

    SplitResources& res = *r.resources;
    const unsigned primary = r.primary();
    cl_context primaryContext = r.context->backend(primary);
    // The other parts' kernels are drawn on their devices' clocks (traceOnDevice).
    for (size_t i = 1; i < r.parts.size(); ++i) calibrateForTrace(*r.context, r.parts[i].slot);
    cl_command_queue primaryQueue = sub.backendQueue;

    // Lock every storage the launch touches and make it current on every slot that takes part.
    auto [storages, locks] = lockArgumentStorages(args);
    // Sub-buffers' backend objects are made under the storage lock, here, not by the launch's thread.
    for (const auto& a : args)
        if (a.mem)
            for (const auto& p : r.parts) a.mem->backendMem(p.slot);
    // The other slots first: bringing a copy through the host may let go of the host copy's slot's
    // `ready` event, which the primary's wait list (borrowed events) must not hold by then. A copy
    // current on the primary the thread brings instead, while the primary computes (bringCopies).
    r.pinned = r.context->pinnedPool();
    auto freshNow = [&](DiscreteStorage* s, NwayRun::Part& p) {
        std::vector<cl_event> ready;
        s->makeFresh(p.slot, sub.queue, ready);
        for (cl_event e : ready) p.ready.push_back(backend::retainEvent(e));
    };
    for (DiscreteStorage* s : storages) {
        r.versions.emplace_back(s, s->version());
        NwayRun::Bring bring;
        bring.storage = s;
        bring.version = s->version();
        for (size_t i = 1; i < r.parts.size(); ++i) {
            const unsigned slot = r.parts[i].slot;
            if (r.pinned && !s->isImage() && static_cast<int>(slot) != s->hostAliasSlot() && s->freshOn(primary) &&
                !s->freshOn(slot))
                bring.parts.push_back(i);
            else
                freshNow(s, r.parts[i]);
        }
        if (bring.parts.empty()) continue;
        bring.block = r.pinned->take(s->bytes());
        if (!bring.block) {  // no pinned memory to be had: through the host now
            for (size_t i : bring.parts) freshNow(s, r.parts[i]);
            continue;
        }
        NwayRun::Bring& kept = r.brings.emplace_back(std::move(bring));  // its block goes back with the run
        for (size_t i : kept.parts) {
            auto& p = r.parts[i];
            p.bringsCopies = true;
            kept.fromVersions.push_back(s->copyVersion(p.slot));  // before bringLater says it is current
            s->bringLater(p.slot, p.ready);
            kept.to.push_back(s->backendMem(p.slot));
        }
    }
    std::vector<cl_event> primaryWait = sub.waitsOn(primaryQueue);
    for (DiscreteStorage* s : storages) s->makeFresh(primary, sub.queue, primaryWait);
    stepDone("copies current, brings planned");

    // The merge needs every copy of a written object to hold the same bytes wherever the launch does
    // not write. Copies of an object never written hold whatever their allocation held: zeroed (the
    // other slots' by the launch's thread, before their kernels).
    merge::KernelSet& primaryKernels = res.slot(primary).mergeKernels;
    for (const auto& w : written) {
        if (w.storage->version() != 0) continue;
        cl_event filled = nullptr;
        primaryKernels.enqueueZero(primaryQueue, w.storage->backendMem(primary), w.storage->bytes(), primaryWait, &filled);
        primaryWait.push_back(filled);
        r.snapshots.push_back(filled);  // released with the others
    }
    // orig: the pre-launch contents, which every other slot's copy equals where it does not write.
    const bool others = r.parts.size() > 1;
    for (const auto& w : written) {
        NwayRun::Target t{w.elementSize, w.storage->bytes(), w.storage->backendMem(primary), nullptr, nullptr,
                          w.storage->version() == 0,
                          others && merge::spanSearchable(w.storage->bytes(), w.elementSize) &&
                              (chaos::on() || w.storage->bytes() >= kSpanFrom) && !testWholeResults(),
                          w.storage->discrete(), w.storage->version()};
        if (others) {
            t.orig = res.pool.take(primaryContext, t.bytes);
            t.recv = res.pool.take(primaryContext, t.bytes);
            cl_event copied = nullptr;
            primaryKernels.enqueueCopy(primaryQueue, t.onPrimary, t.orig, t.bytes, primaryWait, &copied);
            r.snapshots.push_back(copied);
        }
        r.targets.push_back(t);
        for (size_t i = 1; i < r.parts.size(); ++i) r.parts[i].written.push_back(w.storage->backendMem(r.parts[i].slot));
    }
    // What the brings read on the primary: a written object's orig snapshot (its copy changes under
    // the primary's kernel), else the object's own copy. The thread reads once the launch's
    // dependencies are met: after a marker behind them.
    for (auto& b : r.brings) {
        b.from = b.storage->backendMem(primary);
        for (size_t t = 0; t < written.size(); ++t)
            if (written[t].storage == b.storage) b.from = r.targets[t].orig;
    }
    if (!r.brings.empty()) {
        cl_event met = nullptr;
        check(backend::enqueueMarker(primaryQueue, primaryWait, &met));
        r.snapshots.push_back(met);
    }

    stepDone("fills and snapshots");
    // Test knob: hold the primary's kernel back a random while, so the others get ahead of it or not.
    backend::Event gateHeld = chaos::holdBack(primaryContext, primaryWait, r.gateOpener);
    // The primary's part, on the launch's own queue, after the snapshots (in order).
    r.measured = !chaos::on() && (r.cpuPart > 0 || !alikeDevices(std::vector<unsigned>(slots.begin(), slots.end() - (cpuShare > 0))));
    if (r.measured) {
        backend::Event starts;
        check(backend::enqueueMarker(primaryQueue, primaryWait, starts.receive()));
        r.parts[0].started = clockOf(starts.get());
    }
    r.enqueuePart(primary, primaryQueue, r.parts[0].lo, r.parts[0].hi, primaryWait, r.primaryDone, primary);
    if (r.measured) r.parts[0].finished = clockOf(r.primaryDone.get());
    searchPrimarySpans(r, primaryQueue);
    backend::flush(primaryQueue);
    stepDone("primary's part and span search");

    // Completion: userPrimary when the merged results are in place on the primary (the launch's
    // event); each other slot's `user` when the launch no longer uses its copies.
    r.userPrimary = backend::userEvent(primaryContext).release();
    if (!r.userPrimary) fail(CL_OUT_OF_RESOURCES);
    for (size_t i = 1; i < r.parts.size(); ++i) {
        r.parts[i].user = backend::userEvent(r.context->backend(r.parts[i].slot)).release();
        if (!r.parts[i].user) fail(CL_OUT_OF_RESOURCES);
    }
    // Nothing below throws: the storages now rely on the thread completing these events.
    r.submitted = true;
    for (const auto& w : written) w.storage->wroteOn(primary, r.userPrimary);
    for (size_t i = 1; i < r.parts.size(); ++i)
        for (DiscreteStorage* s : storages) s->usedUntil(r.parts[i].slot, r.parts[i].user);
    locks.clear();
    stepDone("completion events");

    // Moved into the thread's job: runNway lets go of it early.
    return handToSplitThread(r.userPrimary, r.tail, sub.tails, inFlight, [run]() mutable { runNway(std::move(run)); });
}

}  // namespace hetero
