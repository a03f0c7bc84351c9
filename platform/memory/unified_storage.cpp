// Storage in unified memory: one allocation, only the order of writes kept (unified_storage.hpp).
#include "platform/memory/unified_storage.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
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

}  // namespace

bool UnifiedStorage::canHold(Context* context, void* useHostPtr, const ImageLayout* image) {
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
    return true;
}

UnifiedStorage::UnifiedStorage(Context* context, size_t bytes, void* useHostPtr)
    : Storage(context, bytes, useHostPtr, nullptr), memory_(new UnifiedMemory), bridgeFromLastWrite_(copies_.size(), false) {
    memory_->ptr = useHostPtr;
}

UnifiedStorage::~UnifiedStorage() {
    releaseCopies();  // each backend buffer drops its hold on the memory when gone
    lastWrite_.reset();
    memory_->drop();
}

unsigned char* UnifiedStorage::allocateHost() {
    // At least page-aligned, so that sub-buffer origins keep the alignment backends expect.
    void* p = nullptr;
    if (posix_memalign(&p, std::max<size_t>(4096, backendAlignment()), bytes_) != 0) fail(CL_OUT_OF_HOST_MEMORY);
    host_ = static_cast<unsigned char*>(p);
    memory_->ptr = p;
    memory_->owned = true;
    return host_;
}

cl_mem UnifiedStorage::createBackendMem(unsigned slot) {
    Copy& c = copies_[slot];
    cl_context ctx = context_->backend(slot);
    cl_int err = CL_SUCCESS;
    c.mem = backend::buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, host(), &err).release();
    if (!c.mem) {
        HETERO_LOG(Warn, "a %zu-byte buffer on host memory failed on slot %u: %s", bytes_, slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    ++memory_->holders;
    // Without the backend's word the memory is never freed: a leak rather than a use after free.
    if (backend::whenFreed(c.mem, backendBufferGone, memory_) != CL_SUCCESS)
        HETERO_LOG(Warn, "slot %u cannot report when a buffer is gone; its host memory is kept", slot);
    return c.mem;
}

void UnifiedStorage::waitForWrites() {
    if (!lastWrite_ && lastWriteLater_) {
        // A write without an event of its own: its marker now (null: its queue was finished).
        lastWrite_ = backend::Event::retained(lastWriteLater_->get());
        lastWriteLater_.reset();
    }
    if (lastWrite_) backend::waitFor(lastWrite_.get());
}

void UnifiedStorage::wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) {
    // No event yet: every copy waits for the deferred one, the writer's slot in its own queue and
    // the others through a bridge made when they need it (settle). A launch-heavy program
    // on one device pays for neither an event per launch nor a bridge per write.
    ++version_;
    hostVersion_ = version_;
    lastWrite_.reset();
    lastWriteLater_ = ready;
    lastWriteSlot_ = slot;
    bridgeFromLastWrite_.assign(copies_.size(), false);
    for (auto& c : copies_) {
        c.version = version_;
        c.ready.reset();
        c.readyQueue = nullptr;
        c.later = ready;
    }
}

backend::Event UnifiedStorage::bridge(unsigned slot, cl_event marker) {
    if (!marker) return {};
    if (slot == lastWriteSlot_) return backend::Event::retained(marker);
    return backend::done(marker) ? backend::Event() : backend::Event(completesWith(context_->backend(slot), marker));
}

void UnifiedStorage::wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue) {
    ++version_;
    hostVersion_ = version_;
    for (auto& c : copies_) c.version = version_;
    lastWrite_ = backend::Event::retained(ready);
    lastWriteLater_.reset();
    lastWriteSlot_ = slot;
    bool pending = ready && !backend::done(ready);
    for (unsigned s = 0; s < copies_.size(); ++s) {
        Copy& c = copies_[s];
        // The other slots' bridges wait until somebody needs them (settle): most writes are only
        // ever used on their own slot, and each bridge costs a user event and a completion
        // callback (on NVIDIA, callbacks keep a driver thread spinning).
        c.ready = pending && s == slot ? backend::Event::retained(ready) : backend::Event();
        bridgeFromLastWrite_[s] = pending && s != slot;
        // A command on the writer's own (in-order) queue comes after the write without naming
        // its event (readyFor), as DiscreteStorage::wroteOn has it: naming one costs a wait per
        // launch (on NVIDIA a cross-command one).
        c.readyQueue = pending && s == slot ? readyQueue : nullptr;
        c.later.reset();
    }
}

void UnifiedStorage::wroteOnHost() {
    // The host wrote after waiting for the last write (makeHostFresh): nothing is pending.
    bridgeFromLastWrite_.assign(copies_.size(), false);
    ++version_;
    hostVersion_ = version_;
    for (auto& c : copies_) c.version = version_;
}

void UnifiedStorage::whenMemoryFree(std::function<void()> fn) {
    std::lock_guard lock(memory_->mutex);
    memory_->whenFree.push_back(std::move(fn));
}

void UnifiedStorage::settle(unsigned slot) {
    Copy& c = copies_[slot];
    if (bridgeFromLastWrite_[slot]) {
        bridgeFromLastWrite_[slot] = false;
        c.ready = bridge(slot, lastWrite_.get());  // none once the write is done
        c.readyQueue = nullptr;
        return;
    }
    if (!c.later) return;
    cl_event marker = c.later->get();  // null: its queue was finished, the copy is ready
    cl_command_queue queue = c.later->queue();
    c.ready = bridge(slot, marker);  // another slot's context needs a bridge
    if (slot != lastWriteSlot_) queue = nullptr;
    c.readyQueue = c.ready ? queue : nullptr;
    c.later.reset();
}

cl_event UnifiedStorage::readyFor(unsigned slot, cl_command_queue target) {
    Copy& c = copies_[slot];
    if (target && c.later && c.later->queue() == target && slot == lastWriteSlot_) return nullptr;
    if (target && !c.later && c.ready && c.readyQueue == target) return nullptr;
    return readyOn(slot);
}

// Every slot's copy is the one allocation, always current: only the last write's event to wait for.
void UnifiedStorage::makeFresh(unsigned slot, Queue&, std::vector<cl_event>& waitList, cl_command_queue target) {
    backendMem(slot);
    if (cl_event ready = readyFor(slot, target)) waitList.push_back(ready);
}

void UnifiedStorage::makeHostFresh(Queue&) { waitForWrites(); }

}  // namespace hetero
