// A Hetero context: a backend context per slot, shared by GPU slots of one device
// (Backends::contextSlot); each slot has backend objects of its own all the same.
#pragma once

#include "platform/memory/memory_model.hpp"
#include "platform/support/object.hpp"
#include "platform/objects/platform.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

struct SplitResources;  // platform/split/resources.hpp
struct UnifiedResources;  // platform/split/unified_split.cpp
class PinnedPool;         // platform/memory/pinned_pool.hpp

class Context : public ApiObject<_cl_context, Kind::Context> {
public:
    using Notify = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);
    using Destructor = void(CL_CALLBACK*)(cl_context, void*);

    // Throws Error on failure.
    static Context* create(const cl_context_properties* properties, Notify notify, void* userData);

    size_t slotCount() const { return backend_.size(); }
    cl_context backend(unsigned slot) const { return backend_[slot].get(); }
    // Whether slots `a` and `b` share one backend context: their memory objects may then be used
    // together in one command (a copy or merge from one's copy into the other's), on the device.
    bool sameBackend(unsigned a, unsigned b) const { return backend_[a].get() == backend_[b].get(); }
    const std::vector<cl_context_properties>& properties() const { return properties_; }
    cl_int info(cl_context_info param, size_t size, void* value, size_t* sizeRet);
    void addDestructor(Destructor fn, void* userData);
    // Reports an error to the application's pfn_notify, if any.
    void notify(const std::string& message) const;
    // The split engine's per-context buffers, queues and merge kernels, created on first use.
    SplitResources& splitResources() { return *sharedSplitResources(); }
    // The same, for work that may outlive the context (a split launch streaming results back).
    std::shared_ptr<SplitResources> sharedSplitResources();
    // How this context's memory objects are laid out (platform/memory/memory_model.hpp); fixed at creation.
    MemoryModel memoryModel() const { return memory_.model; }
    // The unified engine's per-context queues, created on first use.
    UnifiedResources& unifiedResources();
    // Page-locked memory for host copies in discrete memory, pinned through the primary (GPU)
    // slot; null when the budget is 0. Shared: blocks in use keep it after the context goes.
    std::shared_ptr<PinnedPool> pinnedPool();
    // Whether a launch of this context was split N-way: from then on its host writes go on to every
    // GPU slot (DiscreteStorage::mirrorHostWrite); before, a program that never splits N-way would
    // pay for copies nobody reads (2 H100s + PoCL: 3mm's total time 1.54 -> 2.12 ms, STANDARD).
    bool splitNway() const { return splitNway_.load(std::memory_order_relaxed); }
    void noteNwaySplit() { splitNway_.store(true, std::memory_order_relaxed); }

protected:
    ~Context() override;

private:
    Context() = default;
    std::vector<backend::Context> backend_;  // per slot (one context may appear more than once)
    std::vector<cl_context_properties> properties_;
    Notify notify_ = nullptr;
    void* notifyData_ = nullptr;
    std::mutex destructorMutex_;
    std::vector<std::pair<Destructor, void*>> destructors_;
    std::once_flag splitOnce_;
    std::shared_ptr<SplitResources> split_;
    MemoryModelChoice memory_;
    std::once_flag unifiedOnce_;
    std::unique_ptr<UnifiedResources, void (*)(UnifiedResources*)> unified_{nullptr, nullptr};
    std::once_flag pinnedOnce_;
    std::shared_ptr<PinnedPool> pinned_;
    std::atomic<bool> splitNway_{false};
};

// A context argument of an entry point, validated (CL_INVALID_CONTEXT).
Held<Context> contextOf(cl_context context);

}  // namespace hetero
