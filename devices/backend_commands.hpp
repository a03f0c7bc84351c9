// Commands and events on a backend: everything Hetero enqueues on a backend queue, waits for, or
// asks of a backend event, as named, typed operations over the calls (backend_call.hpp dispatches
// them). Enqueues never block and return the backend's error (the API layer hands it to the
// application; internal paths check() it); `done` may be null when nobody needs the command's event.
// Blocking transfers and maps are enqueueAndWait / mapAndWait, which wait without the view lock.
#pragma once

#include "devices/backend_call.hpp"

#include <atomic>
#include <functional>
#include <utility>
#include <vector>

namespace hetero::backend {

// The events a command waits for, as the backend takes them: a vector's (not copied) or a
// (pointer, count); an empty list is passed as (nullptr, 0).
class WaitList {
public:
    WaitList() = default;
    WaitList(const std::vector<cl_event>& v) : events_(v.empty() ? nullptr : v.data()), count_(static_cast<cl_uint>(v.size())) {}
    WaitList(const cl_event* events, cl_uint count) : events_(count ? events : nullptr), count_(count) {}
    const cl_event* events() const { return events_; }
    cl_uint count() const { return count_; }

private:
    const cl_event* events_ = nullptr;
    cl_uint count_ = 0;
};

// ---- Commands (non-blocking) ----

inline cl_int enqueueKernel(cl_command_queue q, cl_kernel kernel, cl_uint dims, const size_t* offset, const size_t* global,
                            const size_t* local, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueNDRangeKernel)(q, kernel, dims, offset, global, local, wait.count(), wait.events(), done);
}
inline cl_int enqueueRead(cl_command_queue q, cl_mem mem, size_t offset, size_t bytes, void* to, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueReadBuffer)(q, mem, CL_FALSE, offset, bytes, to, wait.count(), wait.events(), done);
}
inline cl_int enqueueWrite(cl_command_queue q, cl_mem mem, size_t offset, size_t bytes, const void* from, WaitList wait,
                           cl_event* done) {
    return BACKEND(q, clEnqueueWriteBuffer)(q, mem, CL_FALSE, offset, bytes, from, wait.count(), wait.events(), done);
}
inline cl_int enqueueCopy(cl_command_queue q, cl_mem from, cl_mem to, size_t fromOffset, size_t toOffset, size_t bytes,
                          WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueCopyBuffer)(q, from, to, fromOffset, toOffset, bytes, wait.count(), wait.events(), done);
}
inline cl_int enqueueFill(cl_command_queue q, cl_mem mem, const void* pattern, size_t patternBytes, size_t offset,
                          size_t bytes, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueFillBuffer)(q, mem, pattern, patternBytes, offset, bytes, wait.count(), wait.events(), done);
}

// A box of a buffer and one of host memory, each with its own pitches (clEnqueueReadBufferRect).
struct RectPitches {
    size_t bufferRow, bufferSlice, hostRow, hostSlice;
};
inline cl_int enqueueReadRect(cl_command_queue q, cl_mem mem, const size_t* bufferOrigin, const size_t* hostOrigin,
                              const size_t* region, RectPitches p, void* to, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueReadBufferRect)(q, mem, CL_FALSE, bufferOrigin, hostOrigin, region, p.bufferRow,
                                               p.bufferSlice, p.hostRow, p.hostSlice, to, wait.count(), wait.events(), done);
}
inline cl_int enqueueWriteRect(cl_command_queue q, cl_mem mem, const size_t* bufferOrigin, const size_t* hostOrigin,
                               const size_t* region, RectPitches p, const void* from, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueWriteBufferRect)(q, mem, CL_FALSE, bufferOrigin, hostOrigin, region, p.bufferRow,
                                                p.bufferSlice, p.hostRow, p.hostSlice, from, wait.count(), wait.events(), done);
}
inline cl_int enqueueCopyRect(cl_command_queue q, cl_mem from, cl_mem to, const size_t* fromOrigin, const size_t* toOrigin,
                              const size_t* region, size_t fromRow, size_t fromSlice, size_t toRow, size_t toSlice,
                              WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueCopyBufferRect)(q, from, to, fromOrigin, toOrigin, region, fromRow, fromSlice, toRow, toSlice,
                                               wait.count(), wait.events(), done);
}

inline cl_int enqueueReadImage(cl_command_queue q, cl_mem image, const size_t* origin, const size_t* region, size_t rowPitch,
                               size_t slicePitch, void* to, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueReadImage)(q, image, CL_FALSE, origin, region, rowPitch, slicePitch, to, wait.count(),
                                          wait.events(), done);
}
inline cl_int enqueueWriteImage(cl_command_queue q, cl_mem image, const size_t* origin, const size_t* region,
                                size_t rowPitch, size_t slicePitch, const void* from, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueWriteImage)(q, image, CL_FALSE, origin, region, rowPitch, slicePitch, from, wait.count(),
                                           wait.events(), done);
}
inline cl_int enqueueCopyImage(cl_command_queue q, cl_mem from, cl_mem to, const size_t* fromOrigin, const size_t* toOrigin,
                               const size_t* region, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueCopyImage)(q, from, to, fromOrigin, toOrigin, region, wait.count(), wait.events(), done);
}
inline cl_int enqueueFillImage(cl_command_queue q, cl_mem image, const void* color, const size_t* origin,
                               const size_t* region, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueFillImage)(q, image, color, origin, region, wait.count(), wait.events(), done);
}
inline cl_int enqueueCopyImageToBuffer(cl_command_queue q, cl_mem image, cl_mem buffer, const size_t* origin,
                                       const size_t* region, size_t offset, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueCopyImageToBuffer)(q, image, buffer, origin, region, offset, wait.count(), wait.events(), done);
}
inline cl_int enqueueCopyBufferToImage(cl_command_queue q, cl_mem buffer, cl_mem image, size_t offset, const size_t* origin,
                                       const size_t* region, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueCopyBufferToImage)(q, buffer, image, offset, origin, region, wait.count(), wait.events(), done);
}

// Null on failure, with the backend's error in `*err`.
inline void* enqueueMap(cl_command_queue q, cl_mem mem, cl_map_flags flags, size_t offset, size_t bytes, WaitList wait,
                        cl_event* done, cl_int* err) {
    return BACKEND(q, clEnqueueMapBuffer)(q, mem, CL_FALSE, flags, offset, bytes, wait.count(), wait.events(), done, err);
}
inline cl_int enqueueUnmap(cl_command_queue q, cl_mem mem, void* mapped, WaitList wait = {}, cl_event* done = nullptr) {
    return BACKEND(q, clEnqueueUnmapMemObject)(q, mem, mapped, wait.count(), wait.events(), done);
}

// A marker: complete once `wait` is (an empty list: once everything before it on `q` is).
inline cl_int enqueueMarker(cl_command_queue q, WaitList wait, cl_event* done) {
    return BACKEND(q, clEnqueueMarkerWithWaitList)(q, wait.count(), wait.events(), done);
}

inline cl_int flush(cl_command_queue q) { return BACKEND(q, clFlush)(q); }
// ---- Waits ----
//
// NVIDIA's own waits (clWaitForEvents, clFinish) spin on a core until the GPU is done. While a
// split's CPU part runs, PoCL has a worker thread on every core, and each spinning waiter (the
// application's clFinish, the split's thread) takes one from it: a worker that loses its core holds
// its work-groups until it is scheduled again, and the CPU's part ends late. So while any
// QuietWaits is held, Hetero's waits sleep instead, asking the event between short sleeps (not its
// completion callback: backend_commands.cpp says why). Once the last holder lets go, a wait still
// running goes on as the backend's own, whose wake-up is as prompt as a native wait's.
inline std::atomic<unsigned> quietWaitHolders{0};
// Held by a split launch from its submission until its CPU part is done.
class QuietWaits {
public:
    QuietWaits() = default;
    explicit QuietWaits(bool hold) : held_(hold) {
        if (held_) quietWaitHolders.fetch_add(1, std::memory_order_relaxed);
    }
    QuietWaits(QuietWaits&& o) noexcept : held_(std::exchange(o.held_, false)) {}
    QuietWaits& operator=(QuietWaits&& o) noexcept {
        if (this != &o) {
            release();
            held_ = std::exchange(o.held_, false);
        }
        return *this;
    }
    ~QuietWaits() { release(); }
    void release() {
        if (std::exchange(held_, false)) quietWaitHolders.fetch_sub(1, std::memory_order_acq_rel);
    }

private:
    bool held_ = false;
};
inline bool waitsQuiet() { return quietWaitHolders.load(std::memory_order_acquire) != 0; }
// Waits for `e` as above; the same result as clWaitForEvents.
cl_int waitQuietly(cl_event e);
// A marker on `q` waited for as above, as clFinish would be.
cl_int finishQuietly(cl_command_queue q);

// Waits (never under the view lock) for everything enqueued on `q`.
inline cl_int finish(cl_command_queue q) { return waitsQuiet() ? finishQuietly(q) : BACKEND(q, clFinish)(q); }

// ---- Events ----

// For a reference that is handed on raw (a list of events, a C callback, another thread's hands).
inline cl_event retainEvent(cl_event e) {
    BACKEND(e, clRetainEvent)(e);
    return e;
}
inline void releaseEvent(cl_event e) { BACKEND(e, clReleaseEvent)(e); }

// Waits (never under the view lock); the backend's error, CL_EXEC_STATUS_... when one failed.
inline cl_int waitFor(cl_event e) { return waitsQuiet() ? waitQuietly(e) : BACKEND(e, clWaitForEvents)(1, &e); }
inline cl_int waitFor(WaitList events) {
    if (events.count() == 0) return CL_SUCCESS;
    if (!waitsQuiet()) return BACKEND(events.events()[0], clWaitForEvents)(events.count(), events.events());
    cl_int result = CL_SUCCESS;
    for (cl_uint i = 0; i < events.count(); ++i)
        if (cl_int err = waitQuietly(events.events()[i]); err != CL_SUCCESS && result == CL_SUCCESS) result = err;
    return result;
}
inline void wait(cl_event e) { check(waitFor(e)); }
inline void waitAll(const std::vector<cl_event>& events) {
    for (cl_event e : events) wait(e);
}
inline void releaseAll(std::vector<cl_event>& events) {
    for (cl_event e : events) releaseEvent(e);
    events.clear();
}

// The query's error; `*status` (CL_COMPLETE or negative when final) is left as it was on failure.
inline cl_int eventStatus(cl_event e, cl_int* status) {
    return BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status, status, nullptr);
}
// CL_QUEUED when the backend does not say.
inline cl_int status(cl_event e) {
    cl_int st = CL_QUEUED;
    eventStatus(e, &st);
    return st;
}
inline bool done(cl_event e) { return status(e) <= CL_COMPLETE; }
// The queue that ran `e`; null for a user event or when the backend does not say.
inline cl_command_queue eventQueue(cl_event e) {
    cl_command_queue of = nullptr;
    BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_QUEUE, sizeof of, &of, nullptr);
    return of;
}
inline cl_int eventContext(cl_event e, cl_context* made) {
    return BACKEND(e, clGetEventInfo)(e, CL_EVENT_CONTEXT, sizeof *made, made, nullptr);
}
// A device timestamp of `e` (CL_PROFILING_COMMAND_START, ..._END): the query's error.
inline cl_int profilingTime(cl_event e, cl_profiling_info which, cl_ulong* nanoseconds) {
    return BACKEND(e, clGetEventProfilingInfo)(e, which, sizeof *nanoseconds, nanoseconds, nullptr);
}

// Calls `callback(e, status, data)` on the backend's thread when `e` completes (no blocking calls
// there). No allocation: for hot paths. The backend's error when it refuses.
inline cl_int onComplete(cl_event e, void(CL_CALLBACK* callback)(cl_event, cl_int, void*), void* data) {
    return BACKEND(e, clSetEventCallback)(e, CL_COMPLETE, callback, data);
}
// Runs `fn` with the final status from the backend's completion callback of `e` (on the backend's
// thread: no blocking calls there). False when the backend refuses the callback (`fn` never runs).
bool whenComplete(cl_event e, std::function<void(cl_int)> fn);

// A user event of `context`; empty on failure (with the backend's error in `*err`). On NVIDIA one
// that merely exists keeps a driver thread spinning on a core, until about 40 ms after its release
// (bench/tools/wait_cores, docs/results/h100-session28).
inline Event userEvent(cl_context context, cl_int* err = nullptr) {
    cl_int e = CL_SUCCESS;
    Event made(BACKEND(context, clCreateUserEvent)(context, &e));
    if (err) *err = e;
    return made;
}
inline void complete(cl_event userEvent, cl_int status) { BACKEND(userEvent, clSetUserEventStatus)(userEvent, status); }

// ---- Blocking, waiting outside the view lock ----

// A blocking transfer or map: `enqueue(cl_event* done)` enqueues it without blocking (holding the
// view lock where it applies), and the wait for `done` happens without the lock (view_lock.hpp: no
// call that holds it waits for another thread). Returns the enqueue's error or the wait's.
template <typename Enqueue>
cl_int enqueueAndWait(Enqueue enqueue) {
    cl_event done = nullptr;
    cl_int err = enqueue(&done);
    if (err != CL_SUCCESS) return err;
    err = waitFor(done);
    releaseEvent(done);
    return err;
}
// Maps `bytes` of `mem` at `offset` and waits for the map (as enqueueAndWait). Null on failure, with `*errOut`.
inline void* mapAndWait(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t offset, size_t bytes, cl_int* errOut) {
    void* p = nullptr;
    cl_int err = enqueueAndWait([&](cl_event* done) {
        cl_int e = CL_SUCCESS;
        p = enqueueMap(queue, mem, flags, offset, bytes, {}, done, &e);
        return p ? CL_SUCCESS : (e == CL_SUCCESS ? CL_OUT_OF_RESOURCES : e);
    });
    if (err != CL_SUCCESS && p) {
        enqueueUnmap(queue, mem, p);
        p = nullptr;
    }
    if (errOut) *errOut = err;
    return p;
}

// Maps `bytes` of a backend buffer (blocking), runs `use` on them, unmaps.
template <typename Use>
void withMapped(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t bytes, Use use) {
    cl_int err = CL_SUCCESS;
    void* p = mapAndWait(queue, mem, flags, 0, bytes, &err);
    if (!p) fail(err);
    try {
        use(static_cast<unsigned char*>(p));
    } catch (...) {
        enqueueUnmap(queue, mem, p);
        throw;
    }
    check(enqueueUnmap(queue, mem, p));
}

}  // namespace hetero::backend
