// The copies of one memory object: one per slot (created on first use) and one on the host, each
// holding a version; the object's version is bumped by every write. A copy is
// fresh when its version equals the object's. Moving work to a slot moves only what is stale there.
// A buffer's host copy is also the CPU slot's copy (its backend buffer is created on the host
// copy's memory with CL_MEM_USE_HOST_PTR), and that memory is pinned where it can be
// (platform/memory/host_memory.hpp): the two versions move together, and the CPU slot never needs
// a transfer of its own.
#pragma once

#include "platform/memory/backend_views.hpp"
#include "platform/objects/context.hpp"
#include "platform/engine/deferred_event.hpp"
#include "platform/observe/counters.hpp"

#include <CL/cl.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class Queue;
class HostMemory;

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
    // hostPtr: the application's memory for CL_MEM_USE_HOST_PTR (used as the host copy), else null.
    Storage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    std::mutex mutex;  // guards all below; held across migrations

    size_t bytes() const { return bytes_; }
    bool isImage() const { return isImage_; }
    // Unified memory (platform/memory/storage_unified.cpp): one host allocation that every slot's backend
    // buffer uses directly, so every copy is always current; only the order of writes is tracked.
    bool unified() const { return unified_; }
    // Runs `fn` once no backend uses the memory any more (unified: after the last backend buffer on
    // it is gone, which may be later than this object); at once otherwise.
    void whenMemoryFree(std::function<void()> fn);
    const ImageLayout& image() const { return image_; }

    // --- all of these need `mutex` held ---
    cl_mem backendMem(unsigned slot);        // created on first use; throws Error
    unsigned char* host();                   // the host copy, allocated on first use
    // The slot whose copy is the host copy (-1: none; images, application memory, no CPU slot).
    int hostAliasSlot() const { return aliasSlot_; }
    bool hostPinned() const;
    bool freshOn(unsigned slot) const { return copies_[slot].version == version_; }
    bool hostFresh() const { return hostVersion_ == version_; }
    // A slot holding the current contents, `preferred` if it does; -1 if only the host does.
    int freshSlot(unsigned preferred) const;
    // The backend event after which `slot`'s copy is ready (owned here), if any; a deferred one is
    // made now. readyFor(): none when that is an event (or a deferred one) of `target`, an
    // in-order queue that orders the work after it anyway.
    cl_event readyOn(unsigned slot);
    cl_event readyFor(unsigned slot, cl_command_queue target);
    // Brings the current contents to `slot` (through the host if needed, using `queue`'s backend
    // queues). Appends the event that makes the copy ready, if any, to `waitList` (see readyFor:
    // `target` is the queue the work that waits goes to, if known).
    void makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList, cl_command_queue target = nullptr);
    void makeHostFresh(Queue& queue);
    // A write ran (or will run, when `ready` completes) on `slot`: only that copy is current now.
    // `readyQueue`: the backend queue `ready` belongs to, when the caller knows it (readyFor).
    void wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue = nullptr);
    // No event yet. In unified memory the other slots' bridges are made when they need them.
    void wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready);
    void wroteOnHost();
    // An application's write of every byte goes through the host copy when that is the CPU slot's
    // copy: copied there (prepareHostOverwrite() first), then transferred from there to the slot the
    // write runs on (from pinned memory where it is), so that it is current on both at once.
    bool writesThroughHostCopy() const { return aliasSlot_ >= 0; }
    // Before the host overwrites every byte of the host copy: whatever still uses it is done.
    void prepareHostOverwrite();
    // A transfer reads the host copy until `sent` (an event of any slot) completes: the memory is
    // held until then, and neither the host nor the CPU slot may overwrite it before.
    void hostCopyReadUntil(cl_event sent);
    // The write that made `version` current copied it from the host copy: that copy (and the CPU
    // slot's) holds it too, unless something was written since.
    void hostCopyHolds(uint64_t version);
    // Whoever overwrites `slot`'s copy must first wait for `event` (a split launch still reads it).
    void setReady(unsigned slot, cl_event event);
    // `slot`'s copy will hold the current contents once `ready` (an event of that slot) completes:
    // a split launch brings them there in the background.
    void freshLater(unsigned slot, cl_event ready);
    // The launch that promised `slot`'s copy (freshLater with `ready`) need not bring it after all:
    // the copy is stale again (whoever needs it brings it, after `ready`), so a split whose CPU
    // computed nothing streams nothing back. Only while nobody relied on the promise (asked for the
    // copy's ready event since): false, and the promise stands, otherwise, and when the storage is
    // locked (never waits for the lock: its holder may be waiting for the caller's launch).
    bool withdrawFreshLater(unsigned slot, cl_event ready);
    // The initial contents (COPY_HOST_PTR / USE_HOST_PTR) are on the host.
    void initialContentsOnHost();
    uint64_t version() const { return version_; }
    // A view of `slot`'s backend memory (a sub-buffer, an image from the buffer) was made for the
    // bytes [begin, end) (`mutex` held). retireView: its object is gone (no need of `mutex`, which
    // whoever waits for this thread may hold); returns what the caller releases now (backend_views.hpp).
    void addView(unsigned slot, cl_mem view, size_t begin, size_t end);
    std::vector<cl_mem> retireView(unsigned slot, cl_mem view);

private:
    size_t transferRowPitch() const;
    size_t transferSlicePitch() const;
    void upload(unsigned slot, Queue& queue);    // host -> slot, blocking
    void download(unsigned slot, Queue& queue);  // slot -> host, blocking
    // The host copy is the alias slot's: waits for the command that last wrote it there (or still
    // reads it there, setReady), so the host may read or overwrite it.
    void waitForAliasUsers();
    void setHostVersion(uint64_t v);  // the host copy's version, and the alias slot's with it
    static constexpr uint64_t kNoVersion = ~uint64_t{0};  // a copy whose contents are no version
    void countMigration(counters::Counter bytes, counters::Counter ns, const char* direction, unsigned slot, double seconds);

    // Unified memory: the branches of the functions above (platform/memory/storage_unified.cpp).
    bool unifiedInit(Context* context, void* useHostPtr, const ImageLayout* image);
    cl_mem unifiedBackendMem(unsigned slot);
    unsigned char* unifiedHost();
    void unifiedWaitForWrites();
    void unifiedWroteOn(unsigned slot, cl_event ready);
    void unifiedWroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready);
    cl_event unifiedSettle(unsigned slot, cl_event marker);  // the marker as an event of `slot`'s context
    void unifiedWroteOnHost();
    void unifiedRelease();

    struct Copy {
        cl_mem mem = nullptr;
        uint64_t version = 0;
        cl_event ready = nullptr;  // backend event after which `mem` holds `version`; owned
        cl_command_queue readyQueue = nullptr;  // the queue of `ready`, when known
        std::shared_ptr<DeferredEvent> later;  // instead of `ready` until somebody needs it
        BackendViews views;                    // views of `mem`
        bool promised = false;  // freshLater's, and nobody has asked for `ready` since (withdrawFreshLater)
    };
    void settle(unsigned slot);  // `later` becomes `ready`
    Ref<Context> context_;
    size_t bytes_;
    bool isImage_;
    ImageLayout image_;
    uint64_t version_ = 0;
    std::vector<Copy> copies_;
    unsigned char* host_ = nullptr;
    HostMemory* hostMemory_ = nullptr;  // host_'s allocation when it is ours (discrete)
    int aliasSlot_ = -1;
    uint64_t hostVersion_ = 0;
    bool unified_ = false;
    struct UnifiedMemory* unifiedMemory_ = nullptr;  // the allocation and who still uses it
    cl_event lastWrite_ = nullptr;                   // unified: the backend event of the last write; owned
    std::shared_ptr<DeferredEvent> lastWriteLater_;  // unified: ... or its deferred event (every copy's `later`)
    unsigned lastWriteSlot_ = 0;                     // unified: where the last write ran
};

}  // namespace hetero
