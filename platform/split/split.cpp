#include "platform/split/split.hpp"

#include "merge/merge.hpp"
#include "platform/split/chaos.hpp"
#include "platform/support/config.hpp"
#include "platform/engine/submit.hpp"
#include "platform/observe/launch_stats.hpp"
#include "platform/split/launch_timing.hpp"
#include "platform/support/log.hpp"
#include "platform/split/history_store.hpp"
#include "platform/split/split_history.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <thread>

namespace hetero {

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------
namespace {

enum class SplitMode { Off, Auto, Always };

SplitMode splitMode() {
    static const SplitMode mode = [] {
        std::string v = config::get("HETERO_SPLIT", "split").value_or("auto");
        if (v == "off" || v == "0") return SplitMode::Off;
        if (v == "always") return SplitMode::Always;
        if (v != "auto") HETERO_LOG(Warn, "HETERO_SPLIT=%s not understood (auto|off|always); using auto", v.c_str());
        return SplitMode::Auto;
    }();
    return mode;
}

}  // namespace

// HETERO_CPU_SHARE in [0,1]: a fixed share of the work-groups for the CPU (static split); <0: adaptive.
double cpuShare() {
    static const double share = [] {
        auto v = config::get("HETERO_CPU_SHARE", "cpu_share");
        if (!v) return -1.0;
        char* end = nullptr;
        double d = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end || d < 0 || d > 1) {
            HETERO_LOG(Warn, "HETERO_CPU_SHARE=%s must be a number from 0 to 1; ignored", v->c_str());
            return -1.0;
        }
        return d;
    }();
    return share;
}

namespace {

// Test knob (platform/split/chaos.hpp): with HETERO_TEST_SPLIT_CHAOS set, chunk sizes are random and
// random delays come before the GPU kernel, before each CPU copy is brought up to date, before each
// CPU chunk, between a chunk's data and its status word, before the merge and before each merged
// result streams back to the CPU, so tests see many interleavings.

// The history's key for a launch: its global size.
LaunchSize sizeKey(const LaunchGeometry& l) {
    LaunchSize s;
    s.dims = l.dims;
    for (cl_uint d = 0; d < l.dims && d < 3; ++d) s.global[d] = l.global[d];
    return s;
}

// Split launches submitted and not yet finished (their threads still run). Each holds snapshot,
// receive and staging buffers of every object it writes from submission on; an application that
// enqueues thousands of launches at once must not get thousands of those: beyond this many, a
// launch runs whole.
constexpr unsigned kMaxSplitsInFlight = 16;
std::atomic<unsigned> splitsInFlight{0};

// Runs `fn` with the final status from the backend's completion callback of `e`. False when the
// backend refuses the callback (then `fn` never runs).
using Completion = std::function<void(cl_int)>;
void CL_CALLBACK runCompletion(cl_event, cl_int status, void* data) {
    std::unique_ptr<Completion> fn(static_cast<Completion*>(data));
    (*fn)(status);
}
bool whenComplete(cl_event e, Completion fn) {
    auto* held = new Completion(std::move(fn));
    if (BACKEND(e, clSetEventCallback)(e, CL_COMPLETE, runCompletion, held) == CL_SUCCESS) return true;
    delete held;
    return false;
}

}  // namespace

cl_event startTiming(cl_command_queue queue, const std::vector<cl_event>& waitList) {
    cl_event marker = nullptr;
    if (BACKEND(queue, clEnqueueMarkerWithWaitList)(queue, static_cast<cl_uint>(waitList.size()),
                                                    waitList.empty() ? nullptr : waitList.data(), &marker) != CL_SUCCESS)
        return nullptr;
    return marker;
}

void timeUnsplitLaunch(cl_event done, const std::string& kernel, const LaunchGeometry& launch) {
    if (done) return timeWholeLaunch(done, kernel, sizeKey(launch));
    SplitHistory::instance().recordWhole(kernel, sizeKey(launch), -1);  // untimed: the size may be timed again
}

void recordSplit(const std::string& name, const LaunchGeometry& launch, double seconds, bool probe, double cpuShare) {
    SplitHistory::instance().recordSplit(name, sizeKey(launch), seconds, probe, cpuShare);
}

namespace {

// ---------------------------------------------------------------------------------------------
// Per-context resources: buffer pool, internal queues, merge kernels.
// ---------------------------------------------------------------------------------------------
struct SlotResources {
    cl_command_queue queue = nullptr;  // internal: CPU chunks (on the CPU slot), transfers+merge (GPU slot)
    cl_program mergeProgram = nullptr;
    cl_kernel merge[4] = {nullptr, nullptr, nullptr, nullptr};  // by log2(element size)
    std::mutex mutex;                  // serialises use of the merge kernels
};

}  // namespace

struct SplitResources {
    Context* context;  // used only while the context lives (queues and merge kernels are made then)
    merge::BufferPool pool;
    merge::HostBufferPool hostPool;
    std::vector<std::unique_ptr<SlotResources>> slots;
    std::mutex mutex;

    SlotResources& slot(unsigned s) {
        std::lock_guard lock(mutex);
        SlotResources& r = *slots[s];
        if (!r.queue) {
            cl_context c = context->backend(s);
            cl_int err = CL_SUCCESS;
            r.queue = BACKEND(c, clCreateCommandQueue)(c, Device::instance()->slots()[s].device, 0, &err);
            if (!r.queue) fail(CL_OUT_OF_RESOURCES);
        }
        return r;
    }
    cl_kernel mergeKernel(unsigned s, size_t elementSize) {
        SlotResources& r = slot(s);
        std::lock_guard lock(mutex);
        if (!r.mergeProgram) {
            cl_context c = context->backend(s);
            const char* src = merge::kernelSource();
            cl_int err = CL_SUCCESS;
            r.mergeProgram = BACKEND(c, clCreateProgramWithSource)(c, 1, &src, nullptr, &err);
            cl_device_id d = Device::instance()->slots()[s].device;
            if (!r.mergeProgram || BACKEND(r.mergeProgram, clBuildProgram)(r.mergeProgram, 1, &d, "", nullptr, nullptr) != CL_SUCCESS)
                fail(CL_OUT_OF_RESOURCES);
            for (int i = 0; i < 4; ++i) {
                r.merge[i] = BACKEND(r.mergeProgram, clCreateKernel)(r.mergeProgram, merge::kernelName(size_t{1} << i), &err);
                if (!r.merge[i]) fail(CL_OUT_OF_RESOURCES);
            }
        }
        int index = elementSize == 1 ? 0 : elementSize == 2 ? 1 : elementSize == 4 ? 2 : 3;
        return r.merge[index];
    }
    ~SplitResources() {
        for (auto& r : slots) {
            for (cl_kernel k : r->merge)
                if (k) BACKEND(k, clReleaseKernel)(k);
            if (r->mergeProgram) BACKEND(r->mergeProgram, clReleaseProgram)(r->mergeProgram);
            // No clFinish (see Queue::~Queue): this may run on a backend's callback thread, when
            // the context goes with an event's last reference. The split threads that used the
            // queue waited for their work before letting go of these resources.
            if (r->queue) BACKEND(r->queue, clReleaseCommandQueue)(r->queue);
        }
    }
};

std::shared_ptr<SplitResources> Context::sharedSplitResources() {
    std::call_once(splitOnce_, [this] {
        auto r = std::make_shared<SplitResources>();
        r->context = this;
        for (unsigned s = 0; s < slotCount(); ++s) r->slots.push_back(std::make_unique<SlotResources>());
        split_ = std::move(r);
    });
    return split_;
}

// ---------------------------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------------------------

ProgramVariants::~ProgramVariants() {
    for (cl_program p : programs)
        if (p) BACKEND(p, clReleaseProgram)(p);
}

KernelVariants::~KernelVariants() {
    for (cl_kernel k : chunk)
        if (k) BACKEND(k, clReleaseKernel)(k);
    for (cl_kernel k : abort)
        if (k) BACKEND(k, clReleaseKernel)(k);
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
    bool any = false;
    for (const auto& k : v->analysis.kernels) {
        any = any || k.splittable;
        if (!k.splittable) HETERO_LOG(Info, "kernel %s runs unsplit: %s", k.name.c_str(), k.reason.c_str());
    }
    if (!v->analysis.parsed || !any) return nullptr;
    transform::Variants variants = transform::makeVariants({source}, options, v->analysis);
    const char* text = variants.source.c_str();
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_context c = context->backend(s);
        cl_device_id d = Device::instance()->slots()[s].device;
        cl_int err = CL_SUCCESS;
        cl_program p = BACKEND(c, clCreateProgramWithSource)(c, 1, &text, nullptr, &err);
        if (p && BACKEND(p, clBuildProgram)(p, 1, &d, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            HETERO_LOG(Warn, "split variants did not build on slot %u; launches run unsplit", s);
            BACKEND(p, clReleaseProgram)(p);
            p = nullptr;
        }
        v->programs.push_back(p);
    }
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
    for (size_t slot = 0; slot < program->programs.size(); ++slot) {
        cl_program p = program->programs[slot];
        cl_kernel chunk = nullptr, abort = nullptr;
        if (p) {
            cl_int err;
            chunk = BACKEND(p, clCreateKernel)(p, (name + "__hetero_chunk").c_str(), &err);
            abort = BACKEND(p, clCreateKernel)(p, (name + "__hetero_abort").c_str(), &err);
        }
        size_t fixed[3] = {0, 0, 0};
        if (chunk &&
            BACKEND(chunk, clGetKernelWorkGroupInfo)(chunk, Device::instance()->slots()[slot].device,
                                                     CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof fixed, fixed, nullptr) == CL_SUCCESS)
            kv->fixedWorkGroupSize |= fixed[0] || fixed[1] || fixed[2];
        kv->chunk.push_back(chunk);
        kv->abort.push_back(abort);
    }
    return kv;
}

// ---------------------------------------------------------------------------------------------
// Decision
// ---------------------------------------------------------------------------------------------
namespace {

// What a split launch writes: one entry per storage, with the scalar size it is written through.
struct Written {
    Storage* storage;
    size_t elementSize;
};

// The written storages of a launch, or an empty optional-like flag when it cannot be split (H2, H5).
bool writtenStorages(const KernelVariants& kv, const std::vector<KernelArg>& args, std::vector<Written>& out,
                     std::string& why) {
    const auto& params = kv.analysis->params;
    if (params.size() != args.size()) {
        why = "analysis and kernel disagree on the parameters";
        return false;
    }
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].sampler || (args[i].mem && args[i].mem->isImage())) {
            why = "image or sampler arguments";
            return false;
        }
        if (!args[i].mem || !params[i].mayWrite) continue;
        if (params[i].storeSizes.size() != 1) {
            why = "parameter " + params[i].name + " is written through several element sizes";
            return false;
        }
        size_t size = params[i].storeSizes[0];
        if (size != 1 && size != 2 && size != 4 && size != 8) {
            why = "unsupported element size";
            return false;
        }
        Storage* s = &args[i].mem->storage();
        bool seen = false;
        for (auto& w : out)
            if (w.storage == s) {
                seen = true;
                if (w.elementSize != size) {  // the same memory through two element sizes (H2, H5)
                    why = "one memory object is written through two element sizes";
                    return false;
                }
            }
        if (!seen) out.push_back({s, size});
    }
    return true;
}

// What a split of the launch would move between the devices, for auto mode's model: in discrete
// memory the written objects' results back to the CPU, and as much again for the CPU's chunks and
// stale inputs. Walks the arguments only (no allocation: it runs at every decision).
LaunchCost splitCost(const Kernel& kernel, const KernelVariants& kv, const std::vector<KernelArg>& args) {
    LaunchCost cost;
    if (kernel.context()->memoryModel() == MemoryModel::Unified) return cost;
    const auto& params = kv.analysis->params;
    for (size_t i = 0; i < args.size() && i < params.size(); ++i)
        if (args[i].mem && params[i].mayWrite) cost.bytesMoved += 2.0 * double(args[i].mem->storage().bytes());
    return cost;
}

transform::NDRange toNDRange(const LaunchGeometry& l) {
    transform::NDRange r;
    r.dims = l.dims;
    for (cl_uint d = 0; d < 3; ++d) {
        r.offset[d] = d < l.dims ? l.offset[d] : 0;
        r.global[d] = d < l.dims ? l.global[d] : 1;
        r.local[d] = d < l.dims ? l.local[d] : 1;
    }
    return r;
}

}  // namespace

SplitDecision splitDecision(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                            unsigned preferredSlot) {
    SplitDecision d;
    d.gpuSlot = preferredSlot;
    auto kv = kernel.variants();
    if (!kv) {
        d.why = "not splittable";
        return d;
    }
    if (launch.empty) return d;
    const auto& slots = Device::instance()->slots();
    int cpu = -1;
    for (const auto& s : slots)
        if (s.index != preferredSlot && (s.type & CL_DEVICE_TYPE_CPU) && kv->chunk[s.index]) {
            cpu = static_cast<int>(s.index);
            break;
        }
    for (const auto& s : slots)
        if (cpu < 0 && s.index != preferredSlot && kv->chunk[s.index]) cpu = static_cast<int>(s.index);
    if (cpu < 0 || !kv->abort[preferredSlot]) {
        d.why = "the variants are missing on a slot";
        return d;
    }
    double share = cpuShare();
    if (share == 0.0) {
        d.why = "HETERO_CPU_SHARE=0";
        return d;
    }
    d.cpuSlot = static_cast<unsigned>(cpu);
    // Auto mode asks the history first: most launches of a launch-heavy program run whole and
    // untimed, and need nothing else looked at (no allocation, no walk over the storages).
    SplitHistory::Decision h;
    h.split = true;
    if (splitMode() != SplitMode::Always && share < 0) {
        pollLaunchTimings();
        h = SplitHistory::instance().decide(kv->historyKey, sizeKey(launch), splitCost(kernel, *kv, args));
        if (!h.split && !h.timeWhole) {
            d.why = "history";
            return d;
        }
    }
    std::vector<Written> written;
    bool splittable = writtenStorages(*kv, args, written, d.why);
    if (splittable && h.split && splitsInFlight.load() >= kMaxSplitsInFlight) {
        d.why = std::to_string(kMaxSplitsInFlight) + " split launches are still in flight";
        splittable = false;
    }
    if (!splittable) {
        // Never timed for a launch that could not split: the size may be timed again.
        if (h.timeWhole) SplitHistory::instance().recordWhole(kv->historyKey, sizeKey(launch), -1);
        return d;
    }
    d.split = h.split;
    d.timeUnsplit = h.timeWhole;
    d.probe = std::move(h.probe);
    return d;
}

// ---------------------------------------------------------------------------------------------
// The split launch
// ---------------------------------------------------------------------------------------------
namespace {

std::atomic<uint32_t> nextLaunchId{1};

bool eventDone(cl_event e) {
    cl_int st = CL_QUEUED;
    BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    return st <= CL_COMPLETE;
}

void waitAll(const std::vector<cl_event>& events) {
    for (cl_event e : events) check(BACKEND(e, clWaitForEvents)(1, &e));
}

void releaseAll(std::vector<cl_event>& events) {
    for (cl_event e : events) BACKEND(e, clReleaseEvent)(e);
    events.clear();
}

// Split launches whose threads still run (the stream-back outlives the launch's event). The
// process waits for them at exit, so no backend is torn down under a running transfer.
struct RunningSplits {
    std::mutex mutex;
    std::condition_variable idle;
    unsigned count = 0;
    static RunningSplits& instance() {
        static auto* r = [] {
            auto* rs = new RunningSplits;
            std::atexit([] {
                RunningSplits& self = instance();
                std::unique_lock lock(self.mutex);
                self.idle.wait_for(lock, std::chrono::seconds(30), [&] { return self.count == 0; });
            });
            return rs;
        }();
        return *r;
    }
    void enter() {
        std::lock_guard lock(mutex);
        ++count;
        ++splitsInFlight;
    }
    void leave() {
        std::lock_guard lock(mutex);
        --splitsInFlight;
        if (--count == 0) idle.notify_all();
    }
};

// When a backend event was heard complete (its completion callback), for the split history: a
// split starts counting when the GPU queue gets to it, not when it was enqueued behind other work.
struct HeardAt {
    std::mutex mutex;
    std::condition_variable cv;
    double at = -1;
    static std::shared_ptr<HeardAt> watch(cl_event e) {
        auto h = std::make_shared<HeardAt>();
        bool watched = whenComplete(e, [h](cl_int) {
            {
                std::lock_guard lock(h->mutex);
                h->at = splitClock();
            }
            h->cv.notify_all();
        });
        return watched ? h : nullptr;
    }
    // The time, once the callback came (it comes: the event is complete); `fallback` if it does not.
    double wait(double fallback) {
        std::unique_lock lock(mutex);
        cv.wait_for(lock, std::chrono::seconds(1), [&] { return at >= 0; });
        return at >= 0 ? at : fallback;
    }
};

// Everything the CPU side of one split launch needs, owned by its thread.
struct SplitRun {
    Ref<Context> context;
    std::shared_ptr<SplitResources> resources;  // outlives the context while results stream back
    Ref<Kernel> kernel;
    std::shared_ptr<KernelVariants> variants;
    std::vector<KernelArg> args;  // keeps the memory objects alive
    std::string name;
    LaunchGeometry launch;
    transform::NDRange range;
    uint64_t groups = 0, cpuFloor = 0;  // the CPU takes groups in [cpuFloor, groups)
    bool fixedShare = false;            // static split: the CPU's share is fixed up front
    unsigned gpu = 0, cpu = 0;
    uint32_t launchId = 0;
    cl_event gpuDone = nullptr;           // the abortable kernel
    std::vector<cl_event> snapshots;      // GPU-side copies (orig, recv, migration sources), fills and the
                                          // first status write: the CPU side reads or sends only after them
    std::vector<cl_event> cpuReady;       // the CPU copies' earlier users: wait before touching them
    cl_uint statusInit[2] = {0, 0};
    cl_event userGpu = nullptr, userCpu = nullptr;
    cl_mem status = nullptr;
    struct Target {                       // a written memory object
        size_t elementSize, bytes;
        cl_mem onGpu, onCpu, orig, recv;
        std::vector<unsigned char> sent;  // what recv holds (the CPU's contents as last sent)
    };
    std::vector<Target> targets;
    struct Migration {                    // a CPU copy brought up to date before the chunks start
        cl_mem onCpu;
        size_t bytes;
        cl_mem from;                      // a GPU snapshot of the contents; nullptr: zero-fill
        bool pooled;                      // `from` is a pool buffer of its own (not a target's orig)
    };
    std::vector<Migration> migrations;
    size_t migrationsDone = 0;            // by prepareCpuCopies; the rest run after the launch (gave up)
    double started = 0;       // splitClock()
    std::shared_ptr<struct HeardAt> gpuReached;  // when the GPU queue got to the launch (history)
    std::shared_ptr<ProbeTicket> probe;          // the launch is a probe (auto mode)
    double traceBegin = 0;    // trace::now() at the same moment
    double gpuSeenDone = 0;   // trace::now() when the GPU kernel was seen complete
    unsigned cpuUnits = 1;

    cl_event gpuGate = nullptr;           // test knob (chaos::gpuAfterCpu): opened when the CPU side is done

    void openGpuGate() {
        if (!gpuGate) return;
        BACKEND(gpuGate, clSetUserEventStatus)(gpuGate, CL_COMPLETE);
        BACKEND(gpuGate, clReleaseEvent)(gpuGate);
        gpuGate = nullptr;
    }

    // What a launch that failed half-way through its submission still holds.
    ~SplitRun() {
        openGpuGate();
        if (!resources) return;
        cl_context gpuContext = context ? context->backend(gpu) : nullptr;
        for (auto& t : targets) {
            if (gpuContext) resources->pool.give(gpuContext, t.orig, t.bytes);
            if (gpuContext) resources->pool.give(gpuContext, t.recv, t.bytes);
        }
        for (auto& m : migrations)
            if (m.pooled && gpuContext) resources->pool.give(gpuContext, m.from, m.bytes);
        if (status && gpuContext) resources->pool.give(gpuContext, status, 2 * sizeof(cl_uint));
        if (gpuDone) BACKEND(gpuDone, clReleaseEvent)(gpuDone);
        releaseAll(snapshots);
        releaseAll(cpuReady);
    }
};


// Maps a backend buffer of the CPU slot, runs `use` on its bytes, unmaps.
template <typename Use>
void withMapped(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t bytes, Use use) {
    cl_int err = CL_SUCCESS;
    void* p = BACKEND(queue, clEnqueueMapBuffer)(queue, mem, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &err);
    if (!p) fail(err == CL_SUCCESS ? CL_OUT_OF_RESOURCES : err);
    try {
        use(static_cast<unsigned char*>(p));
    } catch (...) {
        BACKEND(queue, clEnqueueUnmapMemObject)(queue, mem, p, 0, nullptr, nullptr);
        throw;
    }
    check(BACKEND(queue, clEnqueueUnmapMemObject)(queue, mem, p, 0, nullptr, nullptr));
}

// The byte range [first, last) where `a` and `b` differ, widened to whole elements; empty if equal.
std::pair<size_t, size_t> differingRange(const unsigned char* a, const unsigned char* b, size_t bytes,
                                         size_t elementSize) {
    constexpr size_t block = 4096;
    size_t first = 0;
    while (first < bytes) {
        size_t n = std::min(block, bytes - first);
        if (std::memcmp(a + first, b + first, n) != 0) break;
        first += n;
    }
    if (first == bytes) return {0, 0};
    while (a[first] == b[first]) ++first;
    size_t last = bytes;
    while (last - first > block && std::memcmp(a + last - block, b + last - block, block) == 0) last -= block;
    while (a[last - 1] == b[last - 1]) --last;
    first -= first % elementSize;
    last = std::min(bytes, (last + elementSize - 1) / elementSize * elementSize);
    return {first, last};
}

// Wakes a thread waiting for one of several backend events (their completion callbacks notify it).
struct Wakeup {
    std::mutex mutex;
    std::condition_variable cv;

    static void watch(const std::shared_ptr<Wakeup>& w, cl_event e) {
        whenComplete(e, [w](cl_int) {
            { std::lock_guard lock(w->mutex); }  // a waiter between its check and its wait hears this
            w->cv.notify_all();
        });
    }
    // Until `done()` holds; the timeout only guards against a backend that never calls back.
    template <typename Done>
    void waitUntil(Done done) {
        std::unique_lock lock(mutex);
        while (!done()) cv.wait_for(lock, std::chrono::milliseconds(2));
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
        Wakeup::watch(wakeup, r.gpuDone);
        for (cl_event e : r.cpuReady) Wakeup::watch(wakeup, e);
        auto cpuCopiesFree = [&] { return std::all_of(r.cpuReady.begin(), r.cpuReady.end(), eventDone); };
        wakeup->waitUntil([&] { return cpuCopiesFree() || eventDone(r.gpuDone); });
        if (!cpuCopiesFree()) return false;
    }
    waitAll(r.cpuReady);
    releaseAll(r.cpuReady);
    // Commands on the shared internal queues never carry wait lists: one launch's dependencies
    // would block every other launch behind it there. Wait here instead.
    bool copies = std::any_of(r.migrations.begin(), r.migrations.end(), [](const SplitRun::Migration& m) { return m.from; });
    if (copies) {
        waitAll(r.snapshots);
        releaseAll(r.snapshots);
    }
    for (; r.migrationsDone < r.migrations.size(); ++r.migrationsDone) {
        chaos::delay(2000);
        if (mayGiveUp && eventDone(r.gpuDone)) return false;
        const auto& m = r.migrations[r.migrationsDone];
        if (!m.from) {
            const cl_uint zero = 0;
            check(BACKEND(cpuQueue, clEnqueueFillBuffer)(cpuQueue, m.onCpu, &zero, m.bytes % 4 == 0 ? 4 : 1, 0, m.bytes, 0,
                                                           nullptr, nullptr));
            continue;
        }
        trace::Scope span({int(r.cpu), "migrations"}, "bring " + std::to_string(m.bytes) + " bytes");
        withMapped(cpuQueue, m.onCpu, CL_MAP_WRITE_INVALIDATE_REGION, m.bytes, [&](unsigned char* p) {
            check(BACKEND(gpuTransfer, clEnqueueReadBuffer)(gpuTransfer, m.from, CL_TRUE, 0, m.bytes, p, 0, nullptr, nullptr));
        });
        bytesMoved += m.bytes;
    }
    check(BACKEND(cpuQueue, clFinish)(cpuQueue));
    for (auto& t : r.targets)
        withMapped(cpuQueue, t.onCpu, CL_MAP_READ, t.bytes, [&](unsigned char* p) { std::memcpy(t.sent.data(), p, t.bytes); });
    return true;
}

// After a chunk (the CPU queue idle, so the CPU copies are a consistent snapshot: H3): sends what
// changed since the last send to the receive buffers; the status word follows on the same queue.
void sendChunkResults(SplitRun& r, cl_command_queue cpuQueue, cl_command_queue gpuTransfer, size_t& bytesMoved) {
    // The receive buffers start as copies of the GPU's contents (another queue): never overtake them.
    if (!r.snapshots.empty()) {
        waitAll(r.snapshots);
        releaseAll(r.snapshots);
    }
    for (auto& t : r.targets) {
        std::pair<size_t, size_t> range{0, 0};
        withMapped(cpuQueue, t.onCpu, CL_MAP_READ, t.bytes, [&](unsigned char* p) {
            range = differingRange(p, t.sent.data(), t.bytes, t.elementSize);
            if (range.second > range.first)
                std::memcpy(t.sent.data() + range.first, p + range.first, range.second - range.first);
        });
        if (range.second == range.first) continue;
        trace::Scope span({int(r.gpu), "CPU results in"}, "send " + std::to_string(range.second - range.first) + " bytes");
        check(BACKEND(gpuTransfer, clEnqueueWriteBuffer)(gpuTransfer, t.recv, CL_TRUE, range.first,
                                                           range.second - range.first, t.sent.data() + range.first, 0,
                                                           nullptr, nullptr));
        bytesMoved += range.second - range.first;
    }
}

// After the GPU kernel: the merge (or the CPU's data as the result when it did every group), and,
// when the CPU copies lack results the GPU computed, the merged result copied into the receive
// buffers, from where it streams back to the CPU after the launch completes.
void mergeOnGpu(SplitRun& r, SplitResources& res, cl_command_queue gpuTransfer, uint64_t sent, bool streamBack) {
    trace::Scope span({int(r.gpu), "merge"}, sent == 0 ? "CPU result" : sent < r.groups ? "merge" : "GPU result");
    span.add(trace::num("objects", double(r.targets.size())));
    for (auto& t : r.targets) {
        cl_event e = nullptr;
        if (sent == 0) {
            check(BACKEND(gpuTransfer, clEnqueueCopyBuffer)(gpuTransfer, t.recv, t.onGpu, 0, 0, t.bytes, 0, nullptr, &e));
        } else if (sent < r.groups) {
            std::lock_guard lock(res.slot(r.gpu).mutex);
            e = merge::enqueueMerge(gpuTransfer, res.mergeKernel(r.gpu, t.elementSize), t.onGpu, t.recv, t.orig, t.bytes,
                                    t.elementSize, {});
            counters::add(counters::Merges);
        }
        if (e) BACKEND(e, clReleaseEvent)(e);
        if (streamBack)
            check(BACKEND(gpuTransfer, clEnqueueCopyBuffer)(gpuTransfer, t.onGpu, t.recv, 0, 0, t.bytes, 0, nullptr, nullptr));
    }
    check(BACKEND(gpuTransfer, clFinish)(gpuTransfer));
}

// What streams back to the CPU copies after the launch's event completed: only backend objects
// (retained) and the per-context resources, so the application may release everything meanwhile.
struct StreamBack {
    std::shared_ptr<SplitResources> resources;
    unsigned gpu = 0, cpu = 0;
    cl_context gpuContext = nullptr;
    struct Item {
        cl_mem recv, onCpu;
        size_t bytes;
    };
    std::vector<Item> items;            // each `recv` is a pool buffer, given back afterwards
    std::vector<cl_event> cpuReady;     // the CPU copies' earlier users, when the launch did not wait for them
    size_t bytesMoved = 0;

    void run() {
        cl_command_queue cpuQueue = resources->slot(cpu).queue;
        cl_command_queue gpuTransfer = resources->slot(gpu).queue;
        waitAll(cpuReady);
        for (auto& it : items) {
            chaos::delay(5000);  // tests: later CPU work must wait for what is still on its way
            trace::Scope span({int(cpu), "stream-back"}, "bring back " + std::to_string(it.bytes) + " bytes");
            withMapped(cpuQueue, it.onCpu, CL_MAP_WRITE_INVALIDATE_REGION, it.bytes, [&](unsigned char* p) {
                check(BACKEND(gpuTransfer, clEnqueueReadBuffer)(gpuTransfer, it.recv, CL_TRUE, 0, it.bytes, p, 0, nullptr,
                                                                  nullptr));
            });
            bytesMoved += it.bytes;
            counters::add(counters::BytesBetweenDevices, it.bytes);
        }
        check(BACKEND(cpuQueue, clFinish)(cpuQueue));
    }
    void release() {
        releaseAll(cpuReady);
        for (auto& it : items) {
            resources->pool.give(gpuContext, it.recv, it.bytes);
            BACKEND(it.onCpu, clReleaseMemObject)(it.onCpu);
        }
        items.clear();
    }
};

// Runs the CPU's chunks from the top down while the GPU kernel runs, each followed by its data and
// the status word. `sent` (r.groups at first: none) becomes the lowest group whose results the GPU
// has as each chunk is published, so it stays right when a later chunk fails.
void runChunks(SplitRun& r, cl_command_queue cpuQueue, cl_command_queue gpuTransfer, size_t& bytesMoved,
               std::vector<uint64_t>& chunkSizes, uint64_t& sent) {
    cl_kernel chunkKernel = r.variants->chunk[r.cpu];
    cl_uint numArgs = static_cast<cl_uint>(r.args.size());
    // Static split (HETERO_CPU_SHARE): the GPU skips [cpuFloor, groups) from the start, so the CPU must
    // finish all of it and send it once, whatever the GPU does meanwhile. Adaptive: until the GPU ends.
    const bool fixedShare = r.fixedShare;
    uint64_t next = r.groups;
    const bool randomChunks = chaos::on();
    // FluidiCL §5.1: start near 2% of the work-groups, never fewer than the CPU has compute units.
    uint64_t chunk = std::max<uint64_t>(r.cpuUnits, (r.groups - r.cpuFloor) / 50);
    // §6.3: a chunk of fewer work-groups than the CPU has compute units runs each as several
    // (not where reqd_work_group_size fixes their size: the backend refuses others).
    const bool maySplitGroups = !r.variants->fixedWorkGroupSize &&
                                transform::groupSplitAllowed(*r.variants->analysis, r.range);
    double lastPerGroup = -1;
    auto wakeup = std::make_shared<Wakeup>();
    if (!fixedShare) Wakeup::watch(wakeup, r.gpuDone);
    while (next > r.cpuFloor && (fixedShare || !eventDone(r.gpuDone))) {
        chaos::delay(2000);
        uint64_t size = randomChunks ? 1 + chaos::below(static_cast<unsigned>(std::min<uint64_t>(next - r.cpuFloor, 1u << 20)))
                                     : std::min(chunk, next - r.cpuFloor);
        uint64_t begin = next - size;
        double t0 = splitClock(), traceT0 = trace::now();
        cl_event chunkDone = nullptr;
        if (chaos::failChunk()) fail(CL_OUT_OF_RESOURCES);  // test knob: the CPU side fails mid-launch
        const unsigned groupSplit = !maySplitGroups ? 1
                                    : randomChunks  ? transform::groupSplitFor(r.range, 1, 1 + chaos::below(16))
                                                    : transform::groupSplitFor(r.range, size, r.cpuUnits);
        {
            // Arguments are captured at enqueue: the lock need not cover the chunk's run.
            std::lock_guard lock(r.variants->mutex);
            r.kernel->applyArgs(chunkKernel, r.cpu, r.args);
            for (const auto& sl : transform::chunkLaunches(r.range, begin, next, groupSplit)) {
                setVariantExtraArgs(chunkKernel, numArgs, sl.extraArgs);
                if (chunkDone) BACKEND(chunkDone, clReleaseEvent)(chunkDone);
                chunkDone = nullptr;
                check(BACKEND(cpuQueue, clEnqueueNDRangeKernel)(cpuQueue, chunkKernel, sl.dims, sl.offset, sl.global,
                                                                  sl.local, 0, nullptr, &chunkDone));
            }
        }
        BACKEND(cpuQueue, clFlush)(cpuQueue);
        // Until the chunk is done, or (adaptive) the GPU is: then the chunk's results would come too
        // late (H4) and the merge need not wait for it. It still runs on; whatever touches the CPU
        // copies next (the stream-back's map on the same in-order queue) waits for it.
        Wakeup::watch(wakeup, chunkDone);
        wakeup->waitUntil([&] { return eventDone(chunkDone) || (!fixedShare && eventDone(r.gpuDone)); });
        bool finished = eventDone(chunkDone);
        cl_int chunkStatus = CL_COMPLETE;
        BACKEND(chunkDone, clGetEventInfo)(chunkDone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof chunkStatus, &chunkStatus,
                                           nullptr);
        BACKEND(chunkDone, clReleaseEvent)(chunkDone);
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
        double perGroup = (splitClock() - t0) / double(size);
        if (lastPerGroup < 0 || perGroup < lastPerGroup * 0.95) chunk *= 2;  // grow while it pays
        lastPerGroup = perGroup;
        if (fixedShare && next > r.cpuFloor) continue;  // send once, when the share is done
        // H4: the GPU is done, so this chunk's data would arrive after the merge could use it.
        if (!fixedShare && eventDone(r.gpuDone)) break;
        sendChunkResults(r, cpuQueue, gpuTransfer, bytesMoved);
        chaos::delay(2000);
        // The status word follows the data on the same in-order queue: the GPU only skips groups
        // whose results have arrived.
        cl_uint lowest = static_cast<cl_uint>(begin);
        if (!fixedShare)
            check(BACKEND(gpuTransfer, clEnqueueWriteBuffer)(gpuTransfer, r.status, CL_TRUE, sizeof(cl_uint), sizeof lowest,
                                                               &lowest, 0, nullptr, nullptr));
        sent = begin;
    }
}

std::string describeChunks(const std::vector<uint64_t>& sizes) {
    std::string s;
    for (size_t i = 0; i < sizes.size() && i < 8; ++i) s += (i ? "," : "") + std::to_string(sizes[i]);
    if (sizes.size() > 8) s += ",...";
    return s.empty() ? "none" : s;
}

// The split launch's thread: the CPU side, the merge, completion, then the stream-back.
void runSplit(std::shared_ptr<SplitRun> run) {
    struct Leave {  // last thing this thread does (declared first, destroyed last)
        ~Leave() { RunningSplits::instance().leave(); }
    } leave;
    SplitRun& r = *run;
    SplitResources& res = *r.resources;
    cl_command_queue cpuQueue = res.slot(r.cpu).queue;
    cl_command_queue gpuTransfer = res.slot(r.gpu).queue;
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
        if (cpuStarts) runChunks(r, cpuQueue, gpuTransfer, bytesMoved, chunkSizes, sent);
    } catch (const Error& e) {
        HETERO_LOG(Warn, "split launch of %s: CPU side failed (%s); the GPU result stands", r.name.c_str(), errorName(e.code));
        cpuFailed = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;
    }
    r.openGpuGate();

    // The merge, after the GPU kernel and after everything sent (same in-order transfer queue).
    cl_int gpuStatus = BACKEND(r.gpuDone, clWaitForEvents)(1, &r.gpuDone);
    r.gpuSeenDone = trace::now();
    chaos::delay(2000);
    cl_int result = gpuStatus == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    // A static split's GPU skipped the CPU's whole share from the start: if the CPU did not send it
    // all, nobody computed some groups, and the launch fails rather than give wrong results.
    if (result == CL_COMPLETE && cpuFailed != CL_SUCCESS && r.fixedShare && sent > r.cpuFloor) result = cpuFailed;
    // The CPU copies hold the result already when the CPU did every group; else the merged result
    // streams back to them. (A failed launch leaves contents undefined, as on any device.)
    bool streamBack = sent != 0 && result == CL_COMPLETE;
    if (result == CL_COMPLETE) {
        try {
            mergeOnGpu(r, res, gpuTransfer, sent, streamBack);
        } catch (const Error& e) {
            HETERO_LOG(Error, "split launch of %s: merge failed (%s)", r.name.c_str(), errorName(e.code));
            result = e.code;
            streamBack = false;
        }
    }
    const double ended = splitClock(), seconds = ended - r.started;
    if (result == CL_COMPLETE && cpuReady) {
        double reached = r.gpuReached ? r.gpuReached->wait(r.started) : r.started;
        recordSplit(r.variants->historyKey, r.launch, ended - std::max(r.started, reached), r.probe != nullptr,
                    r.groups ? double(r.groups - sent) / double(r.groups) : -1);
    }
    {
        uint64_t cpuDid = r.groups - sent;
        uint64_t cpuGroups = (isCpuSlot(r.cpu) ? cpuDid : 0) + (isCpuSlot(r.gpu) ? r.groups - cpuDid : 0);
        countLaunch(counters::LaunchesSplitDiscrete, r.groups, cpuGroups);
        counters::add(counters::BytesBetweenDevices, bytesMoved);
        trace::span({int(r.gpu), "abortable kernel"}, r.name, r.traceBegin, r.gpuSeenDone,
                    {trace::num("launch", r.launchId), trace::num("groups_skipped", double(r.groups - sent))});
        traceLaunch(r.name, int(r.gpu), r.groups, cpuGroups, true, r.traceBegin, trace::now(),
                    {trace::num("chunks", double(chunkSizes.size())), trace::str("chunk_sizes", describeChunks(chunkSizes)),
                     trace::num("bytes", double(bytesMoved)), trace::str("memory", "discrete")});
    }
    HETERO_LOG(Info, "split %s: %llu work-groups, CPU did %llu (%.1f%%) in %zu chunks (%s), %zu bytes moved, %.3f ms",
               r.name.c_str(), (unsigned long long)r.groups, (unsigned long long)(r.groups - sent),
               r.groups ? 100.0 * double(r.groups - sent) / double(r.groups) : 0.0, chunkSizes.size(),
               describeChunks(chunkSizes).c_str(), bytesMoved, seconds * 1e3);

    // Hand the receive buffers to the stream-back, everything else back to the pools.
    StreamBack back;
    back.resources = r.resources;
    back.gpu = r.gpu;
    back.cpu = r.cpu;
    back.gpuContext = r.context->backend(r.gpu);
    for (auto& t : r.targets) {
        res.pool.give(back.gpuContext, t.orig, t.bytes);
        if (streamBack) {
            BACKEND(t.onCpu, clRetainMemObject)(t.onCpu);
            back.items.push_back({t.recv, t.onCpu, t.bytes});
        } else {
            res.pool.give(back.gpuContext, t.recv, t.bytes);
        }
        res.hostPool.give(std::move(t.sent));
    }
    r.targets.clear();
    // Preparation given up: objects only read still need their CPU copies brought (written ones
    // are streamed back whole); their snapshots go back to the pool once that is done.
    for (size_t i = 0; i < r.migrations.size(); ++i) {
        auto& m = r.migrations[i];
        if (!m.pooled) continue;
        if (i >= r.migrationsDone && cpuReady) {
            BACKEND(m.onCpu, clRetainMemObject)(m.onCpu);
            back.items.push_back({m.from, m.onCpu, m.bytes});
        } else {
            res.pool.give(back.gpuContext, m.from, m.bytes);
        }
    }
    r.migrations.clear();
    back.cpuReady = std::move(r.cpuReady);
    r.cpuReady.clear();
    res.pool.give(back.gpuContext, r.status, 2 * sizeof(cl_uint));
    r.status = nullptr;
    BACKEND(r.gpuDone, clReleaseEvent)(r.gpuDone);
    r.gpuDone = nullptr;
    releaseAll(r.snapshots);
    cl_event userCpu = r.userCpu, userGpu = r.userGpu;
    // Let go of the context, kernel and memory objects before the launch is seen complete: an
    // application that then releases everything must see its objects (and destructor callbacks)
    // go at once, not whenever this thread gets to its end.
    run.reset();
    BACKEND(userGpu, clSetUserEventStatus)(userGpu, result);
    BACKEND(userGpu, clReleaseEvent)(userGpu);

    // The CPU copies become current in the background; CPU work that reads them waits for userCpu.
    // Copies the failed preparation left stale must never pass as current.
    // (Given up and nothing streamed back: the written objects' CPU copies were never brought.)
    cl_int cpuStatus = cpuReady && !(gaveUp && !streamBack) ? CL_COMPLETE : CL_OUT_OF_RESOURCES;
    try {
        back.run();
    } catch (const Error& e) {
        HETERO_LOG(Error, "split launch: bringing results back to the CPU failed (%s)", errorName(e.code));
        cpuStatus = e.code < 0 ? e.code : CL_OUT_OF_RESOURCES;  // a stale copy must never pass as current
    }
    back.release();
    HETERO_LOG(Debug, "split: %zu bytes streamed back to the CPU", back.bytesMoved);
    BACKEND(userCpu, clSetUserEventStatus)(userCpu, cpuStatus);
    BACKEND(userCpu, clReleaseEvent)(userCpu);
}

}  // namespace

cl_event submitSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                     const SplitDecision& decision) {
    auto run = std::make_shared<SplitRun>();
    SplitRun& r = *run;
    r.context = Ref<Context>(kernel.context());
    r.resources = r.context->sharedSplitResources();
    r.kernel = Ref<Kernel>(&kernel);
    r.variants = kernel.variants();
    r.args = args;
    r.name = kernel.name();
    r.gpu = decision.gpuSlot;
    r.cpu = decision.cpuSlot;
    r.launch = launch;
    r.probe = decision.probe;
    r.started = splitClock();
    r.traceBegin = trace::now();
    if (!r.launch.hasLocal) {
        chooseLocalSize(r.launch, kernel.maxWorkGroupSize() ? kernel.maxWorkGroupSize() : 1);
    }
    r.range = toNDRange(r.launch);
    r.groups = r.range.numGroups();
    double share = cpuShare();
    r.fixedShare = share > 0;
    r.cpuFloor = r.fixedShare ? r.groups - static_cast<uint64_t>(std::llround(share * double(r.groups))) : 0;
    r.launchId = nextLaunchId++;
    r.cpuUnits = computeUnits(r.cpu);
    std::vector<Written> written;
    std::string why;
    if (!writtenStorages(*r.variants, args, written, why)) fail(CL_INVALID_OPERATION);  // decided earlier

    SplitResources& res = *r.resources;
    cl_context gpuContext = r.context->backend(r.gpu), cpuContext = r.context->backend(r.cpu);
    cl_command_queue gpuQueue = sub.backendQueue;

    // Lock every storage the launch touches and bring it to the GPU. The CPU copies are brought up
    // to date by the launch's thread, from GPU-side snapshots, so this thread never waits for them.
    std::vector<Storage*> storages;
    for (const auto& a : args)
        if (a.mem) storages.push_back(&a.mem->storage());
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    for (Storage* s : storages) locks.emplace_back(s->mutex);
    // Sub-buffers' backend objects are made under the storage lock, here, not by the chunk thread.
    for (const auto& a : args)
        if (a.mem) {
            a.mem->backendMem(r.gpu);
            a.mem->backendMem(r.cpu);
        }
    std::vector<cl_event> gpuWait = sub.waitsOn(gpuQueue);
    std::vector<Storage*> staleOnCpu;
    for (Storage* s : storages) {
        s->makeFresh(r.gpu, sub.queue, gpuWait);
        s->backendMem(r.cpu);
        if (!s->freshOn(r.cpu)) staleOnCpu.push_back(s);
        if (cl_event e = s->readyOn(r.cpu)) {
            BACKEND(e, clRetainEvent)(e);
            r.cpuReady.push_back(e);
        }
    }
    auto isStale = [&](Storage* s) { return std::find(staleOnCpu.begin(), staleOnCpu.end(), s) != staleOnCpu.end(); };

    // The history times the split from when the GPU queue gets to it.
    if (HeldEvent reached; splitMode() == SplitMode::Auto && cpuShare() < 0 &&
                           (reached.e = startTiming(gpuQueue, gpuWait)) != nullptr)
        r.gpuReached = HeardAt::watch(reached.e);

    // The merge needs both copies of a written object to hold the same bytes wherever the launch does
    // not write. Copies of an object never written hold whatever their allocation held: zero both.
    for (const auto& w : written) {
        if (w.storage->version() != 0) continue;
        const cl_uint zero = 0;
        cl_event filled = nullptr;
        check(BACKEND(gpuQueue, clEnqueueFillBuffer)(gpuQueue, w.storage->backendMem(r.gpu), &zero,
                                                       w.storage->bytes() % 4 == 0 ? 4 : 1, 0, w.storage->bytes(),
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &filled));
        gpuWait.push_back(filled);
        r.snapshots.push_back(filled);  // released with the others
        r.migrations.push_back({w.storage->backendMem(r.cpu), w.storage->bytes(), nullptr, false});
    }
    // Snapshots: orig (pre-launch contents, for the merge) and recv (what the CPU sends; starts as orig).
    for (const auto& w : written) {
        SplitRun::Target t{w.elementSize,
                           w.storage->bytes(),
                           w.storage->backendMem(r.gpu),
                           w.storage->backendMem(r.cpu),
                           res.pool.take(gpuContext, w.storage->bytes()),
                           res.pool.take(gpuContext, w.storage->bytes()),
                           res.hostPool.take(w.storage->bytes())};
        cl_event copied[2] = {nullptr, nullptr};
        check(BACKEND(gpuQueue, clEnqueueCopyBuffer)(gpuQueue, t.onGpu, t.orig, 0, 0, t.bytes,
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &copied[0]));
        check(BACKEND(gpuQueue, clEnqueueCopyBuffer)(gpuQueue, t.onGpu, t.recv, 0, 0, t.bytes,
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &copied[1]));
        r.snapshots.push_back(copied[0]);
        r.snapshots.push_back(copied[1]);
        if (isStale(w.storage) && w.storage->version() != 0) r.migrations.push_back({t.onCpu, t.bytes, t.orig, false});
        r.targets.push_back(std::move(t));
    }
    // Objects only read whose CPU copy is stale: a snapshot of the GPU's copy to bring it from.
    for (Storage* s : staleOnCpu) {
        bool isTarget = std::any_of(written.begin(), written.end(), [&](const Written& w) { return w.storage == s; });
        if (isTarget) continue;
        cl_mem from = res.pool.take(gpuContext, s->bytes());
        cl_event copied = nullptr;
        check(BACKEND(gpuQueue, clEnqueueCopyBuffer)(gpuQueue, s->backendMem(r.gpu), from, 0, 0, s->bytes(),
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &copied));
        r.snapshots.push_back(copied);
        r.migrations.push_back({s->backendMem(r.cpu), s->bytes(), from, true});
    }
    // Status word {launch id, lowest group the CPU has done}: before the kernel starts (protocol).
    r.status = res.pool.take(gpuContext, 2 * sizeof(cl_uint));
    // Static split: the GPU skips the CPU's share from the start (the merge waits for all of it).
    run->statusInit[0] = r.launchId;
    run->statusInit[1] = static_cast<cl_uint>(r.fixedShare ? r.cpuFloor : r.groups);
    cl_event statusWritten = nullptr;
    check(BACKEND(gpuQueue, clEnqueueWriteBuffer)(gpuQueue, r.status, CL_FALSE, 0, sizeof run->statusInit, run->statusInit,
                                                    0, nullptr, &statusWritten));
    r.snapshots.push_back(statusWritten);

    // Test knobs: hold the GPU kernel back a random while, so the CPU gets ahead of it (or not), or
    // until the CPU side is done.
    HeldEvent gateHeld;
    if (chaos::on() || chaos::gpuAfterCpu()) {
        cl_int gateErr = CL_SUCCESS;
        cl_event gate = BACKEND(gpuContext, clCreateUserEvent)(gpuContext, &gateErr);
        if (gate && chaos::gpuAfterCpu()) {
            gpuWait.push_back(gate);
            gateHeld.e = gate;
            BACKEND(gate, clRetainEvent)(gate);
            r.gpuGate = gate;
        } else if (gate) {
            gpuWait.push_back(gate);
            gateHeld.e = gate;  // our own reference: the opener below may be done before the kernel is enqueued
            BACKEND(gate, clRetainEvent)(gate);
            unsigned wait = chaos::below(30000);
            std::thread([gate, wait] {
                std::this_thread::sleep_for(std::chrono::microseconds(wait));
                BACKEND(gate, clSetUserEventStatus)(gate, CL_COMPLETE);
                BACKEND(gate, clReleaseEvent)(gate);
            }).detach();
        }
    }
    // The GPU: the abortable variant over the whole NDRange.
    {
        std::lock_guard lock(r.variants->mutex);
        cl_kernel abortKernel = r.variants->abort[r.gpu];
        kernel.applyArgs(abortKernel, r.gpu, args);
        cl_uint numArgs = static_cast<cl_uint>(args.size());
        check(BACKEND(abortKernel, clSetKernelArg)(abortKernel, numArgs, sizeof r.status, &r.status));
        setVariantExtraArgs(abortKernel, numArgs + 1, transform::abortExtraArgs(r.range, r.launchId));
        check(BACKEND(gpuQueue, clEnqueueNDRangeKernel)(gpuQueue, abortKernel, r.launch.dims,
                                                          r.launch.hasOffset ? r.launch.offset : nullptr, r.launch.global,
                                                          r.launch.local, static_cast<cl_uint>(gpuWait.size()),
                                                          listOrNull(gpuWait), &r.gpuDone));
    }
    BACKEND(gpuQueue, clFlush)(gpuQueue);

    // Completion: userGpu when the merged results are in place on the GPU (the launch's event),
    // userCpu when the CPU copies hold them too (after the stream-back).
    cl_int err = CL_SUCCESS;
    r.userGpu = BACKEND(gpuContext, clCreateUserEvent)(gpuContext, &err);
    if (!r.userGpu) fail(CL_OUT_OF_RESOURCES);
    r.userCpu = BACKEND(cpuContext, clCreateUserEvent)(cpuContext, &err);
    if (!r.userCpu) fail(CL_OUT_OF_RESOURCES);
    for (const auto& w : written) w.storage->wroteOn(r.gpu, r.userGpu);
    // Every CPU copy is current once userCpu completes (objects only read: after the migration;
    // written ones: after the stream-back), and nothing may overwrite them before.
    for (Storage* s : storages) s->freshLater(r.cpu, r.userCpu);
    locks.clear();

    BACKEND(r.userGpu, clRetainEvent)(r.userGpu);  // one for the command's event, one for the thread
    cl_event forCommand = r.userGpu;
    RunningSplits::instance().enter();
    std::thread(runSplit, run).detach();
    return forCommand;
}

}  // namespace hetero

// ---------------------------------------------------------------------------------------------
// Shared with the unified engine (platform/split/split_unified.cpp).
// ---------------------------------------------------------------------------------------------
namespace hetero {

transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize) {
    if (!launch.hasLocal) chooseLocalSize(launch, maxWorkGroupSize ? maxWorkGroupSize : 1);
    return toNDRange(launch);
}

void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra) {
    for (size_t i = 0; i < extra.size(); ++i)
        check(BACKEND(k, clSetKernelArg)(k, first + static_cast<cl_uint>(i), extra[i].size, extra[i].value.data()));
}

cl_uint computeUnits(unsigned slot) {
    cl_uint units = 1;
    cl_device_id d = Device::instance()->slots()[slot].device;
    BACKEND(d, clGetDeviceInfo)(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
    return std::max(1u, units);
}

double splitClock() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace hetero
