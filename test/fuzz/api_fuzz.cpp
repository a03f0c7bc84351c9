// A bounded, seeded fuzzer of OpenCL API sequences against Hetero, through the real ICD loader like
// any application. Several threads issue random calls with valid and invalid handles (NULL, handles
// of the wrong kind, handles routed to Hetero that it never made, released objects), sizes, flags
// and wait lists. It checks only what the specification promises:
//   - every call answers CL_SUCCESS when its arguments are valid, and otherwise one of the codes
//     the specification lists for the invalid argument it was given;
//   - nothing crashes and nothing hangs (a watchdog aborts with every thread's current operation);
//   - nothing leaks: every registered event callback and memory destructor callback has run once
//     the objects are released, and every handle the run made is refused afterwards.
// Released objects are passed only through Hetero's own dispatch table, never through the loader:
// the loader reads a handle's dispatch pointer, which for a freed object is undefined behaviour in
// the application. Hetero promises more (platform/support/object.hpp: a handle is validated against
// its registry of live handles before it is read), and that promise is what is checked.
//
// Environment: HETERO_FUZZ_SEED (default: random, printed), HETERO_FUZZ_SECONDS (default 20),
// HETERO_FUZZ_THREADS (default 3; 1 makes a seed repeat exactly the same sequence),
// HETERO_FUZZ_MAX_OPS (per thread, default unbounded), HETERO_FUZZ_SKIP (operations left out, by
// name, comma separated), HETERO_FUZZ_VERBOSE (print every operation), HETERO_FUZZ_STALL_SECONDS (the watchdog's limit, default 180),
// HETERO_FUZZ_TEST_STALL (tests only: every thread waits on a user event nobody sets, so the watchdog
// fires; fuzz.api.watchdog-stacks checks what it prints).
#include "fuzz_support.hpp"
#include "thread_stacks.hpp"

#include <CL/cl_icd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <thread>
#include <unordered_map>

using namespace fuzz;

namespace {

const char* kSource = R"CLC(
__kernel void fill(__global int* d, int n, int v) {
    int i = (int)(get_global_id(0) + get_global_id(1) * get_global_size(0)
                  + get_global_id(2) * get_global_size(0) * get_global_size(1));
    if (i < n) d[i] = v + i;
}
__kernel void first_of_group(__global int* d, int n, __local int* tmp) {
    int l = (int)get_local_id(0);
    int g = (int)get_global_id(0);
    tmp[l] = g < n ? d[g] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (g < n) d[g] = tmp[0] + l;
}
)CLC";

// ---- the objects of a run ------------------------------------------------------------------------

struct Shared {
    cl_platform_id platform = nullptr;
    const cl_icd_dispatch* table = nullptr;  // Hetero's, for calls with released handles
    cl_device_id device = nullptr;
    cl_context ctxA = nullptr, ctxB = nullptr;
    cl_program program = nullptr;  // in ctxA, built: kernels fill and first_of_group
    std::vector<cl_mem> buffers;   // in ctxA, READ_WRITE, kSharedBufferSize bytes, used by every thread
    size_t kernelWorkGroup = 1;  // the smaller CL_KERNEL_WORK_GROUP_SIZE of the two kernels
    size_t maxItemSizes[3] = {1, 1, 1};
    size_t localInts = 1;         // the __local argument of first_of_group, in ints
    cl_uint baseAlignBytes = 128;
    cl_ulong maxAlloc = 0;
    std::atomic<uint64_t> callbacksRegistered{0}, callbacksRun{0};
    std::atomic<uint64_t> destructorsRegistered{0}, destructorsRun{0};
    std::atomic<uint64_t> reusedDeadHandles{0};
    std::mutex deadMutex;
    std::vector<std::pair<void*, int>> dead;  // every handle released to zero, with its kind
    std::unordered_map<void*, std::string> origins;  // the call that made each event (for leak reports)
    // Every thread's arena and host memory, handed over when the thread ends: a command of a queue
    // it released unfinished may still read or write them (freed when main returns, after every
    // context destructor callback, so after every command).
    std::vector<std::unique_ptr<char[]>> hostMemory;
    void madeBy(void* handle, const char* call) {
        std::lock_guard<std::mutex> lock(deadMutex);
        origins[handle] = call;
    }
};
constexpr size_t kSharedBufferSize = 4096;
constexpr size_t kArenaSize = 1 << 16;

enum Kind { kQueue, kMem, kEvent, kKernel, kProgram, kSampler, kContext, kDevice };
const char* kindName(int k) {
    static const char* names[] = {"queue", "mem", "event", "kernel", "program", "sampler"};
    return names[k];
}

struct MemRec {
    cl_mem mem;
    cl_context ctx;
    size_t size;
    cl_mem_flags flags;  // effective flags (a sub-buffer's include what it inherited)
    cl_mem parent;       // for sub-buffers
    size_t origin;
};
struct QueueRec {
    cl_command_queue queue;
    cl_context ctx;
};
struct EventRec {
    cl_event event;
    cl_context ctx;
    bool user;
    bool set;  // a user event whose status was set
};
struct KernelRec {
    cl_kernel kernel;
    bool local;        // first_of_group (arg 2 is __local)
    bool argsSet;      // a valid set of arguments was given
    cl_mem argBuffer;  // the buffer given as argument 0
    bool argReleased;  // ... which has since been released by this thread
};

// One thread's objects: what it made, with the references it holds.
struct Thread {
    Shared& s;
    unsigned index;
    Rng rng;
    Progress& progress;
    std::unique_ptr<char[]> arena{new char[kArenaSize]()};  // what writes and fills read; never written
    std::vector<std::unique_ptr<char[]>> hostPtrs;           // host pointers of buffers and reads (Shared::hostMemory)
    std::vector<QueueRec> queues;
    std::vector<MemRec> mems;
    std::vector<EventRec> events;
    std::vector<KernelRec> kernels;
    std::vector<cl_program> programs;
    std::vector<cl_sampler> samplers;
    std::vector<std::pair<void*, int>> dead;
    bool someUserEventFailed = false;
    std::string detail;  // the arguments of the call being checked, for the failure report

    Thread(Shared& shared, unsigned i, uint64_t seed, Progress& p) : s(shared), index(i), rng(seed), progress(p) {}

    void check(cl_int got, const Allowed& allowed, const char* call) {
        if (!allowed.contains(got))
            failRun(index, progress.ops.load(), std::string(call) + " returned " + std::to_string(got) +
                                                    ", the specification allows here: " + allowed.list() +
                                                    (detail.empty() ? "" : " (" + detail + ")"));
    }
    void checkSuccess(cl_int got, const char* call) { check(got, {CL_SUCCESS}, call); }
};

void CL_CALLBACK onEvent(cl_event, cl_int, void* shared) {
    static_cast<Shared*>(shared)->callbacksRun.fetch_add(1);
}
void CL_CALLBACK onMemDestroyed(cl_mem, void* shared) {
    static_cast<Shared*>(shared)->destructorsRun.fetch_add(1);
}

// ---- handles, valid or not -----------------------------------------------------------------------

// A handle that carries Hetero's dispatch table (so the loader hands it to Hetero) and is no
// object Hetero made.
struct Impostor {
    const void* dispatch;
    void* padding[15];
};
thread_local Impostor impostor;

void* anyLiveHandleOtherThan(Thread& t, int kind) {
    std::vector<void*> c;
    if (kind != kQueue) for (auto& q : t.queues) c.push_back(q.queue);
    if (kind != kMem) for (auto& m : t.mems) c.push_back(m.mem);
    if (kind != kEvent) for (auto& e : t.events) c.push_back(e.event);
    if (kind != kKernel) for (auto& k : t.kernels) c.push_back(k.kernel);
    if (kind != kSampler) for (auto s : t.samplers) c.push_back(s);
    if (kind != kContext) c.push_back(t.s.ctxA);
    return c[t.rng.below(c.size())];
}

// An invalid handle for an argument of `kind`: NULL, a live object of another kind, or an impostor.
template <class H>
H invalidHandle(Thread& t, int kind) {
    switch (t.rng.below(3)) {
    case 0: t.detail += "[NULL handle]"; return nullptr;
    case 1: t.detail += "[handle of another kind]"; return static_cast<H>(anyLiveHandleOtherThan(t, kind));
    default:
        t.detail += "[impostor handle]";
        impostor.dispatch = t.s.table;
        return reinterpret_cast<H>(&impostor);
    }
}

// ---- wait lists ----------------------------------------------------------------------------------

struct WaitList {
    std::vector<cl_event> events;
    cl_uint num = 0;
    const cl_event* ptr = nullptr;
    Allowed errors;  // empty: valid
};

// Sets every user event of this thread that is still unset (before anything blocks on them).
void settleUserEvents(Thread& t) {
    for (auto& e : t.events)
        if (e.user && !e.set) {
            bool fail = t.rng.chance(0.2);
            t.checkSuccess(clSetUserEventStatus(e.event, fail ? -42 : CL_COMPLETE), "clSetUserEventStatus");
            e.set = true;
            t.someUserEventFailed |= fail;
        }
}

WaitList makeWaitList(Thread& t, cl_context ctx) {
    WaitList w;
    size_t r = t.rng.below(20);
    if (r < 9 || t.events.empty()) return w;
    if (r == 9) {
        w.num = 1 + t.rng.below(3);  // count without a list
        w.errors = {CL_INVALID_EVENT_WAIT_LIST};
        return w;
    }
    size_t n = 1 + t.rng.below(3);
    for (size_t i = 0; i < n; ++i) {
        auto& e = t.rng.pickFrom(t.events);
        w.events.push_back(e.event);
        if (e.ctx != ctx) w.errors.add(CL_INVALID_CONTEXT);
    }
    if (r == 10) {
        w.events[t.rng.below(n)] = invalidHandle<cl_event>(t, kEvent);
        w.errors.add(CL_INVALID_EVENT_WAIT_LIST);
    }
    w.ptr = w.events.data();
    w.num = static_cast<cl_uint>(w.events.size());
    if (r == 11) {
        w.num = 0;  // a list without a count
        w.errors = {CL_INVALID_EVENT_WAIT_LIST};
    }
    return w;
}

// Without a valid queue there is no context to compare the events' with.
void dropContextErrors(WaitList& w) {
    bool badList = w.errors.contains(CL_INVALID_EVENT_WAIT_LIST);
    w.errors = {};
    if (badList) w.errors.add(CL_INVALID_EVENT_WAIT_LIST);
}

// What an enqueue may answer: success when everything else was valid, else one of `errors`; a
// blocking command may also report that an event it waited on failed.
Allowed outcome(Thread& t, Allowed errors, const WaitList& w, bool blocking) {
    Allowed a = errors;
    if (!w.errors.empty())
        for (cl_int e : {CL_INVALID_EVENT_WAIT_LIST, CL_INVALID_CONTEXT})
            if (w.errors.contains(e)) a.add(e);
    if (a.empty()) {
        a.add(CL_SUCCESS);
        if (blocking && t.someUserEventFailed) a.add(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    return a;
}

// Keeps (or drops) the event an enqueue returned.
void keepEvent(Thread& t, cl_int err, cl_event ev, cl_context ctx, const char* call) {
    if (err != CL_SUCCESS || !ev) return;
    t.events.push_back({ev, ctx, false, true});
    t.s.madeBy(ev, call);
}

cl_event* maybeEventOut(Thread& t, cl_event& ev) {
    ev = nullptr;
    return t.rng.chance(0.5) ? &ev : nullptr;
}

// ---- picking objects -----------------------------------------------------------------------------

struct MemPick {
    cl_mem mem = nullptr;
    std::optional<MemRec> rec;  // empty: an invalid handle
};

MemPick pickMem(Thread& t, bool allowInvalid = true) {
    MemPick p;
    if (allowInvalid && t.rng.chance(0.06)) {
        p.mem = invalidHandle<cl_mem>(t, kMem);
        return p;
    }
    if (t.mems.empty() || t.rng.chance(0.3)) {
        p.rec = MemRec{t.rng.pickFrom(t.s.buffers), t.s.ctxA, kSharedBufferSize, CL_MEM_READ_WRITE, nullptr, 0};
        p.mem = p.rec->mem;
        return p;
    }
    p.rec = t.rng.pickFrom(t.mems);
    p.mem = p.rec->mem;
    return p;
}

struct QueuePick {
    cl_command_queue queue = nullptr;
    cl_context ctx = nullptr;  // nullptr: invalid handle
};
QueuePick pickQueue(Thread& t) {
    if (t.queues.empty() || t.rng.chance(0.04)) return {invalidHandle<cl_command_queue>(t, kQueue), nullptr};
    auto& q = t.rng.pickFrom(t.queues);
    return {q.queue, q.ctx};
}

// ---- the operations ------------------------------------------------------------------------------

void opCreateBuffer(Thread& t) {
    Allowed errors;
    cl_context ctx = t.rng.chance(0.85) ? t.s.ctxA : t.rng.chance(0.5) ? t.s.ctxB : invalidHandle<cl_context>(t, kContext);
    if (ctx != t.s.ctxA && ctx != t.s.ctxB) errors.add(CL_INVALID_CONTEXT);
    static const cl_mem_flags device[] = {0, CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
    static const cl_mem_flags host[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY, CL_MEM_HOST_NO_ACCESS};
    cl_mem_flags flags = device[t.rng.below(4)] | (t.rng.chance(0.3) ? host[t.rng.below(4)] : 0);
    if (t.rng.chance(0.04)) {
        flags |= CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY;  // two access modes
        errors.add(CL_INVALID_VALUE);
    }
    if (t.rng.chance(0.03)) {
        flags |= cl_mem_flags(1) << 40;  // a bit no version defines
        errors.add(CL_INVALID_VALUE);
    }
    size_t r = t.rng.below(10);
    size_t size = 4 * t.rng.between(1, 1024);
    if (r == 0) {
        size = 0;
        errors.add(CL_INVALID_BUFFER_SIZE);
    } else if (r == 1) {
        size = SIZE_MAX / 2;
        errors.add(CL_INVALID_BUFFER_SIZE);
    }
    void* hostPtr = nullptr;
    size_t h = t.rng.below(8);
    if (h == 1 || h == 2 || h == 5) {
        flags |= h == 1 ? CL_MEM_COPY_HOST_PTR : h == 2 ? CL_MEM_USE_HOST_PTR : CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
        if (size > 0 && size <= 4096) {
            t.hostPtrs.emplace_back(new char[size]());
            hostPtr = t.hostPtrs.back().get();
        } else {
            hostPtr = t.arena.get();  // never read: the size is refused
        }
    } else if (h == 3) {
        flags |= CL_MEM_ALLOC_HOST_PTR;
    } else if (h == 4) {
        hostPtr = t.arena.get();  // a pointer without USE/COPY
        errors.add(CL_INVALID_HOST_PTR);
    } else if (h == 6) {
        flags |= CL_MEM_USE_HOST_PTR;  // USE without a pointer
        errors.add(CL_INVALID_HOST_PTR);
    } else if (h == 7) {
        flags |= CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR;
        hostPtr = t.arena.get();
        errors.add(CL_INVALID_VALUE);
    }
    if (ctx == t.s.ctxA || ctx == t.s.ctxB) {
        // Sizes the device cannot allocate are answered with either code.
        if (size > t.s.maxAlloc) errors.add(CL_INVALID_BUFFER_SIZE);
    }
    cl_int err = 12345;
    cl_mem m = clCreateBuffer(ctx, flags, size, hostPtr, &err);
    t.check(err, errors.empty() ? Allowed{CL_SUCCESS} : errors, "clCreateBuffer");
    if ((m != nullptr) != (err == CL_SUCCESS)) failRun(t.index, t.progress.ops, "clCreateBuffer: handle and code disagree");
    if (!m) return;
    cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY);
    t.mems.push_back({m, ctx, size, access ? flags : flags | CL_MEM_READ_WRITE, nullptr, 0});
    if (t.rng.chance(0.3)) {
        t.checkSuccess(clSetMemObjectDestructorCallback(m, onMemDestroyed, &t.s), "clSetMemObjectDestructorCallback");
        t.s.destructorsRegistered.fetch_add(1);
    }
}

void opCreateSubBuffer(Thread& t) {
    MemPick p = pickMem(t);
    Allowed errors;
    size_t parentSize = p.rec ? p.rec->size : 64;
    if (!p.rec || p.rec->parent) errors.add(CL_INVALID_MEM_OBJECT);
    size_t align = t.s.baseAlignBytes;
    size_t origin = align * t.rng.below(parentSize / align + 1);
    if (t.rng.chance(0.1)) {
        origin += 4;  // off the device's base address alignment
        errors.add(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    }
    size_t size = t.rng.between(0, parentSize);
    if (size == 0) errors.add(CL_INVALID_BUFFER_SIZE);
    if (origin + size > parentSize) errors.add(CL_INVALID_VALUE);
    cl_mem_flags flags = 0;
    if (t.rng.chance(0.2)) {
        flags = CL_MEM_READ_ONLY;
        if (p.rec && (p.rec->flags & CL_MEM_WRITE_ONLY)) errors.add(CL_INVALID_VALUE);
    }
    if (t.rng.chance(0.05)) {
        flags |= CL_MEM_USE_HOST_PTR;  // not for sub-buffers
        errors.add(CL_INVALID_VALUE);
    }
    cl_buffer_create_type type = CL_BUFFER_CREATE_TYPE_REGION;
    if (t.rng.chance(0.03)) {
        type = 0x9999;
        errors.add(CL_INVALID_VALUE);
    }
    cl_buffer_region region{origin, size};
    const cl_buffer_region* regionArg = &region;
    if (t.rng.chance(0.03)) {
        regionArg = nullptr;
        errors.add(CL_INVALID_VALUE);
    }
    cl_int err = 12345;
    cl_mem m = clCreateSubBuffer(p.mem, flags, type, regionArg, &err);
    t.check(err, errors.empty() ? Allowed{CL_SUCCESS} : errors, "clCreateSubBuffer");
    if (!m) return;
    cl_mem_flags inherited = p.rec->flags & ~(CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR);
    if (flags) inherited = (inherited & ~(CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) | flags;
    t.mems.push_back({m, p.rec->ctx, size, inherited, p.mem, origin});
}

void opReadWrite(Thread& t) {
    QueuePick q = pickQueue(t);
    bool write = t.rng.chance(0.5);
    bool blocking = t.rng.chance(0.4);
    if (blocking) settleUserEvents(t);
    MemPick p = pickMem(t);
    Allowed errors;
    if (!q.ctx) errors.add(CL_INVALID_COMMAND_QUEUE);
    if (!p.rec) errors.add(CL_INVALID_MEM_OBJECT);
    size_t size = p.rec ? p.rec->size : 64;
    size_t offset = t.rng.below(size + 1), cb = t.rng.below(size + 1);
    if (t.rng.chance(0.1)) offset = size - std::min(size, cb) + 1 + t.rng.below(8);  // past the end
    if (cb == 0 || offset + cb > size) errors.add(CL_INVALID_VALUE);
    // Writes read the arena, which nothing writes. A read writes its own memory, kept to the end
    // (the application may not touch it before the read completes, nor give it to two reads).
    void* ptr = t.arena.get();
    if (!write) {
        t.hostPtrs.emplace_back(new char[std::max<size_t>(cb, 1)]);
        ptr = t.hostPtrs.back().get();
    }
    if (t.rng.chance(0.03)) {
        ptr = nullptr;
        errors.add(CL_INVALID_VALUE);
    }
    if (p.rec && q.ctx && p.rec->ctx != q.ctx) errors.add(CL_INVALID_CONTEXT);
    if (p.rec) {
        cl_mem_flags denied = write ? (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) : (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
        if (p.rec->flags & denied) errors.add(CL_INVALID_OPERATION);
    }
    WaitList w = makeWaitList(t, q.ctx);
    if (!q.ctx) dropContextErrors(w);
    cl_event ev;
    cl_event* evOut = maybeEventOut(t, ev);
    const char* call = write ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
    auto ctxName = [&](cl_context c) { return c == t.s.ctxA ? "A" : c == t.s.ctxB ? "B" : "-"; };
    t.detail += std::string(call) + (blocking ? " blocking" : "") + " queue of context " + ctxName(q.ctx) +
                ", buffer of context " + (p.rec ? ctxName(p.rec->ctx) : "-") + (p.rec && p.rec->parent ? " (sub-buffer)" : "") +
                ", " + std::to_string(offset) + "+" + std::to_string(cb) + " of " + std::to_string(size) +
                ", wait list " + std::to_string(w.num);
    cl_int err = write ? clEnqueueWriteBuffer(q.queue, p.mem, blocking, offset, cb, ptr, w.num, w.ptr, evOut)
                       : clEnqueueReadBuffer(q.queue, p.mem, blocking, offset, cb, ptr, w.num, w.ptr, evOut);
    Allowed a = outcome(t, errors, w, blocking);
    if (!q.ctx) a.add(CL_INVALID_COMMAND_QUEUE);
    t.check(err, a, call);
    if (evOut) keepEvent(t, err, ev, q.ctx, call);
}

void opCopyFill(Thread& t) {
    QueuePick q = pickQueue(t);
    MemPick dst = pickMem(t);
    Allowed errors;
    if (!q.ctx) errors.add(CL_INVALID_COMMAND_QUEUE);
    if (!dst.rec) errors.add(CL_INVALID_MEM_OBJECT);
    size_t dsize = dst.rec ? dst.rec->size : 64;
    WaitList w = makeWaitList(t, q.ctx);
    if (!q.ctx) dropContextErrors(w);
    if (dst.rec && q.ctx && dst.rec->ctx != q.ctx) errors.add(CL_INVALID_CONTEXT);
    cl_event ev;
    cl_event* evOut = maybeEventOut(t, ev);
    cl_int err;
    const char* call;
    if (t.rng.chance(0.5)) {
        call = "clEnqueueFillBuffer";
        static const size_t patterns[] = {1, 2, 4, 8, 16, 32, 64, 128, 0, 3, 256};
        size_t ps = patterns[t.rng.below(11)];
        bool psOk = ps != 0 && ps != 3 && ps != 256;
        size_t unit = psOk ? ps : 1;
        size_t offset = unit * t.rng.below(dsize / unit + 1), size = unit * t.rng.below(dsize / unit + 1);
        if (t.rng.chance(0.1)) offset += 1;
        if (!psOk || offset % unit || size % unit || offset + size > dsize) errors.add(CL_INVALID_VALUE);
        const char* pattern = t.arena.get();
        if (t.rng.chance(0.03)) {
            pattern = nullptr;
            errors.add(CL_INVALID_VALUE);
        }
        err = clEnqueueFillBuffer(q.queue, dst.mem, pattern, ps, offset, size, w.num, w.ptr, evOut);
        // A zero size: nothing to fill. Before 2.0 that was no error, later versions do not list one.
        if (size == 0 && errors.empty()) errors = {CL_SUCCESS, CL_INVALID_VALUE};
    } else {
        call = "clEnqueueCopyBuffer";
        MemPick src = t.rng.chance(0.3) ? dst : pickMem(t);
        if (!src.rec) errors.add(CL_INVALID_MEM_OBJECT);
        size_t ssize = src.rec ? src.rec->size : 64;
        size_t so = t.rng.below(ssize + 1), doff = t.rng.below(dsize + 1);
        size_t cb = t.rng.below(std::min(ssize, dsize) + 1);
        if (cb == 0 || so + cb > ssize || doff + cb > dsize) errors.add(CL_INVALID_VALUE);
        if (src.rec && q.ctx && src.rec->ctx != q.ctx) errors.add(CL_INVALID_CONTEXT);
        if (src.rec && dst.rec && src.rec->ctx != dst.rec->ctx) errors.add(CL_INVALID_CONTEXT);
        if (src.rec && dst.rec) {
            // Regions within the same storage: a buffer with itself, or sub-buffers of one parent.
            cl_mem sRoot = src.rec->parent ? src.rec->parent : src.mem;
            cl_mem dRoot = dst.rec->parent ? dst.rec->parent : dst.mem;
            size_t sAbs = src.rec->origin + so, dAbs = dst.rec->origin + doff;
            bool overlap = sRoot == dRoot && sAbs < dAbs + cb && dAbs < sAbs + cb;
            bool sameOrSiblings = src.mem == dst.mem || (src.rec->parent && src.rec->parent == dst.rec->parent);
            if (overlap && !sameOrSiblings) return;  // a buffer and its own sub-buffer: not defined
            if (overlap) errors.add(CL_MEM_COPY_OVERLAP);
        }
        err = clEnqueueCopyBuffer(q.queue, src.mem, dst.mem, so, doff, cb, w.num, w.ptr, evOut);
    }
    Allowed a = outcome(t, errors, w, false);
    if (!q.ctx) a.add(CL_INVALID_COMMAND_QUEUE);
    t.check(err, a, call);
    if (evOut) keepEvent(t, err, ev, q.ctx, call);
}

void opMapUnmap(Thread& t) {
    QueuePick q = pickQueue(t);
    settleUserEvents(t);
    MemPick p = pickMem(t);
    Allowed errors;
    if (!q.ctx) errors.add(CL_INVALID_COMMAND_QUEUE);
    if (!p.rec) errors.add(CL_INVALID_MEM_OBJECT);
    size_t size = p.rec ? p.rec->size : 64;
    size_t offset = t.rng.below(size + 1), cb = t.rng.below(size + 1);
    if (cb == 0 || offset + cb > size) errors.add(CL_INVALID_VALUE);
    static const cl_map_flags maps[] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_READ | CL_MAP_WRITE,
                                        CL_MAP_WRITE_INVALIDATE_REGION, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION};
    cl_map_flags flags = maps[t.rng.below(5)];
    if (flags == (CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION)) errors.add(CL_INVALID_VALUE);
    if (p.rec) {
        if ((flags & CL_MAP_READ) && (p.rec->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
            errors.add(CL_INVALID_OPERATION);
        if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
            (p.rec->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
            errors.add(CL_INVALID_OPERATION);
        if (q.ctx && p.rec->ctx != q.ctx) errors.add(CL_INVALID_CONTEXT);
    }
    WaitList w = makeWaitList(t, q.ctx);
    if (!q.ctx) dropContextErrors(w);
    bool blocking = t.rng.chance(0.6);
    cl_event mapped = nullptr;
    cl_int err = 12345;
    t.detail += std::string(blocking ? "blocking" : "non-blocking") + " map flags " + std::to_string(flags) + " of " +
                std::to_string(offset) + "+" + std::to_string(cb) + " bytes, wait list " + std::to_string(w.num);
    void* ptr = clEnqueueMapBuffer(q.queue, p.mem, blocking, flags, offset, cb, w.num, w.ptr, &mapped, &err);
    Allowed a = outcome(t, errors, w, true);
    if (!q.ctx) a.add(CL_INVALID_COMMAND_QUEUE);
    t.check(err, a, "clEnqueueMapBuffer");
    if (err != CL_SUCCESS) return;
    if (!ptr) failRun(t.index, t.progress.ops, "clEnqueueMapBuffer succeeded with a NULL pointer");
    if (blocking && (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))) std::memset(ptr, 0x5a, cb);
    if (t.rng.chance(0.2)) {
        // A pointer this buffer never mapped.
        t.check(clEnqueueUnmapMemObject(q.queue, p.mem, t.arena.get() + 3, 0, nullptr, nullptr), {CL_INVALID_VALUE},
                "clEnqueueUnmapMemObject (pointer never mapped)");
    }
    cl_event ev;
    cl_event* evOut = maybeEventOut(t, ev);
    t.checkSuccess(clEnqueueUnmapMemObject(q.queue, p.mem, ptr, 1, &mapped, evOut), "clEnqueueUnmapMemObject");
    t.events.push_back({mapped, q.ctx, false, true});
    t.s.madeBy(mapped, blocking ? "clEnqueueMapBuffer (blocking)" : "clEnqueueMapBuffer");
    if (evOut) keepEvent(t, CL_SUCCESS, ev, q.ctx, "clEnqueueUnmapMemObject");
}

// Valid arguments: a READ_WRITE buffer of the kernel's context and a count within it.
void setValidArgs(Thread& t, KernelRec& k) {
    MemPick p;
    for (int tries = 0; tries < 4; ++tries) {
        p = pickMem(t, false);
        if (p.rec->ctx == t.s.ctxA && (p.rec->flags & CL_MEM_READ_WRITE)) break;
        p.rec.reset();
    }
    if (!p.rec) {
        p.rec = MemRec{t.s.buffers[0], t.s.ctxA, kSharedBufferSize, CL_MEM_READ_WRITE, nullptr, 0};
        p.mem = p.rec->mem;
    }
    cl_int n = static_cast<cl_int>(t.rng.below(p.rec->size / 4 + 1));
    t.checkSuccess(clSetKernelArg(k.kernel, 0, sizeof(cl_mem), &p.mem), "clSetKernelArg(buffer)");
    t.checkSuccess(clSetKernelArg(k.kernel, 1, sizeof n, &n), "clSetKernelArg(int)");
    if (k.local) {
        t.checkSuccess(clSetKernelArg(k.kernel, 2, sizeof(cl_int) * t.s.localInts, nullptr), "clSetKernelArg(local)");
    } else {
        cl_int v = static_cast<cl_int>(t.rng.bits());
        t.checkSuccess(clSetKernelArg(k.kernel, 2, sizeof v, &v), "clSetKernelArg(int)");
    }
    k.argsSet = true;
    k.argBuffer = p.mem;
    k.argReleased = false;
}

void opSetArgInvalid(Thread& t) {
    if (t.kernels.empty()) return;
    auto& k = t.rng.pickFrom(t.kernels);
    cl_int v = 1;
    cl_long wide = 1;
    cl_int err;
    switch (t.rng.below(5)) {
    case 0:
        err = clSetKernelArg(k.kernel, 3 + t.rng.below(100), sizeof v, &v);
        t.check(err, {CL_INVALID_ARG_INDEX}, "clSetKernelArg(index past the last)");
        break;
    case 1:
        err = clSetKernelArg(k.kernel, 1, t.rng.chance(0.5) ? 0 : sizeof wide, &wide);
        t.check(err, {CL_INVALID_ARG_SIZE}, "clSetKernelArg(int of wrong size)");
        break;
    case 2: {
        cl_mem bad = invalidHandle<cl_mem>(t, kMem);
        if (!bad) bad = static_cast<cl_mem>(anyLiveHandleOtherThan(t, kMem));  // NULL would be valid here
        err = clSetKernelArg(k.kernel, 0, sizeof bad, &bad);
        t.check(err, {CL_INVALID_MEM_OBJECT}, "clSetKernelArg(not a memory object)");
        break;
    }
    case 3:
        err = clSetKernelArg(k.kernel, 1, sizeof v, nullptr);
        t.check(err, {CL_INVALID_ARG_VALUE}, "clSetKernelArg(NULL value for an int)");
        break;
    default:
        if (k.local) {
            cl_int four[4] = {1, 2, 3, 4};
            err = clSetKernelArg(k.kernel, 2, sizeof four, four);
            t.check(err, {CL_INVALID_ARG_VALUE}, "clSetKernelArg(value for a __local argument)");
        } else {
            err = clSetKernelArg(invalidHandle<cl_kernel>(t, kKernel), 0, sizeof v, &v);
            t.check(err, {CL_INVALID_KERNEL}, "clSetKernelArg(not a kernel)");
        }
    }
}

void opLaunch(Thread& t) {
    if (t.kernels.empty()) return;
    auto& k = t.rng.pickFrom(t.kernels);
    // A released buffer as argument is the application's error (undefined): given new ones first.
    if (t.rng.chance(0.7) || k.argReleased) setValidArgs(t, k);
    QueuePick q = pickQueue(t);
    Allowed errors;
    cl_kernel kernel = k.kernel;
    if (t.rng.chance(0.03)) {
        kernel = invalidHandle<cl_kernel>(t, kKernel);
        errors.add(CL_INVALID_KERNEL);
    }
    if (!q.ctx) errors.add(CL_INVALID_COMMAND_QUEUE);
    if (q.ctx && q.ctx != t.s.ctxA) errors.add(CL_INVALID_CONTEXT);
    if (!k.argsSet) errors.add(CL_INVALID_KERNEL_ARGS);
    cl_uint dims = static_cast<cl_uint>(1 + t.rng.below(3));
    if (t.rng.chance(0.03)) {
        dims = t.rng.chance(0.5) ? 0 : 4;
        errors.add(CL_INVALID_WORK_DIMENSION);
    }
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
    bool zeroGlobal = false, uneven = false, tooLarge = false, zeroLocal = false;
    for (cl_uint d = 0; d < std::min(dims, 3u); ++d) {
        global[d] = t.rng.between(1, d == 0 ? 256 : 8);
        if (t.rng.chance(0.02)) global[d] = 0, zeroGlobal = true;
        offset[d] = t.rng.below(4);
    }
    bool useLocal = t.rng.chance(0.5) || k.local;
    if (useLocal) {
        size_t product = 1;
        for (cl_uint d = 0; d < std::min(dims, 3u); ++d) {
            local[d] = t.rng.between(1, 16);
            if (t.rng.chance(0.02)) local[d] = 0, zeroLocal = true;
            if (global[d] && local[d] && global[d] % local[d]) uneven = true;
            if (local[d] > t.s.maxItemSizes[d]) tooLarge = true;
            product *= local[d];
        }
        if (product > t.s.kernelWorkGroup) tooLarge = true;
        // first_of_group's __local array holds localInts: a larger work-group would write past it.
        if (k.local && !tooLarge && product > t.s.localInts) return;
    }
    if (zeroLocal || tooLarge) errors.add(CL_INVALID_WORK_GROUP_SIZE), errors.add(CL_INVALID_WORK_ITEM_SIZE);
    WaitList w = makeWaitList(t, q.ctx);
    if (!q.ctx) dropContextErrors(w);
    const size_t* globalArg = t.rng.chance(0.02) ? nullptr : global;
    t.detail += "dims " + std::to_string(dims) + (globalArg ? "" : " global NULL") + " global/local";
    for (int d = 0; d < 3; ++d) t.detail += " " + std::to_string(global[d]) + "/" + (useLocal ? std::to_string(local[d]) : "-");
    t.detail += " wait list " + std::to_string(w.num) + (w.ptr ? "" : " NULL");
    cl_event ev;
    cl_event* evOut = maybeEventOut(t, ev);
    cl_int err = clEnqueueNDRangeKernel(q.queue, kernel, dims, t.rng.chance(0.5) ? offset : nullptr, globalArg,
                                        useLocal ? local : nullptr, w.num, w.ptr, evOut);
    Allowed a = outcome(t, errors, w, false);
    if (!q.ctx) a.add(CL_INVALID_COMMAND_QUEUE);
    // Work-groups that do not divide the NDRange: allowed from OpenCL 2.0 for programs built for it,
    // so either answer. A NULL or zero global size: success doing nothing from 2.1, an error before.
    if (uneven) a.add(CL_INVALID_WORK_GROUP_SIZE);
    if (zeroGlobal || !globalArg) a.add(CL_INVALID_GLOBAL_WORK_SIZE);
    t.check(err, a, "clEnqueueNDRangeKernel");
    if (evOut) keepEvent(t, err, ev, q.ctx, "clEnqueueNDRangeKernel");
}

void opUserEvent(Thread& t) {
    size_t r = t.rng.below(4);
    if (r == 0 || t.events.empty()) {
        cl_int err = 12345;
        cl_context ctx = t.rng.chance(0.9) ? t.s.ctxA : t.rng.chance(0.5) ? t.s.ctxB : invalidHandle<cl_context>(t, kContext);
        cl_event e = clCreateUserEvent(ctx, &err);
        bool valid = ctx == t.s.ctxA || ctx == t.s.ctxB;
        t.check(err, valid ? Allowed{CL_SUCCESS} : Allowed{CL_INVALID_CONTEXT}, "clCreateUserEvent");
        if (e) t.events.push_back({e, ctx, true, false}), t.s.madeBy(e, "clCreateUserEvent");
        return;
    }
    auto& e = t.rng.pickFrom(t.events);
    if (r == 1) {
        cl_int status = t.rng.chance(0.5) ? CL_COMPLETE : t.rng.chance(0.5) ? -7 : CL_RUNNING;
        cl_int err = clSetUserEventStatus(e.event, status);
        Allowed a;
        if (!e.user) a = {CL_INVALID_EVENT};
        else if (status > 0) a = {CL_INVALID_VALUE};
        else if (e.set) a = {CL_INVALID_OPERATION};
        else a = {CL_SUCCESS};
        t.check(err, a, "clSetUserEventStatus");
        if (err == CL_SUCCESS) {
            e.set = true;
            t.someUserEventFailed |= status < 0;
        }
    } else if (r == 2) {
        cl_int type = t.rng.chance(0.9) ? static_cast<cl_int>(t.rng.below(3)) : 7;  // COMPLETE, RUNNING, SUBMITTED
        bool nullFn = t.rng.chance(0.05);
        cl_int err = clSetEventCallback(e.event, type, nullFn ? nullptr : onEvent, &t.s);
        t.check(err, (type == 7 || nullFn) ? Allowed{CL_INVALID_VALUE} : Allowed{CL_SUCCESS}, "clSetEventCallback");
        if (err == CL_SUCCESS) t.s.callbacksRegistered.fetch_add(1);
    } else {
        cl_int status = 0;
        size_t got = 0;
        cl_int err = clGetEventInfo(e.event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, &got);
        t.checkSuccess(err, "clGetEventInfo");
        if (got != sizeof status || status > CL_QUEUED)
            failRun(t.index, t.progress.ops, "clGetEventInfo: execution status " + std::to_string(status));
    }
}

void opWait(Thread& t) {
    settleUserEvents(t);
    size_t r = t.rng.below(10);
    if (r == 0) {
        t.check(clWaitForEvents(0, nullptr), {CL_INVALID_VALUE}, "clWaitForEvents(0, NULL)");
        return;
    }
    if (t.events.empty()) return;
    std::vector<cl_event> list;
    bool invalid = false, mixed = false;
    cl_context ctx = nullptr;
    for (size_t i = 0, n = 1 + t.rng.below(4); i < n; ++i) {
        auto& e = t.rng.pickFrom(t.events);
        if (ctx && e.ctx != ctx) mixed = true;
        ctx = e.ctx;
        list.push_back(e.event);
    }
    if (r == 1) {
        list[t.rng.below(list.size())] = invalidHandle<cl_event>(t, kEvent);
        invalid = true;
    }
    cl_int err = clWaitForEvents(static_cast<cl_uint>(list.size()), list.data());
    Allowed a;
    if (invalid) a.add(CL_INVALID_EVENT);
    if (mixed) a.add(CL_INVALID_CONTEXT);
    if (a.empty()) {
        a.add(CL_SUCCESS);
        if (t.someUserEventFailed) a.add(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
    t.check(err, a, "clWaitForEvents");
}

void opMarkerBarrierFlush(Thread& t) {
    QueuePick q = pickQueue(t);
    size_t r = t.rng.below(5);
    if (r >= 3) {
        if (r == 4) settleUserEvents(t);
        cl_int err = r == 3 ? clFlush(q.queue) : clFinish(q.queue);
        t.check(err, q.ctx ? Allowed{CL_SUCCESS} : Allowed{CL_INVALID_COMMAND_QUEUE}, r == 3 ? "clFlush" : "clFinish");
        return;
    }
    WaitList w = makeWaitList(t, q.ctx);
    if (!q.ctx) dropContextErrors(w);
    cl_event ev;
    cl_event* evOut = maybeEventOut(t, ev);
    cl_int err = r == 0 ? clEnqueueMarkerWithWaitList(q.queue, w.num, w.ptr, evOut)
                        : clEnqueueBarrierWithWaitList(q.queue, w.num, w.ptr, evOut);
    Allowed a = outcome(t, q.ctx ? Allowed{} : Allowed{CL_INVALID_COMMAND_QUEUE}, w, false);
    const char* call = r == 0 ? "clEnqueueMarkerWithWaitList" : "clEnqueueBarrierWithWaitList";
    t.check(err, a, call);
    if (evOut) keepEvent(t, err, ev, q.ctx, call);
}

void opCreateQueue(Thread& t) {
    if (t.queues.size() > 6) return;
    cl_context ctx = t.rng.chance(0.8) ? t.s.ctxA : t.s.ctxB;
    Allowed errors;
    cl_queue_properties props[5] = {0, 0, 0, 0, 0};
    size_t r = t.rng.below(8);
    if (r < 3) {
        props[0] = CL_QUEUE_PROPERTIES;
        props[1] = r == 0 ? 0 : r == 1 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : CL_QUEUE_PROFILING_ENABLE;
    } else if (r == 3) {
        props[0] = CL_QUEUE_PROPERTIES;
        props[1] = CL_QUEUE_ON_DEVICE;  // on-device queues need out-of-order mode as well
        errors.add(CL_INVALID_VALUE);
        errors.add(CL_INVALID_QUEUE_PROPERTIES);
    } else if (r == 4) {
        props[0] = 0x7777;  // no such property
        props[1] = 1;
        errors.add(CL_INVALID_VALUE);
    }
    cl_device_id device = t.s.device;
    if (r == 5) {
        device = invalidHandle<cl_device_id>(t, kDevice);
        errors.add(CL_INVALID_DEVICE);
    }
    cl_int err = 12345;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, props, &err);
    // An on-device queue asked for on a device without them: either code.
    t.check(err, errors.empty() ? Allowed{CL_SUCCESS} : errors, "clCreateCommandQueueWithProperties");
    if (q) t.queues.push_back({q, ctx});
}

void opCreateKernel(Thread& t) {
    if (t.kernels.size() > 8) return;
    size_t r = t.rng.below(10);
    cl_int err = 12345;
    if (r == 0) {
        cl_kernel k = clCreateKernel(t.s.program, "no_such_kernel", &err);
        t.check(err, {CL_INVALID_KERNEL_NAME}, "clCreateKernel(no such name)");
        if (k) failRun(t.index, t.progress.ops, "clCreateKernel returned a kernel for no name");
        return;
    }
    if (r == 1) {
        clCreateKernel(invalidHandle<cl_program>(t, kProgram), "fill", &err);
        t.check(err, {CL_INVALID_PROGRAM}, "clCreateKernel(not a program)");
        return;
    }
    if (r == 2 && !t.programs.empty()) {
        clCreateKernel(t.rng.pickFrom(t.programs), "fill", &err);  // never built
        t.check(err, {CL_INVALID_PROGRAM_EXECUTABLE}, "clCreateKernel(program not built)");
        return;
    }
    if (r == 3) {
        clCreateKernel(t.s.program, nullptr, &err);
        t.check(err, {CL_INVALID_VALUE}, "clCreateKernel(NULL name)");
        return;
    }
    bool local = t.rng.chance(0.3);
    cl_kernel k = clCreateKernel(t.s.program, local ? "first_of_group" : "fill", &err);
    t.checkSuccess(err, "clCreateKernel");
    t.kernels.push_back({k, local, false, nullptr, false});
}

// Programs from source, never built here (building costs seconds): the API around them.
void opProgram(Thread& t) {
    if (t.programs.size() > 4) return;
    cl_int err = 12345;
    size_t r = t.rng.below(5);
    if (r == 0) {
        clCreateProgramWithSource(t.s.ctxA, 0, nullptr, nullptr, &err);
        t.check(err, {CL_INVALID_VALUE}, "clCreateProgramWithSource(0, NULL)");
        return;
    }
    if (r == 1) {
        const char* strings[2] = {kSource, nullptr};
        clCreateProgramWithSource(t.s.ctxA, 2, strings, nullptr, &err);
        t.check(err, {CL_INVALID_VALUE}, "clCreateProgramWithSource(a NULL string)");
        return;
    }
    const char* text = kSource;
    cl_program p = clCreateProgramWithSource(t.rng.chance(0.5) ? t.s.ctxA : t.s.ctxB, 1, &text, nullptr, &err);
    t.checkSuccess(err, "clCreateProgramWithSource");
    t.programs.push_back(p);
    size_t size = 0;
    cl_build_status status = 12345;
    t.checkSuccess(clGetProgramBuildInfo(p, t.s.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, &size),
                   "clGetProgramBuildInfo");
    if (status != CL_BUILD_NONE) failRun(t.index, t.progress.ops, "a new program's build status is not CL_BUILD_NONE");
    cl_uint n = 0;
    t.check(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), {CL_INVALID_PROGRAM_EXECUTABLE},
            "clGetProgramInfo(CL_PROGRAM_NUM_KERNELS) before a build");
}

void opSampler(Thread& t) {
    if (t.samplers.size() > 4) return;
    cl_int err = 12345;
    bool normalized = t.rng.chance(0.5);
    cl_addressing_mode am = CL_ADDRESS_NONE + static_cast<cl_addressing_mode>(t.rng.below(5));
    cl_filter_mode fm = CL_FILTER_NEAREST + static_cast<cl_filter_mode>(t.rng.below(2));
    Allowed errors;
    if (t.rng.chance(0.1)) {
        am = 0x9999;
        errors.add(CL_INVALID_VALUE);
    }
    // Unnormalized coordinates with repeat addressing: refused since 3.0 (earlier it was undefined).
    if (!normalized && (am == CL_ADDRESS_REPEAT || am == CL_ADDRESS_MIRRORED_REPEAT)) {
        errors.add(CL_INVALID_VALUE);
        errors.add(CL_SUCCESS);
    }
    cl_sampler s = clCreateSampler(t.s.ctxA, normalized, am, fm, &err);
    if (err == CL_INVALID_OPERATION) return;  // no image support: sampler creation refused as allowed
    t.check(err, errors.empty() ? Allowed{CL_SUCCESS} : errors, "clCreateSampler");
    if (s) t.samplers.push_back(s);
}

// Queries: of live objects through the loader, with valid and invalid parameters and sizes; of
// released objects through Hetero's dispatch table.
void opQuery(Thread& t) {
    char buf[256];
    size_t got = 0;
    if (t.rng.chance(0.3)) {
        std::pair<void*, int> d;
        if (!t.dead.empty()) d = t.rng.pickFrom(t.dead);
        else return;
        cl_int err = 0;
        const cl_icd_dispatch& tb = *t.s.table;
        switch (d.second) {
        case kQueue: err = tb.clGetCommandQueueInfo(static_cast<cl_command_queue>(d.first), CL_QUEUE_REFERENCE_COUNT, sizeof buf, buf, &got); break;
        case kMem: err = tb.clGetMemObjectInfo(static_cast<cl_mem>(d.first), CL_MEM_SIZE, sizeof buf, buf, &got); break;
        case kEvent: err = tb.clGetEventInfo(static_cast<cl_event>(d.first), CL_EVENT_REFERENCE_COUNT, sizeof buf, buf, &got); break;
        case kKernel: err = tb.clGetKernelInfo(static_cast<cl_kernel>(d.first), CL_KERNEL_REFERENCE_COUNT, sizeof buf, buf, &got); break;
        case kProgram: err = tb.clGetProgramInfo(static_cast<cl_program>(d.first), CL_PROGRAM_REFERENCE_COUNT, sizeof buf, buf, &got); break;
        case kSampler: err = tb.clGetSamplerInfo(static_cast<cl_sampler>(d.first), CL_SAMPLER_REFERENCE_COUNT, sizeof buf, buf, &got); break;
        }
        static const cl_int invalid[] = {CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT, CL_INVALID_EVENT,
                                         CL_INVALID_KERNEL, CL_INVALID_PROGRAM, CL_INVALID_SAMPLER};
        // CL_SUCCESS: the address now belongs to a newer object of the same kind (or the object
        // is still held inside Hetero, by a command in flight): a live object answers.
        if (err == CL_SUCCESS) t.s.reusedDeadHandles.fetch_add(1);
        else t.check(err, {invalid[d.second]}, "a query of a released handle");
        return;
    }
    cl_int err;
    switch (t.rng.below(4)) {
    case 0: {
        MemPick p = pickMem(t);
        cl_mem_info param = t.rng.chance(0.9) ? CL_MEM_TYPE + static_cast<cl_mem_info>(t.rng.below(10)) : 0x1234;
        size_t size = t.rng.chance(0.1) ? 1 : sizeof buf;
        err = clGetMemObjectInfo(p.mem, param, size, buf, &got);
        Allowed a;
        if (!p.rec) a.add(CL_INVALID_MEM_OBJECT);
        if (param == 0x1234 || size == 1) a.add(CL_INVALID_VALUE);
        if (a.empty()) a.add(CL_SUCCESS);
        t.check(err, a, "clGetMemObjectInfo");
        break;
    }
    case 1: {
        QueuePick q = pickQueue(t);
        cl_command_queue_info param = t.rng.chance(0.9) ? CL_QUEUE_CONTEXT + static_cast<cl_command_queue_info>(t.rng.below(4)) : 0x1234;
        err = clGetCommandQueueInfo(q.queue, param, sizeof buf, buf, &got);
        Allowed a;
        if (!q.ctx) a.add(CL_INVALID_COMMAND_QUEUE);
        if (param == 0x1234) a.add(CL_INVALID_VALUE);
        if (a.empty()) a.add(CL_SUCCESS);
        t.check(err, a, "clGetCommandQueueInfo");
        break;
    }
    case 2: {
        if (t.kernels.empty()) return;
        auto& k = t.rng.pickFrom(t.kernels);
        static const cl_kernel_work_group_info params[] = {CL_KERNEL_WORK_GROUP_SIZE, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                                           CL_KERNEL_LOCAL_MEM_SIZE, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                                           CL_KERNEL_PRIVATE_MEM_SIZE};
        err = clGetKernelWorkGroupInfo(k.kernel, t.s.device, params[t.rng.below(5)], sizeof buf, buf, &got);
        t.checkSuccess(err, "clGetKernelWorkGroupInfo");
        break;
    }
    default: {
        if (t.events.empty()) return;
        auto& e = t.rng.pickFrom(t.events);
        cl_event_info param = CL_EVENT_COMMAND_QUEUE + static_cast<cl_event_info>(t.rng.below(5));
        err = clGetEventInfo(e.event, param, t.rng.chance(0.5) ? 0 : sizeof buf, t.rng.chance(0.5) ? nullptr : buf, &got);
        t.check(err, {CL_SUCCESS, CL_INVALID_VALUE}, "clGetEventInfo");
    }
    }
}

// Retains and releases, keeping the count of references this thread holds; the last release makes
// the handle a released one.
template <class V, class Release>
void dropOne(Thread& t, V& pool, size_t i, int kind, void* handle, Release release) {
    t.checkSuccess(release(), "clRelease*");
    t.dead.push_back({handle, kind});
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(i));
}

void releaseEvent(Thread& t, size_t i) {
    auto& e = t.events[i];
    if (e.user && !e.set) {
        t.checkSuccess(clSetUserEventStatus(e.event, CL_COMPLETE), "clSetUserEventStatus");
        e.set = true;
    }
    cl_event ev = e.event;
    dropOne(t, t.events, i, kEvent, ev, [&] { return clReleaseEvent(ev); });
}

void opRelease(Thread& t) {
    size_t r = t.rng.below(10);
    if (r < 4 && t.events.size() > 4) return releaseEvent(t, t.rng.below(t.events.size()));
    if (r < 6 && t.mems.size() > 2) {
        size_t i = t.rng.below(t.mems.size());
        cl_mem m = t.mems[i].mem;
        for (auto& k : t.kernels)
            if (k.argBuffer == m) k.argReleased = true;
        return dropOne(t, t.mems, i, kMem, m, [&] { return clReleaseMemObject(m); });
    }
    if (r == 6 && t.kernels.size() > 1) {
        size_t i = t.rng.below(t.kernels.size());
        cl_kernel k = t.kernels[i].kernel;
        return dropOne(t, t.kernels, i, kKernel, k, [&] { return clReleaseKernel(k); });
    }
    if (r == 7 && t.queues.size() > 2) {
        size_t i = t.rng.below(t.queues.size());
        cl_command_queue q = t.queues[i].queue;
        return dropOne(t, t.queues, i, kQueue, q, [&] { return clReleaseCommandQueue(q); });
    }
    if (r == 8 && !t.programs.empty()) {
        size_t i = t.rng.below(t.programs.size());
        cl_program p = t.programs[i];
        return dropOne(t, t.programs, i, kProgram, p, [&] { return clReleaseProgram(p); });
    }
    if (r == 9 && !t.samplers.empty()) {
        size_t i = t.rng.below(t.samplers.size());
        cl_sampler s = t.samplers[i];
        return dropOne(t, t.samplers, i, kSampler, s, [&] { return clReleaseSampler(s); });
    }
    // A retain and its release, or an invalid handle to either.
    if (!t.mems.empty() && t.rng.chance(0.5)) {
        cl_mem m = t.rng.pickFrom(t.mems).mem;
        t.checkSuccess(clRetainMemObject(m), "clRetainMemObject");
        t.checkSuccess(clReleaseMemObject(m), "clReleaseMemObject");
    } else {
        t.check(clRetainMemObject(invalidHandle<cl_mem>(t, kMem)), {CL_INVALID_MEM_OBJECT}, "clRetainMemObject(invalid)");
        t.check(clReleaseEvent(invalidHandle<cl_event>(t, kEvent)), {CL_INVALID_EVENT}, "clReleaseEvent(invalid)");
        t.check(clReleaseKernel(invalidHandle<cl_kernel>(t, kKernel)), {CL_INVALID_KERNEL}, "clReleaseKernel(invalid)");
    }
}

struct Op {
    const char* name;
    void (*run)(Thread&);
    unsigned weight;
};
const Op kOps[] = {
    {"create buffer", opCreateBuffer, 8},       {"create sub-buffer", opCreateSubBuffer, 4},
    {"read/write", opReadWrite, 12},            {"copy/fill", opCopyFill, 8},
    {"map/unmap", opMapUnmap, 5},               {"set invalid argument", opSetArgInvalid, 4},
    {"launch", opLaunch, 14},                   {"user event", opUserEvent, 8},
    {"wait", opWait, 3},                        {"marker/barrier/flush/finish", opMarkerBarrierFlush, 6},
    {"create queue", opCreateQueue, 2},         {"create kernel", opCreateKernel, 3},
    {"program", opProgram, 1},                  {"sampler", opSampler, 1},
    {"query", opQuery, 10},                     {"release", opRelease, 10},
};

// HETERO_FUZZ_TEST_STALL: a hang the watchdog must report with this function on the thread's stack.
// Counts one operation on entry, so that the watchdog's limit runs from here.
[[gnu::noinline]] void waitOnAUserEventNobodySets(Thread& t) {
    t.progress.current.store("waiting on a user event nobody sets (HETERO_FUZZ_TEST_STALL)");
    cl_int err;
    cl_event never = clCreateUserEvent(t.s.ctxA, &err);
    t.checkSuccess(err, "clCreateUserEvent");
    t.progress.ops.fetch_add(1);
    clWaitForEvents(1, &never);
    failRun(t.index, t.progress.ops.load(), "clWaitForEvents returned for a user event nobody set");
}

void runThread(Shared& s, unsigned index, uint64_t seed, Progress& progress, std::chrono::steady_clock::time_point end,
               uint64_t maxOps) {
    pthread_setname_np(pthread_self(), ("fuzz " + std::to_string(index)).c_str());  // in the watchdog's stacks
    Thread t(s, index, seed, progress);
    cl_int err;
    t.queues.push_back({clCreateCommandQueueWithProperties(s.ctxA, s.device, nullptr, &err), s.ctxA});
    t.checkSuccess(err, "clCreateCommandQueueWithProperties");
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    t.queues.push_back({clCreateCommandQueueWithProperties(s.ctxA, s.device, ooo, &err), s.ctxA});
    t.checkSuccess(err, "clCreateCommandQueueWithProperties");
    t.queues.push_back({clCreateCommandQueueWithProperties(s.ctxB, s.device, nullptr, &err), s.ctxB});
    t.checkSuccess(err, "clCreateCommandQueueWithProperties");
    // HETERO_FUZZ_SKIP: operations left out (names as in kOps, comma separated), to narrow a failure down.
    const char* skipList = std::getenv("HETERO_FUZZ_SKIP");
    const bool verbose = std::getenv("HETERO_FUZZ_VERBOSE") != nullptr;
    std::string skip = std::string(",") + (skipList ? skipList : "") + ",";
    if (std::getenv("HETERO_FUZZ_TEST_STALL")) waitOnAUserEventNobodySets(t);
    std::vector<unsigned> weights;
    unsigned total = 0;
    for (auto& op : kOps) {
        weights.push_back(skip.find(std::string(",") + op.name + ",") == std::string::npos ? op.weight : 0);
        total += weights.back();
    }
    while (std::chrono::steady_clock::now() < end && progress.ops.load() < maxOps) {
        unsigned w = static_cast<unsigned>(t.rng.below(total));
        size_t i = 0;
        while (w >= weights[i]) w -= weights[i++];
        const Op* op = &kOps[i];
        progress.current.store(op->name);
        op->run(t);
        if (verbose) std::fprintf(stderr, "api_fuzz: thread %u operation %llu: %s %s\n", index,
                                  static_cast<unsigned long long>(progress.ops.load()), op->name, t.detail.c_str());
        t.detail.clear();
        progress.ops.fetch_add(1);
        while (t.events.size() > 24) releaseEvent(t, 0);
    }
    // The end: every user event set, every queue finished, every reference this thread holds released.
    progress.current.store("final release");
    settleUserEvents(t);
    for (auto& q : t.queues) t.check(clFinish(q.queue), {CL_SUCCESS}, "clFinish (at the end)");
    while (!t.events.empty()) releaseEvent(t, t.events.size() - 1);
    for (auto& k : t.kernels) t.checkSuccess(clReleaseKernel(k.kernel), "clReleaseKernel"), t.dead.push_back({k.kernel, kKernel});
    for (auto p : t.programs) t.checkSuccess(clReleaseProgram(p), "clReleaseProgram"), t.dead.push_back({p, kProgram});
    for (auto sm : t.samplers) t.checkSuccess(clReleaseSampler(sm), "clReleaseSampler"), t.dead.push_back({sm, kSampler});
    // Sub-buffers before their parents.
    std::stable_partition(t.mems.begin(), t.mems.end(), [](const MemRec& m) { return m.parent != nullptr; });
    for (auto& m : t.mems) t.checkSuccess(clReleaseMemObject(m.mem), "clReleaseMemObject"), t.dead.push_back({m.mem, kMem});
    for (auto& q : t.queues) t.checkSuccess(clReleaseCommandQueue(q.queue), "clReleaseCommandQueue"), t.dead.push_back({q.queue, kQueue});
    std::lock_guard<std::mutex> lock(s.deadMutex);
    s.dead.insert(s.dead.end(), t.dead.begin(), t.dead.end());
    s.hostMemory.push_back(std::move(t.arena));
    for (auto& p : t.hostPtrs) s.hostMemory.push_back(std::move(p));
    progress.current.store("done");
}

uint64_t envNumber(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

cl_platform_id heteroPlatform() {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) failRun(0, 0, "no OpenCL platform");
    std::vector<cl_platform_id> platforms(n);
    clGetPlatformIDs(n, platforms.data(), nullptr);
    for (auto p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::string(name) == "Hetero") return p;
    }
    failRun(0, 0, "no platform named Hetero is visible through the ICD loader");
}

}  // namespace

int main() {
    uint64_t seed = envNumber("HETERO_FUZZ_SEED", std::random_device{}());
    runSeed = seed;
    double seconds = static_cast<double>(envNumber("HETERO_FUZZ_SECONDS", 20));
    unsigned threads = static_cast<unsigned>(std::max<uint64_t>(1, envNumber("HETERO_FUZZ_THREADS", 3)));
    uint64_t maxOps = envNumber("HETERO_FUZZ_MAX_OPS", UINT64_MAX);
    std::printf("api_fuzz: seed %llu, %u thread(s), %.0f s\n", static_cast<unsigned long long>(seed), threads, seconds);
    std::fflush(stdout);

    Shared s;
    s.platform = heteroPlatform();
    s.table = *reinterpret_cast<const cl_icd_dispatch* const*>(s.platform);
    cl_int err;
    if (clGetDeviceIDs(s.platform, CL_DEVICE_TYPE_ALL, 1, &s.device, nullptr) != CL_SUCCESS) failRun(0, 0, "no device");
    clGetDeviceInfo(s.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof s.maxItemSizes, s.maxItemSizes, nullptr);
    cl_uint alignBits = 1024;
    clGetDeviceInfo(s.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr);
    s.baseAlignBytes = std::max<cl_uint>(alignBits / 8, 8);
    clGetDeviceInfo(s.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof s.maxAlloc, &s.maxAlloc, nullptr);
    s.ctxA = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) failRun(0, 0, "clCreateContext");
    s.ctxB = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) failRun(0, 0, "clCreateContext");
    s.program = clCreateProgramWithSource(s.ctxA, 1, &kSource, nullptr, &err);
    if (err != CL_SUCCESS || clBuildProgram(s.program, 1, &s.device, "", nullptr, nullptr) != CL_SUCCESS)
        failRun(0, 0, "building the fuzzer's kernels");
    s.kernelWorkGroup = SIZE_MAX;
    for (const char* name : {"fill", "first_of_group"}) {
        cl_kernel k = clCreateKernel(s.program, name, &err);
        size_t wg = 0;
        if (err != CL_SUCCESS || clGetKernelWorkGroupInfo(k, s.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr) != CL_SUCCESS)
            failRun(0, 0, "CL_KERNEL_WORK_GROUP_SIZE");
        s.kernelWorkGroup = std::min(s.kernelWorkGroup, wg);
        clReleaseKernel(k);
    }
    s.localInts = std::min<size_t>(s.kernelWorkGroup, 1024);
    for (int i = 0; i < 4; ++i) {
        s.buffers.push_back(clCreateBuffer(s.ctxA, CL_MEM_READ_WRITE, kSharedBufferSize, nullptr, &err));
        if (err != CL_SUCCESS) failRun(0, 0, "clCreateBuffer");
    }
    std::atomic<cl_uint> contextDestructorsRun{0};
    for (cl_context c : {s.ctxA, s.ctxB})
        if (clSetContextDestructorCallback(c, [](cl_context, void* n) { ++*static_cast<std::atomic<cl_uint>*>(n); }, &contextDestructorsRun) != CL_SUCCESS)
            failRun(0, 0, "clSetContextDestructorCallback");

    // The watchdog: no operation may take longer than this (a build under ASan takes seconds).
    const auto stallLimit = std::chrono::seconds(envNumber("HETERO_FUZZ_STALL_SECONDS", 180));
    std::vector<Progress> progress(threads);
    crash_report::install(progress.data(), progress.size(), seed);
    thread_stacks::prepare();
    std::atomic<bool> finished{false};
    std::thread watchdog([&] {
        pthread_setname_np(pthread_self(), "fuzz watchdog");
        std::vector<uint64_t> last(threads, 0);
        auto lastChange = std::chrono::steady_clock::now();
        while (!finished.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            bool moved = false;
            for (unsigned i = 0; i < threads; ++i) {
                uint64_t n = progress[i].ops.load();
                if (n != last[i]) moved = true, last[i] = n;
            }
            if (moved) lastChange = std::chrono::steady_clock::now();
            else if (std::chrono::steady_clock::now() - lastChange > stallLimit) {
                std::string where;
                for (unsigned i = 0; i < threads; ++i)
                    where += "\n  thread " + std::to_string(i) + ": in \"" + progress[i].current.load() + "\" after " +
                             std::to_string(progress[i].ops.load()) + " operations";
                std::fprintf(stderr, "api_fuzz: HANG (seed %llu): no thread finished an operation for %lld s:%s\n"
                                     "  event callbacks run %llu of %llu, memory destructor callbacks %llu of %llu, "
                                     "context destructor callbacks %u of 2\n",
                             static_cast<unsigned long long>(seed), static_cast<long long>(stallLimit.count()), where.c_str(),
                             static_cast<unsigned long long>(s.callbacksRun.load()),
                             static_cast<unsigned long long>(s.callbacksRegistered.load()),
                             static_cast<unsigned long long>(s.destructorsRun.load()),
                             static_cast<unsigned long long>(s.destructorsRegistered.load()), contextDestructorsRun.load());
                std::fflush(stderr);
                thread_stacks::printAll(stderr, std::chrono::seconds(1));
                std::abort();  // and a core dump, where enabled
            }
        }
    });

    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
    std::vector<std::thread> workers;
    for (unsigned i = 0; i < threads; ++i)
        workers.emplace_back(runThread, std::ref(s), i, seed * 7919 + i, std::ref(progress[i]), end, maxOps);
    for (auto& w : workers) w.join();

    // No leaks: once everything is released, every callback has run and every handle is refused.
    for (cl_mem b : s.buffers) clReleaseMemObject(b), s.dead.push_back({b, kMem});
    clReleaseProgram(s.program);
    clReleaseContext(s.ctxA);
    clReleaseContext(s.ctxB);
    Progress& last = progress[0];
    last.current.store("waiting for callbacks");
    auto pending = [&] {
        return s.callbacksRun.load() != s.callbacksRegistered.load() || s.destructorsRun.load() != s.destructorsRegistered.load() ||
               contextDestructorsRun != 2;
    };
    // Callbacks run on Hetero's threads: wait for them (bounded: what never comes is a leak).
    finished = true;
    watchdog.join();
    auto waitEnd = std::chrono::steady_clock::now() + stallLimit;
    while (pending() && std::chrono::steady_clock::now() < waitEnd) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (s.callbacksRun > s.callbacksRegistered || s.destructorsRun > s.destructorsRegistered)
        failRun(0, 0, "a callback ran more than once");
    size_t stillLive = 0;
    for (auto& [h, kind] : s.dead) {
        size_t got;
        char buf[64];
        const cl_icd_dispatch& tb = *s.table;
        cl_int e = kind == kQueue    ? tb.clGetCommandQueueInfo(static_cast<cl_command_queue>(h), CL_QUEUE_REFERENCE_COUNT, sizeof buf, buf, &got)
                   : kind == kMem    ? tb.clGetMemObjectInfo(static_cast<cl_mem>(h), CL_MEM_SIZE, sizeof buf, buf, &got)
                   : kind == kEvent  ? tb.clGetEventInfo(static_cast<cl_event>(h), CL_EVENT_REFERENCE_COUNT, sizeof buf, buf, &got)
                   : kind == kKernel ? tb.clGetKernelInfo(static_cast<cl_kernel>(h), CL_KERNEL_REFERENCE_COUNT, sizeof buf, buf, &got)
                   : kind == kProgram ? tb.clGetProgramInfo(static_cast<cl_program>(h), CL_PROGRAM_REFERENCE_COUNT, sizeof buf, buf, &got)
                                      : tb.clGetSamplerInfo(static_cast<cl_sampler>(h), CL_SAMPLER_REFERENCE_COUNT, sizeof buf, buf, &got);
        if (e == CL_SUCCESS) {
            ++stillLive;
            auto origin = s.origins.find(h);
            std::fprintf(stderr, "api_fuzz: a released %s (%p%s%s) is still live\n", kindName(kind), h,
                         origin == s.origins.end() ? "" : ", made by ",
                         origin == s.origins.end() ? "" : origin->second.c_str());
        }
    }
    uint64_t ops = 0;
    for (auto& p : progress) ops += p.ops.load();
    std::printf("api_fuzz: %llu operations, %llu callbacks, %llu destructor callbacks, %zu handles released, "
                "%llu queries of released handles answered by a newer object\n",
                static_cast<unsigned long long>(ops), static_cast<unsigned long long>(s.callbacksRun.load()),
                static_cast<unsigned long long>(s.destructorsRun.load()), s.dead.size(),
                static_cast<unsigned long long>(s.reusedDeadHandles.load()));
    if (stillLive) failRun(0, ops, std::to_string(stillLive) + " released handles are still live after everything was released", true);
    if (pending())
        failRun(0, ops, "callbacks missing after everything was released: event callbacks " +
                            std::to_string(s.callbacksRun.load()) + " of " + std::to_string(s.callbacksRegistered.load()) +
                            ", memory destructor callbacks " + std::to_string(s.destructorsRun.load()) + " of " +
                            std::to_string(s.destructorsRegistered.load()) + ", context destructor callbacks " +
                            std::to_string(contextDestructorsRun.load()) + " of 2",
                true);
    std::printf("api_fuzz: PASS\n");
    return 0;
}
