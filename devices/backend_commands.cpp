#include "devices/backend_commands.hpp"

#include <chrono>
#include <memory>
#include <thread>

namespace hetero::backend {

namespace {
using Completion = std::function<void(cl_int)>;
void CL_CALLBACK runCompletion(cl_event, cl_int status, void* data) {
    InBackendCallback inside;
    std::unique_ptr<Completion> fn(static_cast<Completion*>(data));
    (*fn)(status);
}

// How a quiet wait asks its event. NVIDIA's completion callbacks are no way to hear it: they came
// 7.6 ms after a 50 ms kernel's end, 18 ms after a 2 ms kernel's, and while one is pending NVIDIA
// keeps a thread of its own spinning (bench/tools/wait_cores, docs/results/h100-session27). So it
// asks: first for kQuietSpin, giving the core away between asks (a transfer piece of a split's
// preparation takes tens of microseconds), then between sleeps of kQuietSleep, which cost a waiter
// a few percent of a core and its wake-up about that much (plus the kernel's timer slack).
constexpr auto kQuietSpin = std::chrono::microseconds(50);
constexpr auto kQuietSleep = std::chrono::microseconds(50);

// clWaitForEvents' answer for an event whose status is `status` (final), or the query's error.
cl_int waitResult(cl_int queried, cl_int status) {
    if (queried != CL_SUCCESS) return queried;
    return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}
}  // namespace

bool whenComplete(cl_event e, std::function<void(cl_int)> fn) {
    auto* held = new Completion(std::move(fn));
    if (onComplete(e, runCompletion, held) == CL_SUCCESS) return true;
    delete held;
    return false;
}

cl_int waitQuietly(cl_event e) {
    cl_int status = CL_QUEUED;
    cl_int queried = eventStatus(e, &status);
    if (queried != CL_SUCCESS || status <= CL_COMPLETE) return waitResult(queried, status);
    const auto spinUntil = std::chrono::steady_clock::now() + kQuietSpin;
    for (;;) {
        const bool spinning = std::chrono::steady_clock::now() < spinUntil;
        // The CPU part is done: from here the backend's own wait, whose wake-up is prompt. So too
        // for a command still queued after the spin: it may wait for the flush that
        // clWaitForEvents makes. (Not a flush of the event's queue here: the application may
        // have released that queue, and NVIDIA's event does not keep it.)
        if (!waitsQuiet() || (!spinning && status == CL_QUEUED)) return BACKEND(e, clWaitForEvents)(1, &e);
        if (spinning)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(kQuietSleep);
        queried = eventStatus(e, &status);
        if (queried != CL_SUCCESS || status <= CL_COMPLETE) return waitResult(queried, status);
    }
}

cl_int finishQuietly(cl_command_queue q) {
    cl_event marker = nullptr;
    cl_int err = enqueueMarker(q, {}, &marker);
    if (err != CL_SUCCESS) return BACKEND(q, clFinish)(q);
    err = flush(q);
    cl_int waited = waitQuietly(marker);
    releaseEvent(marker);
    // clFinish reports no command's failure, only its own.
    if (err != CL_SUCCESS) return err;
    return waited == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST ? CL_SUCCESS : waited;
}

}  // namespace hetero::backend
