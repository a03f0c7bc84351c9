// The one layer through which Hetero calls a backend (PoCL, NVIDIA): every backend object is called
// through its own dispatch table, as an ICD loader would. Owners release backend objects when they
// go; checked calls turn a backend's error into an Error (platform/support/error.hpp). Commands and
// events have named operations of their own (backend_commands.hpp).
#pragma once

#include "devices/call_count.hpp"
#include "devices/call_pipe.hpp"
#include "devices/view_lock.hpp"
#include "platform/support/error.hpp"
#include "platform/support/object.hpp"

#include <string_view>

#include <utility>
#include <vector>

// Calls a backend object's entry point through its own dispatch table; for a backend whose views
// need it, under the shared view lock (devices/view_lock.hpp), except calls that wait.
#define BACKEND(object, function)                                                                   \
    (::hetero::backend::Call<decltype((object)->dispatch->function), ::hetero::backend::waits(#function), \
                             ::hetero::backend::ordered(#function)>{(object)->dispatch->function, (object)->dispatch, #function})

namespace hetero {
namespace backend {

// Calls that wait for other work never hold the view lock (view_lock.hpp).
constexpr bool waits(std::string_view function) { return function == "clWaitForEvents" || function == "clFinish"; }
// Calls whose order with the launches that pipes make (call_pipe.hpp) can be observed: they wait
// until the pipes have made what was pushed before them.
constexpr bool ordered(std::string_view function) {
    return function.substr(0, 9) == "clEnqueue" || function == "clFlush" || function == "clFinish" ||
           function == "clSetKernelArg" || function == "clReleaseMemObject" || function == "clReleaseKernel" ||
           function == "clReleaseCommandQueue" || function == "clReleaseProgram" || function == "clReleaseContext" ||
           function == "clReleaseSampler";
}

template <class Fn, bool Waits, bool Ordered>
struct Call {
    Fn fn;
    const void* dispatch;
    const char* name;
    template <class... Args>
    auto operator()(Args&&... args) const -> decltype(fn(std::forward<Args>(args)...)) {
        if constexpr (Ordered) drainPipes();
        if (countingCalls()) {
            CountedCall counted(dispatch, name);
            return call(std::forward<Args>(args)...);
        }
        return call(std::forward<Args>(args)...);
    }
    template <class... Args>
    auto call(Args&&... args) const -> decltype(fn(std::forward<Args>(args)...)) {
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

}  // namespace backend
}  // namespace hetero
