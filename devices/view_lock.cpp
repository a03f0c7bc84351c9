// The lock of view_lock.hpp: one process-wide reader-preferring rwlock (views are created rarely;
// one lock keeps a call's cost to two uncontended atomic operations).
#include "devices/view_lock.hpp"

#include <pthread.h>

#include "devices/backend_call.hpp"

#include <atomic>
#include <mutex>
#include <vector>

namespace hetero::backend {
namespace {

thread_local unsigned callDepth = 0;  // SharedCall nesting on this thread

// Views (and roots behind them) waiting to be released: by the next thread that finds the lock free
// when it leaves its outermost call or releases a view.
std::mutex laterMutex;
std::vector<cl_mem>* later = new std::vector<cl_mem>;  // never destroyed (see rwlock())
std::atomic<bool> anyLater{false};

pthread_rwlock_t* rwlock() {
    static pthread_rwlock_t* lock = [] {
        auto* l = new pthread_rwlock_t;  // never destroyed: backends are called while the process exits
        pthread_rwlockattr_t attr;
        pthread_rwlockattr_init(&attr);
        // Readers first: a waiting writer must not hold up a call (see view_lock.hpp).
        pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_READER_NP);
        pthread_rwlock_init(l, &attr);
        pthread_rwlockattr_destroy(&attr);
        return l;
    }();
    return lock;
}

void releaseLaterFromHere(cl_mem mem) {
    std::lock_guard lock(laterMutex);
    later->insert(later->end(), mem);
    anyLater.store(true);
}

// Releases what waits, oldest first, if the lock is free now. Never waits for it: the thread may
// hold something a call in progress waits for. True when nothing older waits any more. Called
// outside any call: it waits for the pipes (call_pipe.hpp), whose launches may name what goes;
// never on a pipe's own thread, whose launches still to come may.
bool releaseWaiting() {
    if (!anyLater.load()) return true;
    if (onPipeThread()) return false;
    drainPipes();
    if (pthread_rwlock_trywrlock(rwlock()) != 0) return false;
    std::vector<cl_mem> batch;
    {
        std::lock_guard lock(laterMutex);
        batch.swap(*later);
        anyLater.store(false);
    }
    for (cl_mem m : batch) m->dispatch->clReleaseMemObject(m);  // not BACKEND(): held alone
    pthread_rwlock_unlock(rwlock());
    return true;
}

}  // namespace

SharedCall::SharedCall() {
    pthread_rwlock_rdlock(rwlock());
    ++callDepth;
}
SharedCall::~SharedCall() {
    pthread_rwlock_unlock(rwlock());
    if (--callDepth == 0 && anyLater.load(std::memory_order_relaxed)) releaseWaiting();
}

InBackendCallback::InBackendCallback() { ++callDepth; }
InBackendCallback::~InBackendCallback() { --callDepth; }  // not a call's end: nothing released here

ViewChange::ViewChange() {
    if (!viewsLocked() || callDepth > 0) return;
    pthread_rwlock_wrlock(rwlock());
    held_ = true;
}
ViewChange::~ViewChange() {
    if (held_) pthread_rwlock_unlock(rwlock());
}

void releaseView(cl_mem view) {
    if (!viewsLocked()) {
        drainPipes();  // launches a pipe has still to make may name it (call_pipe.hpp)
        view->dispatch->clReleaseMemObject(view);
        return;
    }
    // Behind what waits already; now if no call is in progress, else with the next call's end.
    releaseLaterFromHere(view);
    if (callDepth == 0) releaseWaiting();
}

void releaseRoot(cl_mem root) {
    if (viewsLocked() && (callDepth > 0 || !releaseWaiting())) return releaseLaterFromHere(root);
    BACKEND(root, clReleaseMemObject)(root);
}

}  // namespace hetero::backend
