// Storage in unified memory (issue 5): one host allocation, aligned for every backend, on which each
// slot's backend buffer is created with CL_MEM_USE_HOST_PTR. There is one copy, so nothing ever
// moves; version numbers stay equal everywhere. What remains is order: a write on slot A may be
// used on slot B only once A's command has completed, so each write leaves, for every other slot, a
// user event of that slot's context completed from the writer's completion callback (backend wait
// lists cannot mix contexts); for a write without a backend event of its own (a deferred one,
// platform/engine/deferred_event.hpp) that bridge is made only when slot B needs it. Host access
// waits for the last write itself.
#include "platform/memory/storage.hpp"

#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include "platform/objects/platform.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>

namespace hetero {

// The allocation outlives the Storage until every backend buffer on it is gone: a backend may still
// run a command on it after the application released the object (the backend's destructor callback
// says when it is done). Then the deferred callbacks run and an allocation of ours is freed.
struct UnifiedMemory {
    std::atomic<unsigned> holders{1};  // the Storage, plus one per backend buffer on the memory
    void* ptr = nullptr;
    bool owned = false;
    std::mutex mutex;
    std::vector<std::function<void()>> whenFree;

    void drop() {
        if (holders.fetch_sub(1) != 1) return;
        for (auto& fn : whenFree) fn();
        if (owned) std::free(ptr);
        delete this;
    }
};

namespace {

void CL_CALLBACK backendBufferGone(cl_mem, void* memory) { static_cast<UnifiedMemory*>(memory)->drop(); }

// What the backends require of a buffer's host pointer (CL_DEVICE_MEM_BASE_ADDR_ALIGN, the largest).
size_t backendAlignment() { return Device::instance()->limits().baseAddressAlignment; }

bool eventComplete(cl_event e) {
    cl_int st = CL_QUEUED;
    BACKEND(e, clGetEventInfo)(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
    return st <= CL_COMPLETE;
}

void CL_CALLBACK completeBridge(cl_event, cl_int status, void* user) {
    backend::InBackendCallback inside;  // completing the bridge may run completions (view_lock.hpp)
    cl_event bridge = static_cast<cl_event>(user);
    BACKEND(bridge, clSetUserEventStatus)(bridge, status < 0 ? status : CL_COMPLETE);
    BACKEND(bridge, clReleaseEvent)(bridge);
}

}  // namespace

cl_event completesWith(cl_context target, cl_event source) {
    cl_int err = CL_SUCCESS;
    cl_event user = BACKEND(target, clCreateUserEvent)(target, &err);
    if (!user) fail(CL_OUT_OF_RESOURCES);
    BACKEND(user, clRetainEvent)(user);  // the callback's reference
    if (BACKEND(source, clSetEventCallback)(source, CL_COMPLETE, completeBridge, user) != CL_SUCCESS) {
        cl_int st = BACKEND(source, clWaitForEvents)(1, &source);  // cannot be told: wait here (rare)
        completeBridge(source, st == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, user);
    }
    return user;
}

bool Storage::unifiedInit(Context* context, void* useHostPtr, const ImageLayout* image) {
    if (context->memoryModel() != MemoryModel::Unified) return false;
    // Images keep copies: backends lay image memory out their own way.
    if (image) return false;
    // An application pointer the backends cannot use directly would be copied by them: keep copies
    // ourselves instead, so that the coherence rules stay exact.
    if (useHostPtr && reinterpret_cast<uintptr_t>(useHostPtr) % backendAlignment() != 0) {
        HETERO_LOG(Info, "CL_MEM_USE_HOST_PTR %p is not aligned to %zu bytes: this object keeps a copy per device",
                   useHostPtr, backendAlignment());
        return false;
    }
    unifiedMemory_ = new UnifiedMemory;
    unifiedMemory_->ptr = useHostPtr;
    return true;
}

unsigned char* Storage::unifiedHost() {
    if (!host_) {
        // At least page-aligned, so that sub-buffer origins keep the alignment backends expect.
        void* p = nullptr;
        if (posix_memalign(&p, std::max<size_t>(4096, backendAlignment()), bytes_) != 0) fail(CL_OUT_OF_HOST_MEMORY);
        host_ = static_cast<unsigned char*>(p);
        unifiedMemory_->ptr = p;
        unifiedMemory_->owned = true;
    }
    return host_;
}

cl_mem Storage::unifiedBackendMem(unsigned slot) {
    Copy& c = copies_[slot];
    cl_context ctx = context_->backend(slot);
    cl_int err = CL_SUCCESS;
    c.mem = BACKEND(ctx, clCreateBuffer)(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, host(), &err);
    if (!c.mem) {
        HETERO_LOG(Warn, "a %zu-byte buffer on host memory failed on slot %u: %s", bytes_, slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    ++unifiedMemory_->holders;
    // Without the backend's word the memory is never freed: a leak rather than a use after free.
    if (BACKEND(c.mem, clSetMemObjectDestructorCallback)(c.mem, backendBufferGone, unifiedMemory_) != CL_SUCCESS)
        HETERO_LOG(Warn, "slot %u cannot report when a buffer is gone; its host memory is kept", slot);
    return c.mem;
}

void Storage::unifiedWaitForWrites() {
    if (!lastWrite_ && lastWriteLater_) {
        // A write without an event of its own: its marker now (null: its queue was finished).
        if (cl_event marker = lastWriteLater_->get()) {
            BACKEND(marker, clRetainEvent)(marker);
            lastWrite_ = marker;
        }
        lastWriteLater_.reset();
    }
    if (lastWrite_) BACKEND(lastWrite_, clWaitForEvents)(1, &lastWrite_);
}

void Storage::unifiedWroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) {
    // No event yet: every copy waits for the deferred one, the writer's slot in its own queue and
    // the others through a bridge made when they need it (unifiedSettle). A launch-heavy program
    // on one device pays for neither an event per launch nor a bridge per write.
    ++version_;
    hostVersion_ = version_;
    if (lastWrite_) BACKEND(lastWrite_, clReleaseEvent)(lastWrite_);
    lastWrite_ = nullptr;
    lastWriteLater_ = ready;
    lastWriteSlot_ = slot;
    for (auto& c : copies_) {
        c.version = version_;
        if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
        c.ready = nullptr;
        c.readyQueue = nullptr;
        c.later = ready;
    }
}

cl_event Storage::unifiedSettle(unsigned slot, cl_event marker) {
    if (!marker) return nullptr;
    if (slot == lastWriteSlot_) {
        BACKEND(marker, clRetainEvent)(marker);
        return marker;
    }
    return eventComplete(marker) ? nullptr : completesWith(context_->backend(slot), marker);
}

void Storage::unifiedWroteOn(unsigned slot, cl_event ready) {
    ++version_;
    hostVersion_ = version_;
    for (auto& c : copies_) c.version = version_;
    if (ready) BACKEND(ready, clRetainEvent)(ready);
    if (lastWrite_) BACKEND(lastWrite_, clReleaseEvent)(lastWrite_);
    lastWrite_ = ready;
    lastWriteLater_.reset();
    lastWriteSlot_ = slot;
    bool pending = ready && !eventComplete(ready);
    for (unsigned s = 0; s < copies_.size(); ++s) {
        Copy& c = copies_[s];
        cl_event after = nullptr;
        if (pending && s == slot) {
            after = ready;
            BACKEND(after, clRetainEvent)(after);
        } else if (pending) {
            after = completesWith(context_->backend(s), ready);
        }
        if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
        c.ready = after;
        c.readyQueue = nullptr;
        c.later.reset();
    }
}

void Storage::unifiedWroteOnHost() {
    // The host wrote after waiting for the last write (unifiedWaitForWrites): nothing is pending.
    ++version_;
    hostVersion_ = version_;
    for (auto& c : copies_) c.version = version_;
}

void Storage::unifiedRelease() {
    for (auto& c : copies_) {
        if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
        if (c.mem) backend::releaseRoot(c.mem);  // each backend buffer drops its hold when gone; after its views
    }
    if (lastWrite_) BACKEND(lastWrite_, clReleaseEvent)(lastWrite_);
    unifiedMemory_->drop();
}

void Storage::whenMemoryFree(std::function<void()> fn) {
    if (!unified_) return fn();
    std::lock_guard lock(unifiedMemory_->mutex);
    unifiedMemory_->whenFree.push_back(std::move(fn));
}

}  // namespace hetero
