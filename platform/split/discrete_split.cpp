// The split engine for discrete memory (docs/hazards.md has the protocol in one paragraph).
#include "platform/split/discrete_split.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "merge/changed_span.hpp"
#include "merge/diff.hpp"
#include "merge/merge.hpp"
#include "merge/stream_back.hpp"
#include "platform/engine/queue.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/chaos.hpp"
#include "platform/split/device_trace.hpp"
#include "platform/split/exit_gate.hpp"
#include "platform/split/chunk_deadline.hpp"
#include "platform/split/config.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/split/resources.hpp"
#include "platform/split/split_common.hpp"
#include "platform/split/split_launch.hpp"
#include "platform/split/split_workers.hpp"
#include "platform/support/log.hpp"
#include "platform/support/parallel_for.hpp"

#include <algorithm>
#include <utility>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace hetero {

namespace {

// Split launches submitted and not yet finished (their threads still run); see kMaxDiscreteSplitsInFlight.
std::atomic<unsigned> splitsInFlight{0};

std::atomic<uint32_t> nextLaunchId{1};

// A CPU copy is brought from the GPU in pieces of this size, the GPU kernel's end checked between them.
constexpr size_t kMigrationPiece = size_t{1} << 20;

// The last transfer into mapped host memory still on its way, waited for when this goes (also when a
// later step throws), so that the memory is never unmapped under it.
class TransferInto {
public:
    // Keeps `next` (enqueued after the one kept so far, on the same in-order queue), then waits for
    // that one: if the wait throws, the newest is the one the destructor waits for.
    void waitThenKeep(backend::Event next) {
        backend::Event previous = std::exchange(last_, std::move(next));
        if (previous) backend::wait(previous.get());
    }
    ~TransferInto() {
        if (last_) backend::waitFor(last_.get());
    }

private:
    backend::Event last_;
};

// When a backend event was heard complete (its completion callback), for the split history: a
// split starts counting when the GPU queue gets to it, not when it was enqueued behind other work.
struct HeardAt {
    std::mutex mutex;
    std::condition_variable cv;
    double at = -1;
    static std::shared_ptr<HeardAt> watch(cl_event e) {
        auto h = std::make_shared<HeardAt>();
        bool watched = backend::whenComplete(e, [h](cl_int) {
            {
                std::lock_guard lock(h->mutex);
                h->at = splitClock();
            }
            h->cv.notify_all();
        });
        return watched ? h : nullptr;
    }
    // The time, if the callback came already; else `fallback`.
    double peek(double fallback) {
        std::lock_guard lock(mutex);
        return at >= 0 ? at : fallback;
    }
    // The time, once the callback came (it comes: the event is complete); `fallback` if it does not.
    double wait(double fallback) {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::seconds(1), [&] { return at >= 0; });
        return at >= 0 ? at : fallback;
    }
};

// Everything the CPU side of one split launch needs, owned by its thread.
struct SplitRun : SplitLaunch {
    uint64_t cpuFloor = 0;              // the CPU takes groups in [cpuFloor, groups)
    bool fixedShare = false;            // static split: the CPU's share is fixed up front
    bool planned = false;               // ... by auto mode's plan (SplitDecision::plannedShare)
    double expectedWhole = -1;          // auto mode's time for the launch run whole (<0: not known)
    // For the history's CPU speed: when the CPU copies' earlier users were done (a chunk an earlier
    // split left running, maybe still compiling, is not this split's cost) and the first chunk enqueued.
    double cpuFreeAt = -1;
    double firstChunkAt = -1;           // splitClock() when the CPU's first chunk was enqueued
    uint64_t largestChunk = 0;          // the CPU's largest chunk that finished, and its seconds
    double largestChunkSeconds = 0;
    unsigned gpu = 0, cpu = 0;
    uint32_t launchId = 0;
    backend::Event gpuDone;               // the abortable kernel
    std::vector<cl_event> snapshots;      // GPU-side copies (orig, recv, migration sources), fills and the
                                          // first status write: the CPU side reads or sends only after them
    std::vector<cl_event> cpuReady;       // the CPU copies' earlier users: wait before touching them
    cl_uint statusInit[2] = {0, 0};
    // Raw: the submitting thread hands one reference of userGpu to the command, and the launch's
    // thread takes both out before the run goes, to complete them after it let go of everything.
    cl_event userGpu = nullptr, userCpu = nullptr;
    cl_mem status = nullptr;
    struct Target {                       // a written memory object
        DiscreteStorage* storage;
        size_t elementSize, bytes;
        cl_mem onGpu, onCpu, orig, recv;
        std::vector<unsigned char> sent;  // the CPU's contents as last sent (from the first chunk on): recv's within `held`
        // The bytes of recv that hold what the CPU sent, and orig's contents between its sends: the
        // merge's range. Empty: the CPU sent nothing of the object. recv is never copied whole from
        // orig while the GPU kernel runs (an on-GPU copy there may wait for the kernel's groups).
        merge::ByteRange held{0, 0};
        bool recvSet() const { return held.second > held.first; }
        bool withdrawn = false;           // its CPU copy is left stale instead of streamed back
    };
    std::vector<Target> targets;
    struct Migration {                    // a CPU copy brought up to date before the chunks start
        DiscreteStorage* storage;
        cl_mem onCpu;
        size_t bytes;
        cl_mem from;                      // a GPU snapshot of the contents; nullptr: zero-fill
        bool pooled;                      // `from` is a pool buffer of its own (not a target's orig)
    };
    std::vector<Migration> migrations;
    size_t migrationsDone = 0;            // by prepareCpuCopies; the rest run after the launch (gave up)
    std::shared_ptr<struct HeardAt> gpuReached;  // when the GPU queue got to the launch (history)
    double gpuSeenDone = 0;   // trace::now() when the GPU kernel was seen complete
    unsigned cpuUnits = 1;

    backend::Event gpuGate;               // test knob (chaos::gpuAfterCpu): opened when the CPU side is done
    std::thread gateOpener;               // test knob (chaos): opens the GPU kernel's gate after a random delay
    // The launch's CPU side and stream-back go on after the launch's backend event: the command
    // completes only when this finishes (event_tail.hpp), the thread's very last step.
    std::shared_ptr<Tail> tail = std::make_shared<Tail>();
    // The last command this launch put on the CPU slot's shared queue without waiting for it (a
    // chunk left running when the GPU ended first, a zero fill): waited for before the tail ends.
    backend::Event lastOnCpu;
    // A merge enqueued before the GPU kernel ended (mergeAhead): the slot's merge-ahead queue is
    // held until it is done, and the buffers it reads go back to the pools only after that.
    class Ahead {
    public:
        ~Ahead() { finish(); }
        void hold(SplitResources* resources, unsigned slot, cl_command_queue queue) {
            resources_ = resources;
            slot_ = slot;
            queue_ = queue;
        }
        // Every merge was enqueued; `done` is the last one's event (none when no object needed one).
        void merged(backend::Event done) {
            done_ = std::move(done);
            merged_ = true;
        }
        bool merged() const { return merged_; }
        // Waits for what was enqueued ahead and gives the queue back: the merge's status, or
        // CL_SUCCESS when nothing was (or not all of it, an enqueue having failed: then the whole
        // queue is waited for, and the merge is made after the kernel as if nothing was).
        cl_int finish() {
            if (!resources_) return CL_SUCCESS;
            cl_int status = CL_SUCCESS;
            if (done_)
                status = backend::waitFor(done_.get());
            else if (!merged_)
                backend::finish(queue_);
            done_.reset();
            resources_->giveAheadQueue(slot_);
            resources_ = nullptr;
            return status;
        }

    private:
        SplitResources* resources_ = nullptr;
        unsigned slot_ = 0;
        cl_command_queue queue_ = nullptr;
        backend::Event done_;
        bool merged_ = false;
    };
    Ahead ahead;

    void setLastOnCpu(backend::Event e) { lastOnCpu = std::move(e); }

    void openGpuGate() {
        if (!gpuGate) return;
        backend::complete(gpuGate.get(), CL_COMPLETE);
        gpuGate.reset();
    }

    // What a launch that failed half-way through its submission still holds.
    ~SplitRun() {
        openGpuGate();
        ahead.finish();
        if (gateOpener.joinable()) gateOpener.join();
        setLastOnCpu({});
        if (!resources) return;
        cl_context gpuContext = context ? context->backend(gpu) : nullptr;
        for (auto& t : targets) {
            if (gpuContext) resources->pool.give(gpuContext, t.orig, t.bytes);
            if (gpuContext) resources->pool.give(gpuContext, t.recv, t.bytes);
        }
        for (auto& m : migrations)
            if (m.pooled && gpuContext) resources->pool.give(gpuContext, m.from, m.bytes);
        if (status && gpuContext) resources->pool.give(gpuContext, status, 2 * sizeof(cl_uint));
        gpuDone.reset();
        backend::releaseAll(snapshots);
        backend::releaseAll(cpuReady);
    }
};



// How often a split's thread asks whether the GPU kernel has ended while it waits for that or for
// CPU work. The GPU's event is asked, not heard: NVIDIA's completion callbacks come milliseconds
// late (backend_commands.cpp), and while one is pending a thread of NVIDIA's spins on a core that
// the CPU's chunk could use. Asked every 2 ms, the host saw syr2k STANDARD's abortable kernel end
// 2.2-4.7 ms after it did on the H100 (docs/results/h100-session49), the launch's time.
constexpr auto kGpuPoll = std::chrono::microseconds(50);
constexpr auto kCpuOnlyPoll = std::chrono::milliseconds(2);  // only CPU events, heard by callback

// Wakes a thread waiting for one of several backend events: those it watches by their completion
// callbacks, any other by asking `done()` again every `poll`.
struct Wakeup {
    std::mutex mutex;
    std::condition_variable cv;
    unsigned heard = 0;  // completions heard so far (under mutex)

    static void watch(const std::shared_ptr<Wakeup>& w, cl_event e) {
        backend::whenComplete(e, [w](cl_int) {
            {
                std::lock_guard lock(w->mutex);
                ++w->heard;
            }
            w->cv.notify_all();
        });
    }
    // Until `done()` holds, asked again at least every `poll`. `done()` asks backends, so it runs
    // without the mutex: a backend may run a callback inside the call that registers it (holding
    // the view lock, view_lock.hpp), and that callback takes the mutex. A completion heard while
    // `done()` ran is not lost: `heard` has moved on.
    template <typename Done, typename Poll>
    void waitUntil(Done done, Poll poll) {
        std::unique_lock lock(mutex);
        for (;;) {
            const unsigned seen = heard;
            lock.unlock();
            const bool finished = done();
            lock.lock();
            if (finished) return;
            cv.wait_for(lock, poll, [&] { return heard != seen; });
        }
    }
};

// Before the first chunk: the CPU copies' earlier users are done, stale copies are brought from
// the GPU's pre-launch snapshots, and `sent` starts as the pre-launch contents. Adaptive splits
// give up when the GPU kernel ends first (returns false): the CPU could add nothing, and the
// launch must not wait for copies it no longer needs. What was left of the preparation then runs
// after the launch completes (the stream-back), from r.migrationsDone on.
bool prepareCpuCopies(SplitRun& r, cl_command_queue cpuQueue, cl_command_queue gpuTransfer, size_t& bytesMoved) {
    const bool mayGiveUp = !r.fixedShare;
    if (mayGiveUp && chaos::giveUp()) return false;  // test knob: as if the GPU had ended first
    if (mayGiveUp && !r.cpuReady.empty()) {
        auto wakeup = std::make_shared<Wakeup>();
        for (cl_event e : r.cpuReady) Wakeup::watch(wakeup, e);
        auto cpuCopiesFree = [&] { return std::all_of(r.cpuReady.begin(), r.cpuReady.end(), backend::done); };
        wakeup->waitUntil([&] { return cpuCopiesFree() || backend::done(r.gpuDone.get()); }, kGpuPoll);
        if (!cpuCopiesFree()) return false;
    }
    backend::waitAll(r.cpuReady);
    backend::releaseAll(r.cpuReady);
    r.cpuFreeAt = splitClock();
    // Commands on the shared internal queues never carry wait lists: one launch's dependencies
    // would block every other launch behind it there. Wait here instead.
    bool copies = std::any_of(r.migrations.begin(), r.migrations.end(), [](const SplitRun::Migration& m) { return m.from; });
    if (copies) {
        backend::waitAll(r.snapshots);
        backend::releaseAll(r.snapshots);
    }
    for (; r.migrationsDone < r.migrations.size(); ++r.migrationsDone) {
        chaos::delay(2000);
        if (mayGiveUp && backend::done(r.gpuDone.get())) return false;
        const auto& m = r.migrations[r.migrationsDone];
        if (!m.from) {
            const cl_uint zero = 0;
            backend::Event filled;
            check(backend::enqueueFill(cpuQueue, m.onCpu, &zero, m.bytes % 4 == 0 ? 4 : 1, 0, m.bytes, {}, filled.receive()));
            r.setLastOnCpu(std::move(filled));  // a give-up below leaves it running
            continue;
        }
        trace::Scope span({int(r.cpu), "migrations"}, "bring " + std::to_string(m.bytes) + " bytes");
        // In pieces, the GPU kernel's end checked between them: a kernel ending meanwhile waits for
        // the pieces on their way, not the object. The next piece is enqueued before the one ahead of
        // it is waited for (the transfer queue is in order), so the copy engine never idles.
        bool cut = false;
        backend::withMapped(cpuQueue, m.onCpu, CL_MAP_WRITE_INVALIDATE_REGION, m.bytes, [&](unsigned char* p) {
            TransferInto pending;
            for (size_t at = 0; at < m.bytes; at += kMigrationPiece) {
                if (at && mayGiveUp && backend::done(r.gpuDone.get())) {
                    cut = true;  // the rest is left for after the launch
                    break;
                }
                size_t n = std::min(kMigrationPiece, m.bytes - at);
                backend::Event piece;
                check(backend::enqueueRead(gpuTransfer, m.from, at, n, p + at, {}, piece.receive()));
                bytesMoved += n;
                pending.waitThenKeep(std::move(piece));
            }
            pending.waitThenKeep({});
        });
        if (cut) return false;
    }
    check(backend::finish(cpuQueue));
    return true;
}

// Before the first chunk: `sent` starts as the CPU copies' pre-launch contents (a CPU side that
// never runs a chunk needs none of it).
void captureSent(SplitRun& r, cl_command_queue cpuQueue) {
    for (auto& t : r.targets) {
        t.sent = r.resources->hostPool.take(t.bytes);
        backend::withMapped(cpuQueue, t.onCpu, CL_MAP_READ, t.bytes, [&](unsigned char* p) { copyInParallel(t.sent.data(), p, t.bytes); });
    }
}

// A static or planned split sends its CPU copies once, whole, when every one is pinned: the merge
// compares them with the pre-launch snapshots anyway (merge.hpp), and where the CPU wrote nothing
// they hold the pre-launch contents, as the snapshots do (H9: a stale CPU copy of a written object
// was brought from its snapshot before the chunk, submitSplit's migrations). That costs a DMA of
// each object (40 GB/s and more from pinned memory on the H100 machine) instead of a copy of it
// before the chunk (captureSent) and a compare after it, both on the CPU side's critical path.
bool sendsWhole(const SplitRun& r) {
    return r.fixedShare && std::all_of(r.targets.begin(), r.targets.end(),
                                       [&](const SplitRun::Target& t) { return t.storage->pinnedCopyOn(r.cpu); });
}

// After a chunk (the CPU queue idle, so the CPU copies are a consistent snapshot: H3): sends what
// changed since the last send to the receive buffers (all of each, `whole`: sendsWhole); the status
// word follows on the same queue.
void sendChunkResults(SplitRun& r, cl_command_queue cpuQueue, cl_command_queue gpuTransfer, size_t& bytesMoved, bool whole) {
    // What the launch's queue did before the kernel (the first status word): never overtaken on the
    // transfer queue.
    if (!r.snapshots.empty()) {
        backend::waitAll(r.snapshots);
        backend::releaseAll(r.snapshots);
    }
    if (whole) {
        for (auto& t : r.targets) {
            trace::Scope span({int(r.gpu), "CPU results in"}, "send " + std::to_string(t.bytes) + " bytes (whole)");
            backend::withMapped(cpuQueue, t.onCpu, CL_MAP_READ, t.bytes, [&](unsigned char* p) {
                check(enqueueAndWaitTraced(r.gpu, {int(r.gpu), "CPU results in (device clock)"}, "write", [&](cl_event* done) {
                    return backend::enqueueWrite(gpuTransfer, t.recv, 0, t.bytes, p, {}, done);
                }));
            });
            t.held = {0, t.bytes};
            bytesMoved += t.bytes;
        }
        return;
    }
    for (auto& t : r.targets) {
        std::pair<size_t, size_t> range{0, 0};
        backend::withMapped(cpuQueue, t.onCpu, CL_MAP_READ, t.bytes, [&](unsigned char* p) {
            range = merge::differingRange(p, t.sent.data(), t.bytes, t.elementSize);
            if (range.second > range.first)
                copyInParallel(t.sent.data() + range.first, p + range.first, range.second - range.first);
        });
        if (range.second == range.first) continue;
        // What recv holds grows to the hull of what it held and this range. Written from `sent`
        // (the CPU's contents, orig's where it wrote nothing): the range, and the gap between it and
        // what recv held, one contiguous piece either way.
        const merge::ByteRange write = !t.recvSet() ? range
                                                    : merge::ByteRange{std::min(range.first, t.held.second),
                                                                       std::max(range.second, t.held.first)};
        const size_t bytes = write.second - write.first;
        trace::Scope span({int(r.gpu), "CPU results in"}, "send " + std::to_string(bytes) + " bytes");
        check(enqueueAndWaitTraced(r.gpu, {int(r.gpu), "CPU results in (device clock)"}, "write", [&](cl_event* done) {
            return backend::enqueueWrite(gpuTransfer, t.recv, write.first, bytes, t.sent.data() + write.first, {}, done);
        }));
        // Only once written: a failed write leaves the merge's range as it was.
        t.held = !t.recvSet() ? range
                              : merge::ByteRange{std::min(range.first, t.held.first), std::max(range.second, t.held.second)};
        bytesMoved += bytes;
    }
}

merge::CpuPart cpuPart(const SplitRun& r, uint64_t sent) {
    return sent == 0 ? merge::CpuPart::All : sent < r.groups ? merge::CpuPart::Some : merge::CpuPart::None;
}

// The launch's written objects as the merge sees them; `streamBack`: each whose CPU copy is not
// left stale gets the merged result copied into its receive buffer.
std::vector<merge::Target> mergeTargets(const SplitRun& r, bool streamBack) {
    std::vector<merge::Target> targets;
    for (const auto& t : r.targets)
        targets.push_back({t.onGpu, t.recv, t.orig, t.held.second - t.held.first, t.elementSize, t.recvSet(),
                           streamBack && !t.withdrawn, t.held.first, t.bytes});
    return targets;
}

// After the GPU kernel: the merge (or the CPU's data as the result when it did every group), and,
// when the CPU copies lack results the GPU computed, the merged result copied into the receive
// buffers, from where it streams back to the CPU after the launch completes. After a merge ahead,
// only those copies.
void mergeOnGpu(SplitRun& r, SplitResources& res, cl_command_queue gpuTransfer, uint64_t sent, bool streamBack,
                bool mergedAhead) {
    const merge::CpuPart part = mergedAhead ? merge::CpuPart::None : cpuPart(r, sent);
    trace::Scope span({int(r.gpu), "merge"}, mergedAhead                    ? "copies for the stream-back"
                                             : part == merge::CpuPart::All  ? "CPU result"
                                             : part == merge::CpuPart::Some ? "merge"
                                                                            : "GPU result");
    span.add(trace::num("objects", double(r.targets.size())));
    unsigned merges = merge::combine(gpuTransfer, res.slot(r.gpu).mergeKernels, mergeTargets(r, streamBack), part);
    counters::add(counters::Merges, merges);
}

// The CPU has sent all it will while the GPU kernel still runs: the merge is enqueued now, behind
// the kernel's event on the slot's merge-ahead queue, so that it starts on the GPU as the kernel
// ends, not once this thread has seen the kernel end and enqueued it (on the H200, NVIDIA took
// 60-69 us to enqueue it there, on the launch's critical path). Not while another launch holds
// that queue. The copies the stream-back needs are decided, and made, after the kernel.
void mergeAhead(SplitRun& r, SplitResources& res, uint64_t sent) {
    const merge::CpuPart part = cpuPart(r, sent);
    if (part == merge::CpuPart::None || backend::done(r.gpuDone.get())) return;
    if (chaos::on() && chaos::below(2) == 0) return;  // tests: launches of both kinds, under random delays
    cl_command_queue queue = res.takeAheadQueue(r.gpu);
    if (!queue) return;
    r.ahead.hold(&res, r.gpu, queue);
    trace::Scope span({int(r.gpu), "merge"}, "merge ahead");
    try {
        backend::Event done;
        unsigned merges = merge::combine(queue, res.slot(r.gpu).mergeKernels, mergeTargets(r, false), part,
                                         merge::MergeWait::No, r.gpuDone.get(), &done);
        check(backend::flush(queue));
        if (chaos::failMergeAhead()) fail(CL_OUT_OF_RESOURCES);  // test knob
        r.ahead.merged(std::move(done));
        counters::add(counters::Merges, merges);
        counters::add(counters::MergesAhead, merges);
    } catch (const Error& e) {
        // What was enqueued runs after the kernel, and the merge after it starts from the beginning
        // (merging twice gives the same). Not waited for here: under HETERO_TEST_SPLIT_GPU_AFTER_CPU
        // the kernel starts only after this returns.
        HETERO_LOG(Debug, "split %s: the merge could not be enqueued ahead (%s)", r.name.c_str(), errorName(e.code));
    }
}

// The next adaptive chunk's most work-groups below `next` (chunk_deadline.hpp): the GPU taken to
// start when its queue reached the launch, at the time auto mode expects of the launch run whole;
// the CPU at the speed of its last chunk. No limit before both are known (the first chunk,
// HETERO_SPLIT=always).
uint64_t chunkThatEndsInTime(const SplitRun& r, uint64_t next, double cpuPerGroup, double sendSeconds) {
    if (r.expectedWhole <= 0 || cpuPerGroup <= 0 || r.groups == 0) return next;
    return groupsThatEndInTime(next, splitClock(), r.gpuReached ? r.gpuReached->peek(r.started) : r.started,
                               r.expectedWhole / double(r.groups), cpuPerGroup, sendSeconds, r.cpuUnits);
}

// Runs the CPU's chunks from the top down while the GPU kernel runs, each followed by its data and
// the status word. `sent` (r.groups at first: none) becomes the lowest group whose results the GPU
// has as each chunk is published, so it stays right when a later chunk fails.
void runChunks(SplitRun& r, cl_command_queue cpuQueue, cl_command_queue gpuTransfer, size_t& bytesMoved,
               std::vector<uint64_t>& chunkSizes, uint64_t& sent) {
    // Static split (HETERO_CPU_SHARE): the GPU skips [cpuFloor, groups) from the start, so the CPU must
    // finish all of it and send it once, whatever the GPU does meanwhile. Adaptive: until the GPU ends.
    const bool fixedShare = r.fixedShare;
    uint64_t next = r.groups;
    const bool randomChunks = chaos::on();
    // FluidiCL §5.1: start near 2% of the work-groups, never fewer than the CPU has compute units.
    // A static share is sent once, when all of it is done, so it runs as one chunk: chunks only
    // publish progress, and each costs PoCL a launch and a wait (about 0.5 ms on the GPU machine's
    // 16 cores: docs/results/h100-session23).
    uint64_t chunk = fixedShare ? r.groups - r.cpuFloor : std::max<uint64_t>(r.cpuUnits, (r.groups - r.cpuFloor) / 50);
    // §6.3: a chunk of fewer work-groups than the CPU has compute units runs each as several
    // (not where reqd_work_group_size fixes their size: the backend refuses others).
    const bool maySplitGroups = !r.variants->fixedWorkGroupSize &&
                                transform::groupSplitAllowed(*r.variants->analysis, r.range);
    double lastPerGroup = -1, lastSendSeconds = 0;
    auto wakeup = std::make_shared<Wakeup>();
    bool first = true;
    const bool whole = sendsWhole(r);
    while (next > r.cpuFloor && (fixedShare || !backend::done(r.gpuDone.get()))) {
        if (first && !whole) captureSent(r, cpuQueue);
        first = false;
        chaos::delay(2000);
        uint64_t size = randomChunks ? 1 + chaos::below(static_cast<unsigned>(std::min<uint64_t>(next - r.cpuFloor, 1u << 20)))
                                     : std::min(chunk, next - r.cpuFloor);
        if (!fixedShare && !randomChunks) {
            size = std::min(size, chunkThatEndsInTime(r, next, lastPerGroup, lastSendSeconds));
            if (size == 0) break;  // the GPU reaches the next groups before the CPU could be done
        }
        uint64_t begin = next - size;
        double t0 = splitClock(), traceT0 = trace::now();
        if (r.firstChunkAt < 0) r.firstChunkAt = t0;
        backend::Event chunkDone;  // the chunk's last sub-launch
        if (chaos::failChunk()) fail(CL_OUT_OF_RESOURCES);  // test knob: the CPU side fails mid-launch
        const unsigned groupSplit = !maySplitGroups ? 1
                                    : randomChunks  ? transform::groupSplitFor(r.range, 1, 1 + chaos::below(16))
                                                    : transform::groupSplitFor(r.range, size, r.cpuUnits);
        exit_gate::enqueue([&] { r.enqueueChunk(r.cpu, cpuQueue, begin, next, groupSplit, {}, chunkDone); }, chunkDone);
        backend::flush(cpuQueue);
        // Until the chunk is done, or (adaptive) the GPU is: then the chunk's results would come too
        // late (H4) and the merge need not wait for it. It still runs on; whatever touches the CPU
        // copies next (the stream-back's map on the same in-order queue) waits for it.
        Wakeup::watch(wakeup, chunkDone.get());
        wakeup->waitUntil([&] { return backend::done(chunkDone.get()) || (!fixedShare && backend::done(r.gpuDone.get())); },
                          fixedShare ? std::chrono::microseconds(kCpuOnlyPoll) : kGpuPoll);
        bool finished = backend::done(chunkDone.get());
        cl_int chunkStatus = CL_COMPLETE;
        backend::eventStatus(chunkDone.get(), &chunkStatus);
        if (finished)
            traceOnDeviceClock(r.cpu, {int(r.cpu), "CPU chunks (device clock)"}, r.name + " (last sub-launch)", chunkDone.get(),
                               CL_PROFILING_COMMAND_START, chunkDone.get(), {trace::num("first_group", double(begin))});
        r.setLastOnCpu(std::move(chunkDone));  // left behind (below): the launch's tail waits for it
        if (finished && chunkStatus < 0) fail(chunkStatus);
        if (!finished) {
            trace::span({int(r.cpu), "CPU chunks"}, r.name + " (left behind)", traceT0, trace::now(),
                        {trace::num("first_group", double(begin)), trace::num("last_group", double(next - 1)),
                         trace::num("launch", r.launchId)});
            break;
        }
        chunkSizes.push_back(size);
        trace::span({int(r.cpu), "CPU chunks"}, r.name, traceT0, trace::now(),
                    {trace::num("first_group", double(begin)), trace::num("last_group", double(next - 1)),
                     trace::num("launch", r.launchId), trace::num("group_split", double(groupSplit))});
        next = begin;
        const double chunkSeconds = splitClock() - t0;
        if (size > r.largestChunk) {
            r.largestChunk = size;
            r.largestChunkSeconds = chunkSeconds;
        }
        double perGroup = chunkSeconds / double(size);
        if (lastPerGroup < 0 || perGroup < lastPerGroup * 0.95) chunk *= 2;  // grow while it pays
        lastPerGroup = perGroup;
        if (fixedShare && next > r.cpuFloor) continue;  // send once, when the share is done
        // H4: the GPU is done, so this chunk's data would arrive after the merge could use it.
        if (!fixedShare && backend::done(r.gpuDone.get())) break;
        const double sendFrom = splitClock();
        sendChunkResults(r, cpuQueue, gpuTransfer, bytesMoved, whole);
        chaos::delay(2000);
        // The status word follows the data on the same in-order queue: the GPU only skips groups
        // whose results have arrived.
        cl_uint lowest = static_cast<cl_uint>(begin);
        if (!fixedShare)
            check(enqueueAndWaitTraced(r.gpu, {int(r.gpu), "CPU results in (device clock)"}, "status word", [&](cl_event* done) {
                return backend::enqueueWrite(gpuTransfer, r.status, sizeof(cl_uint), sizeof lowest, &lowest, {}, done);
            }));
        lastSendSeconds = splitClock() - sendFrom;
        sent = begin;
    }
}

// A static or planned split whose CPU side failed: the GPU runs the work-groups [begin, end) that
// its abortable kernel skipped and the CPU never sent, with the chunk variant, before the merge
// (same in-order transfer queue). Throws Error when it cannot.
void runOnGpu(SplitRun& r, cl_command_queue gpuTransfer, uint64_t begin, uint64_t end) {
    HETERO_LOG(Info, "split %s: the GPU runs the CPU's share (work-groups %llu to %llu)", r.name.c_str(),
               (unsigned long long)begin, (unsigned long long)(end - 1));
    backend::Event done;
    r.enqueueChunk(r.gpu, gpuTransfer, begin, end, 1, {}, done);
    const cl_int status = backend::waitFor(done.get());
    if (status != CL_SUCCESS) fail(status < 0 ? status : CL_OUT_OF_RESOURCES);
}

std::string describeChunks(const std::vector<uint64_t>& sizes) {
    std::string s;
    for (size_t i = 0; i < sizes.size() && i < 8; ++i) s += (i ? "," : "") + std::to_string(sizes[i]);
    if (sizes.size() > 8) s += ",...";
    return s.empty() ? "none" : s;
}

// The CPU side, the merge, the launch's backend event, then the stream-back.
void runSides(std::shared_ptr<SplitRun> run) {
    SplitRun& r = *run;
    SplitResources& res = *r.resources;
    cl_command_queue cpuQueue = res.slot(r.cpu).queue.get();
    cl_command_queue gpuTransfer = res.slot(r.gpu).queue.get();
    size_t bytesMoved = 0;
    std::vector<uint64_t> chunkSizes;
    uint64_t sent = r.groups;
    bool cpuReady = false;  // false: the preparation failed, and CPU copies it left stale stay stale
    bool gaveUp = false;    // the GPU ended before the CPU copies were ready: the CPU did nothing
    cl_int cpuFailed = CL_SUCCESS;
    try {
        bool cpuStarts = prepareCpuCopies(r, cpuQueue, gpuTransfer, bytesMoved);
        cpuReady = true;
        gaveUp = !cpuStarts;
        if (gaveUp)
            HETERO_LOG(Debug, "split %s: the GPU ended first; the CPU gives up with %zu of %zu migrations left", r.name.c_str(),
                       r.migrations.size() - r.migrationsDone, r.migrations.size());
        const bool idle = !r.fixedShare && chaos::cpuIdle();  // test knob: the GPU wins the race
        if (cpuStarts && !idle) runChunks(r, cpuQueue, gpuTransfer, bytesMoved, chunkSizes, sent);
    } catch (const Error& e) {
        if (exit_gate::closed())
            HETERO_LOG(Debug, "split launch of %s: the process exits; its CPU side stops", r.name.c_str());
        else
            HETERO_LOG(Warn, "split launch of %s: CPU side failed (%s); %s", r.name.c_str(), errorName(e.code),
                       r.fixedShare ? "the GPU runs what it did not send" : "the GPU result stands");
        cpuFailed = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
    }
    r.quiet.release();  // the CPU is done: waits may spin again
    if (cpuFailed == CL_SUCCESS && cpuReady) mergeAhead(r, res, sent);
    r.openGpuGate();

    // The merge, after the GPU kernel and after everything sent (same in-order transfer queue).
    cl_int gpuStatus = backend::waitFor(r.gpuDone.get());
    r.gpuSeenDone = trace::now();
    chaos::delay(2000);
    const bool mergedAhead = r.ahead.merged();
    const cl_int aheadStatus = r.ahead.finish();
    cl_int result = gpuStatus == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // A static or planned split's GPU skipped the CPU's whole share from the start: if the CPU did
    // not send it all, the GPU runs what it lacks now, else the launch fails rather than give wrong
    // results.
    if (result == CL_COMPLETE && cpuFailed != CL_SUCCESS && r.fixedShare && sent > r.cpuFloor) {
        try {
            runOnGpu(r, gpuTransfer, r.cpuFloor, sent);
        } catch (const Error& e) {
            HETERO_LOG(Error, "split launch of %s: the GPU could not run the CPU's share (%s)", r.name.c_str(),
                       errorName(e.code));
            result = cpuFailed;
        }
    }
    // The CPU copies hold the result already when the CPU did every group; else the merged result
    // streams back to them. (A failed launch leaves contents undefined, as on any device.)
    bool streamBack = sent != 0 && result == CL_COMPLETE;
    // Nothing moves that nobody reads: each CPU copy that nobody relied on yet is left stale (brought
    // from the GPU if and when something needs it) instead of streamed back, whatever the CPU
    // computed: no copy into recv, no transfer, and the launch completes without waiting for one.
    // (syr2k at a 5 % share on the H100: the 4 MiB stream-back was 0.26-0.32 ms of a 9.1 ms launch,
    // and the program writes that object from the host before it is used again.) Under
    // HETERO_TEST_SPLIT_CHAOS half the launches whose CPU computed something stream back anyway, so
    // that tests keep seeing a stream-back racing what comes next.
    size_t withdrawn = 0;
    const bool cpuComputed = sent != r.groups;
    if (streamBack && cpuReady && !(cpuComputed && chaos::on() && chaos::below(2) == 0)) {
        for (auto& t : r.targets)
            if ((t.withdrawn = t.storage->withdrawFreshLater(r.cpu, r.userCpu))) ++withdrawn;
        for (size_t i = r.migrationsDone; i < r.migrations.size(); ++i) {
            auto& m = r.migrations[i];
            if (m.pooled && m.storage->withdrawFreshLater(r.cpu, r.userCpu)) {
                m.pooled = false;  // nothing to bring
                r.resources->pool.give(r.context->backend(r.gpu), m.from, m.bytes);
                m.from = nullptr;
                ++withdrawn;
            }
        }
    }
    if (result == CL_COMPLETE) {
        try {
            if (mergedAhead && aheadStatus != CL_SUCCESS) fail(aheadStatus < 0 ? aheadStatus : CL_OUT_OF_RESOURCES);
            mergeOnGpu(r, res, gpuTransfer, sent, streamBack, mergedAhead);
        } catch (const Error& e) {
            HETERO_LOG(Error, "split launch of %s: merge failed (%s)", r.name.c_str(), errorName(e.code));
            result = e.code;
            streamBack = false;
        }
    }
    const double ended = splitClock(), seconds = ended - r.started;
    if (result == CL_COMPLETE && cpuReady) {
        double reached = r.gpuReached ? r.gpuReached->wait(r.started) : r.started;
        const double from = std::max(r.started, reached);
        if (!chaos::on())
            recordCpuSpeed(r.variants->historyKey, r.launch, r.groups, r.largestChunk, r.largestChunkSeconds,
                           r.firstChunkAt >= 0 ? std::max(0.0, r.firstChunkAt - std::max(from, r.cpuFreeAt)) : -1);
        recordSplit(r.variants->historyKey, r.launch, ended - from, r.probe != nullptr,
                    r.groups ? double(r.groups - sent) / double(r.groups) : -1, r.planned);
    }
    {
        uint64_t cpuDid = r.groups - sent;
        uint64_t cpuGroups = (isCpuSlot(r.cpu) ? cpuDid : 0) + (isCpuSlot(r.gpu) ? r.groups - cpuDid : 0);
        countLaunch(counters::LaunchesSplitDiscrete, r.groups, cpuGroups);
        counters::addSlotWorkGroups(r.gpu, r.groups - cpuDid);
        counters::addSlotWorkGroups(r.cpu, cpuDid);
        counters::add(counters::BytesBetweenDevices, bytesMoved);
        trace::span({int(r.gpu), "abortable kernel"}, r.name, r.traceBegin, r.gpuSeenDone,
                    {trace::num("launch", r.launchId), trace::num("groups_skipped", double(r.groups - sent))});
        traceOnDeviceClock(r.gpu, {int(r.gpu), "abortable kernel (device clock)"}, r.name, r.gpuDone.get(),
                           CL_PROFILING_COMMAND_START, r.gpuDone.get(), {trace::num("launch", r.launchId)});
        traceLaunch(r.name, int(r.gpu), r.groups, cpuGroups, true, r.traceBegin, trace::now(),
                    {trace::num("chunks", double(chunkSizes.size())), trace::str("chunk_sizes", describeChunks(chunkSizes)),
                     trace::num("bytes", double(bytesMoved)), trace::str("memory", "discrete")});
    }
    HETERO_LOG(Info, "split %s%s: %llu work-groups, CPU did %llu (%.1f%%) in %zu chunks (%s), %zu bytes moved, %.3f ms",
               r.name.c_str(), r.planned ? " (planned)" : "", (unsigned long long)r.groups, (unsigned long long)(r.groups - sent),
               r.groups ? 100.0 * double(r.groups - sent) / double(r.groups) : 0.0, chunkSizes.size(),
               describeChunks(chunkSizes).c_str(), bytesMoved, seconds * 1e3);

    // Hand the receive buffers to the stream-back, everything else back to the pools.
    merge::StreamBack back;
    back.cpuQueue = cpuQueue;
    back.gpuQueue = gpuTransfer;
    back.pool = &res.pool;
    back.gpuContext = r.context->backend(r.gpu);
    back.beforeEach = [](size_t) { chaos::delay(5000); };  // tests: later CPU work must wait for what is on its way
    for (auto& t : r.targets) {
        res.pool.give(back.gpuContext, t.orig, t.bytes);
        if (streamBack && !t.withdrawn) {
            back.items.push_back({t.recv, backend::Buffer::retained(t.onCpu), t.bytes});
        } else {
            res.pool.give(back.gpuContext, t.recv, t.bytes);
        }
        if (!t.sent.empty()) res.hostPool.give(std::move(t.sent));
    }
    r.targets.clear();
    // Preparation given up: objects only read still need their CPU copies brought (written ones
    // are streamed back whole); their snapshots go back to the pool once that is done.
    for (size_t i = 0; i < r.migrations.size(); ++i) {
        auto& m = r.migrations[i];
        if (!m.pooled) continue;
        if (i >= r.migrationsDone && cpuReady) {
            back.items.push_back({m.from, backend::Buffer::retained(m.onCpu), m.bytes});
        } else {
            res.pool.give(back.gpuContext, m.from, m.bytes);
        }
    }
    r.migrations.clear();
    back.cpuReady = std::move(r.cpuReady);
    r.cpuReady.clear();
    res.pool.give(back.gpuContext, r.status, 2 * sizeof(cl_uint));
    r.status = nullptr;
    r.gpuDone.reset();
    backend::releaseAll(r.snapshots);
    cl_event userCpu = r.userCpu, userGpu = r.userGpu;
    const unsigned cpuSlot = r.cpu;
    // The stream-back uses the context's pools and queues after the launch's objects are gone.
    std::shared_ptr<SplitResources> keepResources = r.resources;
    backend::Event lastOnCpu = std::move(r.lastOnCpu);
    std::thread gateOpener = std::move(r.gateOpener);
    // Let go of the context, kernel and memory objects before the launch is seen complete: an
    // application that then releases everything must see its objects (and destructor callbacks)
    // go at once, not whenever this thread gets to its end.
    run.reset();
    backend::complete(userGpu, result);
    backend::releaseEvent(userGpu);

    // The CPU copies become current in the background; CPU work that reads them waits for userCpu.
    // Copies the failed preparation left stale must never pass as current.
    // (Given up and nothing streamed back: the written objects' CPU copies were never brought.)
    cl_int cpuStatus = cpuReady && !(gaveUp && !streamBack) ? CL_COMPLETE : CL_OUT_OF_RESOURCES;
    try {
        trace::Scope span({int(cpuSlot), "stream-back"}, "bring back results");
        back.run();
        span.add(trace::num("bytes", double(back.bytesMoved)));
        span.add(trace::num("withdrawn", double(withdrawn)));
    } catch (const Error& e) {
        HETERO_LOG(Error, "split launch: bringing results back to the CPU failed (%s)", errorName(e.code));
        cpuStatus = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;  // a stale copy must never pass as current
    }
    back.release();
    counters::add(counters::BytesBetweenDevices, back.bytesMoved);
    HETERO_LOG(Debug, "split: %zu bytes streamed back to the CPU, %zu CPU copies left stale", back.bytesMoved, withdrawn);
    // A chunk left behind (or a fill): still PoCL's work, and maybe its compiler's (a chunk's first
    // run at a work-group size compiles it). It writes CPU copies, so it ends before userCpu says
    // they may be overwritten (a copy left stale above is brought from the GPU after userCpu).
    if (lastOnCpu) {
        backend::waitFor(lastOnCpu.get());
        traceOnDeviceClock(cpuSlot, {int(cpuSlot), "CPU chunks (device clock)"}, "last command", lastOnCpu.get(),
                           CL_PROFILING_COMMAND_START, lastOnCpu.get());
        lastOnCpu.reset();
    }
    backend::complete(userCpu, cpuStatus);
    backend::releaseEvent(userCpu);
    if (gateOpener.joinable()) gateOpener.join();
}

// The split launch's thread. The launch completes for the application when it ends (its tail).
void runSplit(std::shared_ptr<SplitRun> run) {
    std::shared_ptr<Tail> tail = run->tail;
    runSides(std::move(run));
    --splitsInFlight;
    tail->finish();  // last: once the application sees the launch complete it may exit
}


}  // namespace

unsigned discreteSplitsInFlight() { return splitsInFlight.load(); }

cl_event submitSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                     const SplitDecision& decision) {
    auto run = std::make_shared<SplitRun>();
    SplitRun& r = *run;
    r.begin(kernel, args, launch, decision);
    r.gpu = decision.gpuSlot;
    r.cpu = decision.cpuSlot;
    r.planned = decision.plannedShare > 0;
    r.expectedWhole = decision.expectedWholeSeconds;
    double share = r.planned ? decision.plannedShare : cpuShare();
    r.fixedShare = share > 0;
    r.cpuFloor = r.fixedShare ? r.groups - static_cast<uint64_t>(std::llround(share * double(r.groups))) : 0;
    r.launchId = nextLaunchId++;
    r.cpuUnits = computeUnits(r.cpu);
    std::vector<Written> written;
    const char* why = "";
    if (!writtenStorages(*r.variants, args, written, why)) fail(CL_INVALID_OPERATION);  // decided earlier

    SplitResources& res = *r.resources;
    cl_context gpuContext = r.context->backend(r.gpu), cpuContext = r.context->backend(r.cpu);
    cl_command_queue gpuQueue = sub.backendQueue;
    calibrateForTrace(*r.context, r.gpu);
    calibrateForTrace(*r.context, r.cpu);

    // Lock every storage the launch touches and bring it to the GPU. The CPU copies are brought up
    // to date by the launch's thread, from GPU-side snapshots, so this thread never waits for them.
    auto [storages, locks] = lockArgumentStorages(args);
    // Sub-buffers' backend objects are made under the storage lock, here, not by the chunk thread.
    for (const auto& a : args)
        if (a.mem) {
            a.mem->backendMem(r.gpu);
            a.mem->backendMem(r.cpu);
        }
    std::vector<cl_event> gpuWait = sub.waitsOn(gpuQueue);
    std::vector<DiscreteStorage*> staleOnCpu;
    for (DiscreteStorage* s : storages) {
        s->makeFresh(r.gpu, sub.queue, gpuWait);
        s->backendMem(r.cpu);
        if (!s->freshOn(r.cpu)) staleOnCpu.push_back(s);
        if (cl_event e = s->readyOn(r.cpu)) r.cpuReady.push_back(backend::retainEvent(e));
    }
    auto isStale = [&](const Storage* s) { return std::find(staleOnCpu.begin(), staleOnCpu.end(), s) != staleOnCpu.end(); };

    // The history times the split from when the GPU queue gets to it.
    if (splitMode() == SplitMode::Auto && cpuShare() < 0)
        if (backend::Event reached(startTiming(gpuQueue, gpuWait)); reached) r.gpuReached = HeardAt::watch(reached.get());

    // The merge needs both copies of a written object to hold the same bytes wherever the launch does
    // not write. Copies of an object never written hold whatever their allocation held: zero both.
    for (const auto& w : written) {
        if (w.storage->version() != 0) continue;
        const cl_uint zero = 0;
        cl_event filled = nullptr;
        check(backend::enqueueFill(gpuQueue, w.storage->backendMem(r.gpu), &zero, w.storage->bytes() % 4 == 0 ? 4 : 1, 0,
                                   w.storage->bytes(), gpuWait, &filled));
        gpuWait.push_back(filled);
        r.snapshots.push_back(filled);  // released with the others
        r.migrations.push_back({&copiesOf(*w.storage), w.storage->backendMem(r.cpu), w.storage->bytes(), nullptr, false});
    }
    // Snapshots: orig (pre-launch contents, for the merge); recv receives what the CPU sends, only
    // where it sends (Target::held), so a CPU side that sends little copies little.
    for (const auto& w : written) {
        SplitRun::Target t{&copiesOf(*w.storage),
                           w.elementSize,
                           w.storage->bytes(),
                           w.storage->backendMem(r.gpu),
                           w.storage->backendMem(r.cpu),
                           res.pool.take(gpuContext, w.storage->bytes()),
                           res.pool.take(gpuContext, w.storage->bytes()),
                           {}};
        cl_event copied = nullptr;
        check(backend::enqueueCopy(gpuQueue, t.onGpu, t.orig, 0, 0, t.bytes, gpuWait, &copied));
        r.snapshots.push_back(copied);
        if (isStale(w.storage) && w.storage->version() != 0)
            r.migrations.push_back({t.storage, t.onCpu, t.bytes, t.orig, false});
        r.targets.push_back(std::move(t));
    }
    // Objects only read whose CPU copy is stale: a snapshot of the GPU's copy to bring it from.
    for (DiscreteStorage* s : staleOnCpu) {
        bool isTarget = std::any_of(written.begin(), written.end(), [&](const Written& w) { return w.storage == s; });
        if (isTarget) continue;
        cl_mem from = res.pool.take(gpuContext, s->bytes());
        cl_event copied = nullptr;
        check(backend::enqueueCopy(gpuQueue, s->backendMem(r.gpu), from, 0, 0, s->bytes(), gpuWait, &copied));
        r.snapshots.push_back(copied);
        r.migrations.push_back({s, s->backendMem(r.cpu), s->bytes(), from, true});
    }
    // Status word {launch id, lowest group the CPU has done}: before the kernel starts (protocol).
    r.status = res.pool.take(gpuContext, 2 * sizeof(cl_uint));
    // Static split: the GPU skips the CPU's share from the start (the merge waits for all of it).
    run->statusInit[0] = r.launchId;
    run->statusInit[1] = static_cast<cl_uint>(r.fixedShare ? r.cpuFloor : r.groups);
    cl_event statusWritten = nullptr;
    check(backend::enqueueWrite(gpuQueue, r.status, 0, sizeof run->statusInit, run->statusInit, {}, &statusWritten));
    r.snapshots.push_back(statusWritten);

    // Test knobs: hold the GPU kernel back a random while, so the CPU gets ahead of it (or not), or
    // until the CPU side is done.
    backend::Event gateHeld;
    if (chaos::on() || chaos::gpuAfterCpu()) {
        gateHeld = backend::userEvent(gpuContext);
        cl_event gate = gateHeld.get();
        if (gate && chaos::gpuAfterCpu()) {
            gpuWait.push_back(gate);
            r.gpuGate = backend::Event::retained(gate);
        } else if (gate) {
            gpuWait.push_back(gate);  // gateHeld: our own reference, the opener below may be done before the kernel is enqueued
            r.gateOpener = chaos::openLater(gate);
        }
    }
    // The GPU: the abortable variant over the whole NDRange.
    {
        std::lock_guard lock(r.variants->mutex);
        KernelVariants::LaneCommand c = r.variants->abortOn(r.gpu, gpuQueue);
        kernel.applyArgs(c.kernel, r.gpu, args);
        cl_uint numArgs = static_cast<cl_uint>(args.size());
        check(backend::setArg(c.kernel, numArgs, r.status));
        setVariantExtraArgs(c.kernel, numArgs + 1, transform::abortExtraArgs(r.range, r.launchId));
        check(backend::enqueueKernel(gpuQueue, c.kernel, r.launch.dims, r.launch.hasOffset ? r.launch.offset : nullptr,
                                     r.launch.global, r.launch.local, gpuWait, r.gpuDone.receive()));
        c.choice.ran(r.gpuDone.get());
    }
    backend::flush(gpuQueue);

    // Completion: userGpu when the merged results are in place on the GPU (the launch's event),
    // userCpu when the CPU copies hold them too (after the stream-back).
    r.userGpu = backend::userEvent(gpuContext).release();
    if (!r.userGpu) fail(CL_OUT_OF_RESOURCES);
    r.userCpu = backend::userEvent(cpuContext).release();
    if (!r.userCpu) fail(CL_OUT_OF_RESOURCES);
    for (const auto& w : written) w.storage->wroteOn(r.gpu, r.userGpu);
    // Every CPU copy is current once userCpu completes (objects only read: after the migration;
    // written ones: after the stream-back), and nothing may overwrite them before.
    for (DiscreteStorage* s : storages) s->freshLater(r.cpu, r.userCpu);
    locks.clear();

    // Moved into the thread's job: runSides lets go of it early.
    return handToSplitThread(r.userGpu, r.tail, sub.tails, splitsInFlight, [run]() mutable { runSplit(std::move(run)); });
}

}  // namespace hetero
