// The one layer through which Hetero calls a backend (PoCL, NVIDIA): every backend object is called
// through its own dispatch table, as an ICD loader would. Owners release backend objects when they
// go; checked calls turn a backend's error into an Error (platform/support/error.hpp).
#pragma once

#include "devices/view_lock.hpp"
#include "platform/support/error.hpp"
#include "platform/support/object.hpp"

#include <string_view>

#include <functional>
#include <utility>
#include <vector>

// Calls a backend object's entry point through its own dispatch table; for a backend whose views
// need it, under the shared view lock (devices/view_lock.hpp), except calls that wait.
#define BACKEND(object, function)                                                                   \
    (::hetero::backend::Call<decltype((object)->dispatch->function), ::hetero::backend::waits(#function)>{ \
        (object)->dispatch->function})

namespace hetero {
namespace backend {

// Calls that wait for other work never hold the view lock (view_lock.hpp).
constexpr bool waits(std::string_view function) { return function == "clWaitForEvents" || function == "clFinish"; }

template <class Fn, bool Waits>
struct Call {
    Fn fn;
    template <class... Args>
    auto operator()(Args&&... args) const -> decltype(fn(std::forward<Args>(args)...)) {
        if (Waits || !viewsLocked()) return fn(std::forward<Args>(args)...);
        SharedCall hold;
        return fn(std::forward<Args>(args)...);
    }
};

}  // namespace backend

// Fails (throws Error) when a backend call did.
inline void check(cl_int err) {
    if (err != CL_SUCCESS) fail(err);
}

inline const cl_event* listOrNull(const std::vector<cl_event>& v) { return v.empty() ? nullptr : v.data(); }

namespace backend {

template <class Handle>
struct Refcount;
#define HETERO_BACKEND_REFCOUNT(Handle, Retain, Release)                         \
    template <>                                                                  \
    struct Refcount<Handle> {                                                    \
        static void retain(Handle h) { BACKEND(h, Retain)(h); }                  \
        static void release(Handle h) { BACKEND(h, Release)(h); }                \
    };
HETERO_BACKEND_REFCOUNT(cl_event, clRetainEvent, clReleaseEvent)
HETERO_BACKEND_REFCOUNT(cl_mem, clRetainMemObject, clReleaseMemObject)
HETERO_BACKEND_REFCOUNT(cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue)
HETERO_BACKEND_REFCOUNT(cl_kernel, clRetainKernel, clReleaseKernel)
HETERO_BACKEND_REFCOUNT(cl_program, clRetainProgram, clReleaseProgram)
HETERO_BACKEND_REFCOUNT(cl_context, clRetainContext, clReleaseContext)
HETERO_BACKEND_REFCOUNT(cl_sampler, clRetainSampler, clReleaseSampler)
#undef HETERO_BACKEND_REFCOUNT

// One reference to a backend object, released when the owner goes. Moves, never copies.
template <class Handle>
class Owned {
public:
    Owned() = default;
    explicit Owned(Handle adopted) : h_(adopted) {}  // takes over a reference the caller holds
    static Owned retained(Handle h) {               // takes a reference of its own
        if (h) Refcount<Handle>::retain(h);
        return Owned(h);
    }
    Owned(Owned&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Owned& operator=(Owned&& o) noexcept {
        if (this != &o) reset(std::exchange(o.h_, nullptr));
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }

    Handle get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }
    // Gives the reference to the caller.
    Handle release() { return std::exchange(h_, nullptr); }
    void reset(Handle h = nullptr) {
        if (h_) Refcount<Handle>::release(h_);
        h_ = h;
    }
    // For a backend call's out-parameter: drops what was held, then receives the new reference.
    Handle* receive() {
        reset();
        return &h_;
    }

private:
    Handle h_ = nullptr;
};

using Event = Owned<cl_event>;
using Buffer = Owned<cl_mem>;
using Queue = Owned<cl_command_queue>;
using Kernel = Owned<cl_kernel>;
using Program = Owned<cl_program>;
using Context = Owned<cl_context>;
using Sampler = Owned<cl_sampler>;

// Events.
inline cl_int status(cl_event e) {
    cl_int st = CL_QUEUED;
    BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    return st;
}
inline bool done(cl_event e) { return status(e) <= CL_COMPLETE; }
inline void wait(cl_event e) { check(BACKEND(e, clWaitForEvents)(1, &e)); }
inline void waitAll(const std::vector<cl_event>& events) {
    for (cl_event e : events) wait(e);
}
inline void releaseAll(std::vector<cl_event>& events) {
    for (cl_event e : events) BACKEND(e, clReleaseEvent)(e);
    events.clear();
}
inline void complete(cl_event userEvent, cl_int status) { BACKEND(userEvent, clSetUserEventStatus)(userEvent, status); }

// A blocking transfer or map: `enqueue(cl_event* done)` enqueues it without blocking (holding the
// view lock where it applies), and the wait for `done` happens without the lock (view_lock.hpp: no
// call that holds it waits for another thread). Returns the enqueue's error or the wait's.
template <typename Enqueue>
cl_int enqueueAndWait(Enqueue enqueue) {
    cl_event done = nullptr;
    cl_int err = enqueue(&done);
    if (err != CL_SUCCESS) return err;
    err = BACKEND(done, clWaitForEvents)(1, &done);
    BACKEND(done, clReleaseEvent)(done);
    return err;
}
// Maps `bytes` of `mem` at `offset` and waits for the map (as enqueueAndWait). Null on failure, with `*errOut`.
inline void* mapAndWait(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t offset, size_t bytes, cl_int* errOut) {
    void* p = nullptr;
    cl_int err = enqueueAndWait([&](cl_event* done) {
        cl_int e = CL_SUCCESS;
        p = BACKEND(queue, clEnqueueMapBuffer)(queue, mem, CL_FALSE, flags, offset, bytes, 0, nullptr, done, &e);
        return p ? CL_SUCCESS : (e == CL_SUCCESS ? CL_OUT_OF_RESOURCES : e);
    });
    if (err != CL_SUCCESS && p) {
        BACKEND(queue, clEnqueueUnmapMemObject)(queue, mem, p, 0, nullptr, nullptr);
        p = nullptr;
    }
    if (errOut) *errOut = err;
    return p;
}

// Runs `fn` with the final status from the backend's completion callback of `e` (on the backend's
// thread: no blocking calls there). False when the backend refuses the callback (`fn` never runs).
bool whenComplete(cl_event e, std::function<void(cl_int)> fn);

// Maps `bytes` of a backend buffer (blocking), runs `use` on them, unmaps.
template <typename Use>
void withMapped(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t bytes, Use use) {
    cl_int err = CL_SUCCESS;
    void* p = mapAndWait(queue, mem, flags, 0, bytes, &err);
    if (!p) fail(err);
    try {
        use(static_cast<unsigned char*>(p));
    } catch (...) {
        BACKEND(queue, clEnqueueUnmapMemObject)(queue, mem, p, 0, nullptr, nullptr);
        throw;
    }
    check(BACKEND(queue, clEnqueueUnmapMemObject)(queue, mem, p, 0, nullptr, nullptr));
}

}  // namespace backend
}  // namespace hetero
