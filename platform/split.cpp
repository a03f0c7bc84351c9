#include "platform/split.hpp"

#include "merge/merge.hpp"
#include "platform/config.hpp"
#include "platform/enqueue.hpp"
#include "platform/log.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
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

// Test knobs (never for production): HETERO_TEST_SPLIT_CHAOS=<seed> makes chunk sizes random and
// injects random delays before the GPU kernel, before each CPU chunk, between a chunk's data and its
// status word, and before the merge, so tests see many interleavings.
struct Chaos {
    bool on = false;
    std::mutex mutex;
    std::mt19937 rng;
    unsigned below(unsigned n) {
        std::lock_guard lock(mutex);
        return n ? rng() % n : 0;
    }
    void delay(unsigned maxMicroseconds) {
        if (on) std::this_thread::sleep_for(std::chrono::microseconds(below(maxMicroseconds)));
    }
};
Chaos& chaos() {
    static Chaos* c = [] {
        auto* ch = new Chaos;
        if (auto seed = config::get("HETERO_TEST_SPLIT_CHAOS", "test_split_chaos")) {
            ch->on = true;
            ch->rng.seed(static_cast<unsigned>(std::strtoul(seed->c_str(), nullptr, 10)));
        }
        return ch;
    }();
    return *c;
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---------------------------------------------------------------------------------------------
// Per-kernel history: is splitting this kernel at this size worth it?
// ---------------------------------------------------------------------------------------------
struct History {
    double unsplit = -1, split = -1;  // last measured seconds
    unsigned launches = 0;
    unsigned probeEvery = 16;         // launches between re-probes of the slower way; doubles on a loss
};
std::mutex historyMutex;
std::map<std::string, History>& histories() {
    static auto* h = new std::map<std::string, History>;
    return *h;
}
std::string historyKey(const std::string& kernel, const LaunchGeometry& l) {
    std::string k = kernel;
    for (cl_uint d = 0; d < l.dims; ++d) k += ":" + std::to_string(l.global[d]);
    return k;
}

// Launches shorter than this gain nothing from a second device: the split's fixed costs dominate.
constexpr double kMinimumSplitSeconds = 0.5e-3;
constexpr unsigned kMaxProbeEvery = 4096;

}  // namespace

void recordUnsplit(const Kernel& kernel, const LaunchGeometry& launch, double seconds) {
    std::lock_guard lock(historyMutex);
    histories()[historyKey(kernel.name(), launch)].unsplit = seconds;
}

namespace {
void recordSplit(const std::string& name, const LaunchGeometry& launch, double seconds) {
    std::lock_guard lock(historyMutex);
    History& h = histories()[historyKey(name, launch)];
    h.split = seconds;
    // A split that lost makes the next probe twice as rare: on a machine where the GPU is far
    // faster, trying costs more than splitting could ever gain.
    if (h.unsplit >= 0 && seconds > h.unsplit) h.probeEvery = std::min(h.probeEvery * 2, kMaxProbeEvery);
}

// Auto mode: first measure unsplit, then split, then keep the faster, re-probing the other now and then.
bool historySaysSplit(const std::string& name, const LaunchGeometry& launch) {
    std::lock_guard lock(historyMutex);
    History& h = histories()[historyKey(name, launch)];
    ++h.launches;
    if (h.unsplit < 0) return false;
    if (h.unsplit < kMinimumSplitSeconds) return false;  // too short to gain anything
    if (h.split < 0) return true;
    bool splitFaster = h.split < h.unsplit;
    return (h.launches % h.probeEvery == 0) ? !splitFaster : splitFaster;
}

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
    Context* context;
    merge::BufferPool pool;
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
            if (r->queue) {
                BACKEND(r->queue, clFinish)(r->queue);
                BACKEND(r->queue, clReleaseCommandQueue)(r->queue);
            }
        }
    }
};

SplitResources& Context::splitResources() {
    std::call_once(splitOnce_, [this] {
        auto* r = new SplitResources;
        r->context = this;
        for (unsigned s = 0; s < slotCount(); ++s) r->slots.push_back(std::make_unique<SlotResources>());
        split_ = std::unique_ptr<SplitResources, void (*)(SplitResources*)>(r, [](SplitResources* p) { delete p; });
    });
    return *split_;
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
    for (cl_program p : program->programs) {
        cl_kernel chunk = nullptr, abort = nullptr;
        if (p) {
            cl_int err;
            chunk = BACKEND(p, clCreateKernel)(p, (name + "__hetero_chunk").c_str(), &err);
            abort = BACKEND(p, clCreateKernel)(p, (name + "__hetero_abort").c_str(), &err);
        }
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

// A local size for launches that gave none: what divides the global size, up to 64 in dim 0.
void chooseLocalSize(LaunchGeometry& l, size_t maxGroup) {
    for (cl_uint d = 0; d < l.dims; ++d) {
        size_t limit = d == 0 ? std::min<size_t>(64, maxGroup) : 1;
        size_t best = 1;
        for (size_t c = limit; c >= 1; --c)
            if (l.global[d] % c == 0) {
                best = c;
                break;
            }
        l.local[d] = best;
    }
    l.hasLocal = true;
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
    std::vector<Written> written;
    if (!writtenStorages(*kv, args, written, d.why)) return d;
    double share = cpuShare();
    if (share == 0.0) {
        d.why = "HETERO_CPU_SHARE=0";
        return d;
    }
    d.cpuSlot = static_cast<unsigned>(cpu);
    if (splitMode() == SplitMode::Always || share > 0) {
        d.split = true;
    } else {
        d.split = historySaysSplit(kernel.name(), launch);
        if (!d.split) d.why = "history: unsplit is faster or not yet measured";
    }
    return d;
}

// ---------------------------------------------------------------------------------------------
// The split launch
// ---------------------------------------------------------------------------------------------
namespace {

std::atomic<uint32_t> nextLaunchId{1};

void checked(cl_int err) {
    if (err != CL_SUCCESS) fail(err);
}

bool eventDone(cl_event e) {
    cl_int st = CL_QUEUED;
    BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    return st <= CL_COMPLETE;
}

// Everything the CPU side of one split launch needs, owned by its thread.
struct SplitRun {
    Ref<Context> context;
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
    std::vector<cl_event> snapshots;      // the copies into orig/recv and the first status write:
                                          // the CPU side sends only after them (another queue)
    cl_uint statusInit[2] = {0, 0};
    cl_event userGpu = nullptr, userCpu = nullptr;
    cl_mem status = nullptr;
    struct Target {
        Storage* storage;
        size_t elementSize, bytes;
        cl_mem onGpu, onCpu, orig, recv;
    };
    std::vector<Target> targets;
    std::vector<std::vector<unsigned char>> staging;
    double started = 0;
    unsigned cpuUnits = 1;
};

void releaseRun(SplitRun& r, SplitResources& res) {
    for (auto& t : r.targets) {
        res.pool.give(r.context->backend(r.gpu), t.orig, t.bytes);
        res.pool.give(r.context->backend(r.gpu), t.recv, t.bytes);
    }
    res.pool.give(r.context->backend(r.gpu), r.status, 2 * sizeof(cl_uint));
    BACKEND(r.gpuDone, clReleaseEvent)(r.gpuDone);
    for (cl_event e : r.snapshots) BACKEND(e, clReleaseEvent)(e);
}

void setExtra(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra) {
    for (size_t i = 0; i < extra.size(); ++i)
        checked(BACKEND(k, clSetKernelArg)(k, first + static_cast<cl_uint>(i), extra[i].size, extra[i].value.data()));
}

// The CPU side: chunks from the top down while the GPU kernel runs, each followed by its data and
// the status word; then the merge. Runs on its own thread.
void runCpuSide(std::shared_ptr<SplitRun> run) {
    SplitRun& r = *run;
    SplitResources& res = r.context->splitResources();
    cl_command_queue cpuQueue = res.slot(r.cpu).queue;
    cl_command_queue gpuTransfer = res.slot(r.gpu).queue;
    cl_kernel chunkKernel = r.variants->chunk[r.cpu];
    cl_uint numArgs = static_cast<cl_uint>(r.args.size());
    cl_int failure = CL_SUCCESS;
    // Static split (HETERO_CPU_SHARE): the GPU skips [cpuFloor, groups) from the start, so the CPU must
    // finish all of it and send it once, whatever the GPU does meanwhile. Adaptive: until the GPU ends.
    const bool fixedShare = r.fixedShare;
    uint64_t next = r.groups, sent = r.groups;
    unsigned chunks = 0;
    size_t bytesMoved = 0;
    bool randomChunks = chaos().on;
    uint64_t chunk = std::max<uint64_t>(r.cpuUnits, (r.groups - r.cpuFloor) / 50);
    double lastPerGroup = -1;
    try {
        while (next > r.cpuFloor && (fixedShare || !eventDone(r.gpuDone))) {
            chaos().delay(2000);
            uint64_t size = randomChunks ? 1 + chaos().below(static_cast<unsigned>(std::min<uint64_t>(next - r.cpuFloor, 1u << 20)))
                                         : std::min(chunk, next - r.cpuFloor);
            uint64_t begin = next - size;
            double t0 = now();
            {
                std::lock_guard lock(r.variants->mutex);
                r.kernel->applyArgs(chunkKernel, r.cpu, r.args);
                cl_event last = nullptr;
                for (const auto& sl : transform::chunkLaunches(r.range, begin, next)) {
                    setExtra(chunkKernel, numArgs, sl.extraArgs);
                    if (last) BACKEND(last, clReleaseEvent)(last);
                    checked(BACKEND(cpuQueue, clEnqueueNDRangeKernel)(cpuQueue, chunkKernel, sl.dims, sl.offset, sl.global,
                                                                      sl.local, 0, nullptr, &last));
                }
                checked(BACKEND(cpuQueue, clFinish)(cpuQueue));
                if (last) BACKEND(last, clReleaseEvent)(last);
            }
            ++chunks;
            next = begin;
            double perGroup = (now() - t0) / double(size);
            if (lastPerGroup < 0 || perGroup < lastPerGroup * 0.95) chunk *= 2;  // grow while it pays
            lastPerGroup = perGroup;
            if (fixedShare && next > r.cpuFloor) continue;  // send once, when the share is done
            // H4: the GPU is done, so this chunk's data would arrive after the merge could use it.
            if (!fixedShare && eventDone(r.gpuDone)) break;
            // The receive buffers start as copies of the GPU's contents (another queue): never overtake them.
            if (!r.snapshots.empty()) {
                checked(BACKEND(r.snapshots[0], clWaitForEvents)(static_cast<cl_uint>(r.snapshots.size()), r.snapshots.data()));
                for (cl_event e : r.snapshots) BACKEND(e, clReleaseEvent)(e);
                r.snapshots.clear();
            }
            // H3: the CPU queue is idle, so each buffer is a consistent snapshot at this chunk boundary.
            for (size_t i = 0; i < r.targets.size(); ++i) {
                auto& t = r.targets[i];
                checked(BACKEND(cpuQueue, clEnqueueReadBuffer)(cpuQueue, t.onCpu, CL_TRUE, 0, t.bytes, r.staging[i].data(), 0,
                                                               nullptr, nullptr));
                checked(BACKEND(gpuTransfer, clEnqueueWriteBuffer)(gpuTransfer, t.recv, CL_TRUE, 0, t.bytes, r.staging[i].data(),
                                                                   0, nullptr, nullptr));
                bytesMoved += 2 * t.bytes;
            }
            chaos().delay(2000);
            // The status word follows the data on the same in-order queue: the GPU only skips groups
            // whose results have arrived.
            cl_uint lowest = static_cast<cl_uint>(begin);
            if (!fixedShare)
                checked(BACKEND(gpuTransfer, clEnqueueWriteBuffer)(gpuTransfer, r.status, CL_TRUE, sizeof(cl_uint),
                                                                   sizeof lowest, &lowest, 0, nullptr, nullptr));
            sent = begin;
        }
    } catch (const Error& e) {
        failure = e.code;
        HETERO_LOG(Warn, "split launch of %s: CPU side failed (%s); the GPU result stands", r.name.c_str(), errorName(e.code));
    }

    // The merge, after the GPU kernel and after everything sent (same in-order transfer queue).
    cl_int gpuStatus = BACKEND(r.gpuDone, clWaitForEvents)(1, &r.gpuDone);
    chaos().delay(2000);
    cl_int result = gpuStatus == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (result == CL_COMPLETE && sent < r.groups) {
        try {
            std::vector<cl_event> merges;
            for (auto& t : r.targets) {
                cl_event e = nullptr;
                if (sent == 0) {  // the CPU did every group: its data is the result
                    checked(BACKEND(gpuTransfer, clEnqueueCopyBuffer)(gpuTransfer, t.recv, t.onGpu, 0, 0, t.bytes, 0, nullptr, &e));
                } else {
                    std::lock_guard lock(res.slot(r.gpu).mutex);
                    e = merge::enqueueMerge(gpuTransfer, res.mergeKernel(r.gpu, t.elementSize), t.onGpu, t.recv, t.orig,
                                            t.bytes, t.elementSize, {});
                }
                merges.push_back(e);
            }
            checked(BACKEND(gpuTransfer, clFinish)(gpuTransfer));
            for (cl_event e : merges) BACKEND(e, clReleaseEvent)(e);
        } catch (const Error& e) {
            HETERO_LOG(Error, "split launch of %s: merge failed (%s)", r.name.c_str(), errorName(e.code));
            result = e.code;
        }
    }
    double seconds = now() - r.started;
    if (result == CL_COMPLETE && failure == CL_SUCCESS) recordSplit(r.name, r.launch, seconds);
    HETERO_LOG(Info, "split %s: %llu work-groups, CPU did %llu (%.1f%%) in %u chunks, %zu bytes moved, %.3f ms",
               r.name.c_str(), (unsigned long long)r.groups, (unsigned long long)(r.groups - sent),
               r.groups ? 100.0 * double(r.groups - sent) / double(r.groups) : 0.0, chunks, bytesMoved, seconds * 1e3);
    releaseRun(r, res);
    cl_event userCpu = r.userCpu, userGpu = r.userGpu;
    // Let go of the context, kernel and memory objects before the launch is seen complete: an
    // application that then releases everything must see its objects (and destructor callbacks)
    // go at once, not whenever this thread gets to its end.
    run.reset();
    BACKEND(userCpu, clSetUserEventStatus)(userCpu, CL_COMPLETE);
    BACKEND(userGpu, clSetUserEventStatus)(userGpu, result);
    BACKEND(userCpu, clReleaseEvent)(userCpu);
    BACKEND(userGpu, clReleaseEvent)(userGpu);
}

}  // namespace

cl_event submitSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                     const SplitDecision& decision) {
    auto run = std::make_shared<SplitRun>();
    SplitRun& r = *run;
    r.context = Ref<Context>(kernel.context());
    r.kernel = Ref<Kernel>(&kernel);
    r.variants = kernel.variants();
    r.args = args;
    r.name = kernel.name();
    r.gpu = decision.gpuSlot;
    r.cpu = decision.cpuSlot;
    r.launch = launch;
    r.started = now();
    if (!r.launch.hasLocal) {
        chooseLocalSize(r.launch, kernel.maxWorkGroupSize() ? kernel.maxWorkGroupSize() : 1);
    }
    r.range = toNDRange(r.launch);
    r.groups = r.range.numGroups();
    double share = cpuShare();
    r.fixedShare = share > 0;
    r.cpuFloor = r.fixedShare ? r.groups - static_cast<uint64_t>(std::llround(share * double(r.groups))) : 0;
    r.launchId = nextLaunchId++;
    {
        cl_uint units = 1;
        cl_device_id d = Device::instance()->slots()[r.cpu].device;
        BACKEND(d, clGetDeviceInfo)(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
        r.cpuUnits = std::max(1u, units);
    }
    std::vector<Written> written;
    std::string why;
    if (!writtenStorages(*r.variants, args, written, why)) fail(CL_INVALID_OPERATION);  // decided earlier

    SplitResources& res = r.context->splitResources();
    cl_context gpuContext = r.context->backend(r.gpu), cpuContext = r.context->backend(r.cpu);
    cl_command_queue gpuQueue = sub.backendQueue;
    cl_command_queue cpuMigrate = sub.queue.backendQueue(r.cpu);

    // Lock every storage the launch touches, bring it to both slots.
    std::vector<Storage*> storages;
    for (const auto& a : args)
        if (a.mem) storages.push_back(&a.mem->storage());
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    for (Storage* s : storages) locks.emplace_back(s->mutex);
    std::vector<cl_event> gpuWait = sub.waitList, cpuWait;
    for (Storage* s : storages) {
        s->makeFresh(r.gpu, sub.queue, gpuWait);
        s->makeFresh(r.cpu, sub.queue, cpuWait);
    }
    // The CPU starts from the same contents: wait for them now (its chunks run on another queue).
    if (!cpuWait.empty()) checked(BACKEND(cpuMigrate, clWaitForEvents)(static_cast<cl_uint>(cpuWait.size()), cpuWait.data()));

    // The merge needs both copies of a written object to hold the same bytes wherever the launch does
    // not write. Copies of an object never written hold whatever their allocation held: zero both.
    for (const auto& w : written) {
        if (w.storage->version() != 0) continue;
        const cl_uint zero = 0;
        size_t pattern = w.storage->bytes() % 4 == 0 ? 4 : 1;
        cl_event filled = nullptr;
        checked(BACKEND(gpuQueue, clEnqueueFillBuffer)(gpuQueue, w.storage->backendMem(r.gpu), &zero, pattern, 0,
                                                       w.storage->bytes(), static_cast<cl_uint>(gpuWait.size()),
                                                       listOrNull(gpuWait), &filled));
        gpuWait.push_back(filled);
        r.snapshots.push_back(filled);  // released with the others
        checked(BACKEND(cpuMigrate, clEnqueueFillBuffer)(cpuMigrate, w.storage->backendMem(r.cpu), &zero, pattern, 0,
                                                         w.storage->bytes(), 0, nullptr, nullptr));
        checked(BACKEND(cpuMigrate, clFinish)(cpuMigrate));
    }
    // Snapshots: orig (pre-launch contents, for the merge) and recv (what the CPU sends; starts as orig).
    for (const auto& w : written) {
        SplitRun::Target t{w.storage, w.elementSize, w.storage->bytes(), w.storage->backendMem(r.gpu),
                           w.storage->backendMem(r.cpu), res.pool.take(gpuContext, w.storage->bytes()),
                           res.pool.take(gpuContext, w.storage->bytes())};
        cl_event copied[2] = {nullptr, nullptr};
        checked(BACKEND(gpuQueue, clEnqueueCopyBuffer)(gpuQueue, t.onGpu, t.orig, 0, 0, t.bytes,
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &copied[0]));
        checked(BACKEND(gpuQueue, clEnqueueCopyBuffer)(gpuQueue, t.onGpu, t.recv, 0, 0, t.bytes,
                                                       static_cast<cl_uint>(gpuWait.size()), listOrNull(gpuWait), &copied[1]));
        r.snapshots.push_back(copied[0]);
        r.snapshots.push_back(copied[1]);
        r.targets.push_back(t);
        r.staging.emplace_back(t.bytes);
    }
    // Status word {launch id, lowest group the CPU has done}: before the kernel starts (protocol).
    r.status = res.pool.take(gpuContext, 2 * sizeof(cl_uint));
    // Static split: the GPU skips the CPU's share from the start (the merge waits for all of it).
    run->statusInit[0] = r.launchId;
    run->statusInit[1] = static_cast<cl_uint>(r.fixedShare ? r.cpuFloor : r.groups);
    cl_event statusWritten = nullptr;
    checked(BACKEND(gpuQueue, clEnqueueWriteBuffer)(gpuQueue, r.status, CL_FALSE, 0, sizeof run->statusInit, run->statusInit,
                                                    0, nullptr, &statusWritten));
    r.snapshots.push_back(statusWritten);

    // Test knob: hold the GPU kernel back a random while, so the CPU gets ahead of it (or not).
    if (chaos().on) {
        cl_int gateErr = CL_SUCCESS;
        cl_event gate = BACKEND(gpuContext, clCreateUserEvent)(gpuContext, &gateErr);
        if (gate) {
            gpuWait.push_back(gate);
            unsigned wait = chaos().below(30000);
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
        checked(BACKEND(abortKernel, clSetKernelArg)(abortKernel, numArgs, sizeof r.status, &r.status));
        setExtra(abortKernel, numArgs + 1, transform::abortExtraArgs(r.range, r.launchId));
        checked(BACKEND(gpuQueue, clEnqueueNDRangeKernel)(gpuQueue, abortKernel, r.launch.dims,
                                                          r.launch.hasOffset ? r.launch.offset : nullptr, r.launch.global,
                                                          r.launch.local, static_cast<cl_uint>(gpuWait.size()),
                                                          listOrNull(gpuWait), &r.gpuDone));
    }
    BACKEND(gpuQueue, clFlush)(gpuQueue);

    // Completion: userGpu when the merged results are in place, userCpu when the CPU copies are free.
    cl_int err = CL_SUCCESS;
    r.userGpu = BACKEND(gpuContext, clCreateUserEvent)(gpuContext, &err);
    if (!r.userGpu) fail(CL_OUT_OF_RESOURCES);
    r.userCpu = BACKEND(cpuContext, clCreateUserEvent)(cpuContext, &err);
    if (!r.userCpu) fail(CL_OUT_OF_RESOURCES);
    for (const auto& w : written) w.storage->wroteOn(r.gpu, r.userGpu);
    for (Storage* s : storages) s->setReady(r.cpu, r.userCpu);  // nothing may overwrite the CPU copies meanwhile
    locks.clear();

    BACKEND(r.userGpu, clRetainEvent)(r.userGpu);  // one for the command's event, one for the thread
    BACKEND(r.userCpu, clRetainEvent)(r.userCpu);
    cl_event forCommand = r.userGpu;
    std::thread(runCpuSide, run).detach();
    BACKEND(r.userCpu, clReleaseEvent)(r.userCpu);  // the storages hold their own references
    return forCommand;
}

}  // namespace hetero

// ---------------------------------------------------------------------------------------------
// Shared with the unified engine (platform/split_unified.cpp): the same local size choice,
// HETERO_CPU_SHARE and history.
// ---------------------------------------------------------------------------------------------
namespace hetero {

transform::NDRange resolveSplitRange(LaunchGeometry& launch, size_t maxWorkGroupSize) {
    if (!launch.hasLocal) chooseLocalSize(launch, maxWorkGroupSize ? maxWorkGroupSize : 1);
    return toNDRange(launch);
}

double configuredCpuShare() { return cpuShare(); }

void recordSplitLaunch(const std::string& kernel, const LaunchGeometry& launch, double seconds) {
    recordSplit(kernel, launch, seconds);
}

}  // namespace hetero
