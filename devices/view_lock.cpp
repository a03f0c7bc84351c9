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

std::atomic<bool> locked{false};
thread_local unsigned callDepth = 0;  // SharedCall nesting on this thread

// Views released from inside a backend call: released by the next thread leaving its outermost call.
std::mutex laterMutex;
std::vector<cl_mem>* later = new std::vector<cl_mem>;  // never destroyed (see rwlock())
std::atomic<bool> anyLater{false};

void releaseLater() {
    std::vector<cl_mem> views;
    {
        std::lock_guard lock(laterMutex);
        views.swap(*later);
        anyLater.store(false);
    }
    for (cl_mem v : views) releaseView(v);
}

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

}  // namespace

bool viewsLocked() { return locked.load(std::memory_order_relaxed); }
void lockViews(bool on) { locked.store(on); }

SharedCall::SharedCall() {
    pthread_rwlock_rdlock(rwlock());
    ++callDepth;
}
SharedCall::~SharedCall() {
    pthread_rwlock_unlock(rwlock());
    if (--callDepth == 0 && anyLater.load(std::memory_order_relaxed)) releaseLater();
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

namespace {
void releaseLaterFromHere(cl_mem mem) {
    std::lock_guard lock(laterMutex);
    later->insert(later->end(), mem);
    anyLater.store(true);
}
}  // namespace

void releaseView(cl_mem view) {
    if (viewsLocked() && callDepth > 0) return releaseLaterFromHere(view);
    ViewChange alone;
    view->dispatch->clReleaseMemObject(view);  // not BACKEND(): this thread holds the lock alone
}

void releaseRoot(cl_mem root) {
    if (viewsLocked() && callDepth > 0) return releaseLaterFromHere(root);
    if (anyLater.load(std::memory_order_relaxed)) releaseLater();
    BACKEND(root, clReleaseMemObject)(root);
}

}  // namespace hetero::backend
