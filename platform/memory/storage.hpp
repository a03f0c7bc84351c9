// The contents of one memory object, behind one interface with two implementations; Storage::create
// picks one per object from its context's memory model (platform/memory/memory_model.hpp):
//   DiscreteStorage (discrete_storage.hpp)  a copy per slot (created on first use) and one on the
//       host, each holding a version; moving work to a slot moves only what is stale there.
//   UnifiedStorage (unified_storage.hpp)    one host allocation that every slot's backend buffer
//       uses directly, so every copy is always current; only the order of writes is kept.
// The object's version is bumped by every write; a copy is fresh when its version equals the
// object's. What both share (the per-slot copies, versions, the host copy's pointer, views) lives
// here; each implementation fills in how copies are made, kept and made ready.
#pragma once

#include "devices/backend_call.hpp"
#include "platform/memory/backend_views.hpp"
#include "platform/objects/context.hpp"
#include "platform/engine/deferred_event.hpp"

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class Queue;
class DiscreteStorage;

// A user event of `target` that completes (with the same status) when `source`, an event of another
// backend context, does (backend wait lists cannot mix contexts).
cl_event completesWith(cl_context target, cl_event source);

// Geometry of an image's host copy; bytes is the whole host copy.
struct ImageLayout {
    cl_image_format format{};
    cl_image_desc desc{};
    size_t elementSize = 0;
    size_t rowPitch = 0;
    size_t slicePitch = 0;
    size_t region[3] = {1, 1, 1};
};

class Storage {
public:
    // The storage of a new object of `context`: unified where the context's memory model is and the
    // object can be (UnifiedStorage::canHold), discrete otherwise. useHostPtr: the application's
    // memory for CL_MEM_USE_HOST_PTR (used as the host copy), else null.
    static std::shared_ptr<Storage> create(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image);
    virtual ~Storage() = default;
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    std::mutex mutex;  // guards all below; held across migrations

    size_t bytes() const { return bytes_; }
    bool isImage() const { return isImage_; }
    const ImageLayout& image() const { return image_; }
    // One allocation that the host and every slot use in place (unified): the host reads and writes
    // it directly once the last write is done, and a launch's parts never need their results merged.
    virtual bool singleCopy() const = 0;
    // The implementation that keeps a copy per slot, for what only it does (the host copy that is
    // the CPU slot's, a split launch's promises); null for a single copy.
    virtual DiscreteStorage* discrete() { return nullptr; }
    // Runs `fn` once no backend uses the memory any more: at once, unless a backend may still use
    // it after this object is gone (UnifiedStorage).
    virtual void whenMemoryFree(std::function<void()> fn) { fn(); }

    // --- all of these need `mutex` held ---
    // Created on first use; throws Error.
    cl_mem backendMem(unsigned slot) {
        cl_mem m = copies_[slot].mem;
        return m ? m : createBackendMem(slot);
    }
    // The host copy, allocated on first use.
    unsigned char* host() { return host_ ? host_ : allocateHost(); }
    bool freshOn(unsigned slot) {
        dropFailedBrings();
        return copies_[slot].version == version_;
    }
    bool hostFresh() const { return hostVersion_ == version_; }
    // A slot holding the current contents, `preferred` if it does; -1 if only the host does.
    int freshSlot(unsigned preferred);
    // The backend event after which `slot`'s copy is ready (owned here), if any; a deferred one is
    // made now. readyFor(): none when that is an event (or a deferred one) of `target`, an
    // in-order queue that orders the work after it anyway.
    cl_event readyOn(unsigned slot) {
        settle(slot);
        return copies_[slot].ready.get();
    }
    virtual cl_event readyFor(unsigned slot, cl_command_queue target) = 0;
    // Brings the current contents to `slot` (through the host if needed, using `queue`'s backend
    // queues; from a pinned host copy without waiting, on `target` where given). Appends the event
    // that makes the copy ready, if any, to `waitList` (see readyFor: `target` is the queue the work
    // that waits goes to, if known).
    virtual void makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList,
                           cl_command_queue target = nullptr) = 0;
    // The host copy holds the current contents (unified: the last write is done).
    virtual void makeHostFresh(Queue& queue) = 0;
    // A write ran (or will run, when `ready` completes) on `slot`: only that copy is current now.
    // `readyQueue`: the backend queue `ready` belongs to, when the caller knows it (readyFor).
    virtual void wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue = nullptr) = 0;
    // No event yet (platform/engine/deferred_event.hpp).
    virtual void wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) = 0;
    virtual void wroteOnHost() = 0;
    // The initial contents (COPY_HOST_PTR / USE_HOST_PTR) are on the host.
    void initialContentsOnHost() { wroteOnHost(); }
    uint64_t version() const { return version_; }
    // A view of `slot`'s backend memory (a sub-buffer, an image from the buffer) was made for the
    // bytes [begin, end) (`mutex` held). retireView: its object is gone (no need of `mutex`, which
    // whoever waits for this thread may hold); returns what the caller releases now (backend_views.hpp).
    void addView(unsigned slot, cl_mem view, size_t begin, size_t end);
    std::vector<cl_mem> retireView(unsigned slot, cl_mem view);

    // Needs no `mutex` (a split launch's thread calls it while a submission may hold that and wait
    // for the launch): `slot`'s copy, marked as holding `version` before a split launch's thread
    // brought it there (DiscreteStorage::bringLater), never got it. The thread has completed the
    // copy's ready event with an error, so work already waiting on the copy fails; whoever looks at
    // the copies next finds it stale and the failed event gone (dropFailedBrings).
    void bringFailed(unsigned slot, uint64_t version);

protected:
    Storage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image);
    virtual cl_mem createBackendMem(unsigned slot) = 0;  // sets copies_[slot].mem
    virtual unsigned char* allocateHost() = 0;           // sets host_
    virtual void settle(unsigned slot) = 0;              // a copy's `later` becomes its `ready`
    // Releases every copy's views, then its ready event and backend buffer: each implementation's
    // destructor does this first (a base destructor would run after the implementation's parts).
    void releaseCopies();
    // With `mutex` held: what bringFailed() reported takes effect.
    void dropFailedBrings() {
        if (failedBringsPending_.load(std::memory_order_acquire)) forgetFailedBrings();
        if (!mirrors_.empty()) checkMirrors();
    }
    static constexpr uint64_t kNoVersion = ~uint64_t{0};  // a copy whose contents are no version

    struct Copy {
        cl_mem mem = nullptr;      // raw: released by releaseCopies() only after its views (devices/view_lock.hpp)
        uint64_t version = 0;
        backend::Event ready;      // backend event after which `mem` holds `version`
        cl_command_queue readyQueue = nullptr;  // the queue of `ready`, when known
        std::shared_ptr<DeferredEvent> later;  // instead of `ready` until somebody needs it
        BackendViews views;                    // views of `mem`
    };
    Ref<Context> context_;
    size_t bytes_;
    bool isImage_;
    ImageLayout image_;
    uint64_t version_ = 0;
    std::vector<Copy> copies_;
    unsigned char* host_ = nullptr;
    uint64_t hostVersion_ = 0;
    // Transfers from the host copy sent without waiting (DiscreteStorage::sendHostCopy: a host
    // write's on to other slots, a launch's upload) not yet seen done: each made its slot's copy
    // current at `version` before the data arrived.
    struct Mirror {
        unsigned slot;
        uint64_t version;
        backend::Event sent;
    };
    std::vector<Mirror> mirrors_;

private:
    void forgetFailedBrings();
    // With `mutex` held: a mirror that failed counts as a failed bring (forgetFailedTransfer).
    void checkMirrors();
    // `slot`'s copy, marked as holding `version` before a transfer brought it, never got it: stale,
    // with nothing to wait for (a wait list holding the failed event would fail, or on PoCL never run).
    void forgetFailedTransfer(unsigned slot, uint64_t version);
    std::atomic<bool> failedBringsPending_{false};
    std::mutex failedBringsMutex_;
    std::vector<std::pair<unsigned, uint64_t>> failedBrings_;  // (slot, version), guarded by failedBringsMutex_
};

}  // namespace hetero
