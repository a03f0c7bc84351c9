// Storage in unified memory: one host allocation, aligned for every backend, on which each slot's
// backend buffer is created with CL_MEM_USE_HOST_PTR. There is one copy, so nothing ever moves;
// version numbers stay equal everywhere. What remains is order: a write on slot A may be used on
// slot B only once A's command has completed, so slot B's work waits for a user event of its own
// context completed from the writer's completion callback (backend wait lists cannot mix
// contexts). That bridge is made only when slot B needs it and the write is not done yet, from the
// write's backend event or, for a write without one (a deferred one,
// platform/engine/deferred_event.hpp), its marker. Host access waits for the last write itself.
#pragma once

#include "platform/memory/storage.hpp"

namespace hetero {

class UnifiedStorage final : public Storage {
public:
    // Whether a new object of `context` lives here: a buffer in a unified context, on memory the
    // backends can use directly (images, and application memory without the backends' alignment,
    // keep a copy per slot).
    static bool canHold(Context* context, void* useHostPtr, const ImageLayout* image);
    UnifiedStorage(Context* context, size_t bytes, void* useHostPtr);
    ~UnifiedStorage() override;

    bool singleCopy() const override { return true; }
    // After the last backend buffer on the memory is gone, which may be later than this object.
    void whenMemoryFree(std::function<void()> fn) override;

    // --- all of these need `mutex` held ---
    cl_event readyFor(unsigned slot, cl_command_queue target) override;
    void makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList, cl_command_queue target = nullptr) override;
    void makeHostFresh(Queue& queue) override;  // waits for the last write
    void wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue = nullptr) override;
    // The other slots' bridges are made when they need them.
    void wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) override;
    void wroteOnHost() override;

private:
    cl_mem createBackendMem(unsigned slot) override;
    unsigned char* allocateHost() override;
    void settle(unsigned slot) override;
    void waitForWrites();
    backend::Event bridge(unsigned slot, cl_event marker);  // the marker as an event of `slot`'s context

    struct UnifiedMemory* memory_ = nullptr;         // the allocation and who still uses it
    backend::Event lastWrite_;                       // the backend event of the last write
    std::shared_ptr<DeferredEvent> lastWriteLater_;  // ... or its deferred event (every copy's `later`)
    unsigned lastWriteSlot_ = 0;                     // where the last write ran
    std::vector<bool> bridgeFromLastWrite_;          // per slot: its `ready` is a bridge from lastWrite_, not made yet
};

}  // namespace hetero
