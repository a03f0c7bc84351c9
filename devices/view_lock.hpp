// Backends whose sub-buffers cannot be created or released while anything else uses their parent.
//
// NVIDIA's OpenCL (driver 580, H100) crashes when one thread creates or releases a sub-buffer while
// another thread calls it with the parent buffer (a read, write, map, finish), although every
// OpenCL call must be thread-safe; serialising the calls themselves is enough, commands may still
// run on the device meanwhile (bench/tools/subbuffer_race.c shows both on the backend alone).
// Hetero's own threads (scheduler, split engine, completion callbacks) call backends beside the
// application's, so Hetero keeps such a backend from ever seeing that: for a locked backend, every
// call made through BACKEND() holds a shared lock, and creating or releasing a view (a sub-buffer,
// an image made from a buffer) holds it alone.
//
// The lock prefers readers: a thread waiting to create a view never holds up other calls (no
// deadlock through a call waiting for another thread's call), and a thread in a call may call again
// (backend callbacks run inside calls). Calls that wait for other work (clWaitForEvents, clFinish)
// never hold it, and Hetero makes no blocking transfer through BACKEND(): a call holding the lock
// always returns without waiting for another thread, so a view's creation only waits for calls in
// progress.
#pragma once

#include <CL/cl.h>

#include <atomic>

namespace hetero::backend {

// Whether backend calls take the lock: set while the backends are loaded (HETERO_BACKEND_VIEW_LOCK:
// when any slot is NVIDIA's), before any other thread calls them. For every backend, not only the
// one that needs it: a backend's objects need not share one dispatch table, so a call cannot tell
// cheaply which backend it goes to.
// Inline: every call through BACKEND() asks.
inline std::atomic<bool> viewLockOn{false};
inline bool viewsLocked() { return viewLockOn.load(std::memory_order_relaxed); }
inline void lockViews(bool on) { viewLockOn.store(on); }

// Shared for the duration of one backend call.
class SharedCall {
public:
    SharedCall();
    ~SharedCall();
    SharedCall(const SharedCall&) = delete;
    SharedCall& operator=(const SharedCall&) = delete;
};

// Alone: no other call of a locked backend runs meanwhile. Calls made while it is held must be
// made without BACKEND() (the lock is not recursive for its holder). A thread inside a backend
// call (a callback the backend runs there) cannot wait for the others: held() is false then.
class ViewChange {
public:
    ViewChange();
    ~ViewChange();
    ViewChange(const ViewChange&) = delete;
    ViewChange& operator=(const ViewChange&) = delete;
    bool held() const { return held_; }

private:
    bool held_ = false;
};

// Held by a backend's callback into Hetero while it runs (the backend may be inside a call of its
// own, or hold what a call waits for): views released meanwhile wait, and none is made alone.
class InBackendCallback {
public:
    InBackendCallback();
    ~InBackendCallback();
    InBackendCallback(const InBackendCallback&) = delete;
    InBackendCallback& operator=(const InBackendCallback&) = delete;
};

// Releases a view (sub-buffer, image from a buffer) of any backend: where the backend is locked,
// alone and only when the lock is free at once (the releasing thread may hold what a call in
// progress waits for, so it never waits): otherwise it waits, in order, for the next thread that
// finds the lock free at the end of its outermost call or at a release.
void releaseView(cl_mem view);
// Releases the memory views were made of, after every view still waiting.
void releaseRoot(cl_mem root);

}  // namespace hetero::backend
