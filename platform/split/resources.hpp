// What a context's split launches share: the buffer pools, and per slot an internal queue (CPU
// chunks on the CPU slot; transfers and merges on the GPU slot) and the merge kernels.
#pragma once

#include "merge/merge.hpp"
#include "merge/pool.hpp"

#include "devices/backend_call.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class Context;

struct SplitResources {
    struct Slot {
        explicit Slot(merge::KernelSet::Builder builder) : mergeKernels(std::move(builder)) {}
        backend::Queue queue;
        merge::KernelSet mergeKernels;
    };
    Context* context;  // used only while the context lives (queues and merge kernels are made then)
    merge::BufferPool pool;
    merge::HostBufferPool hostPool;
    std::vector<std::unique_ptr<Slot>> slots;
    std::mutex mutex;

    // The slot's internal queue made on first use (throws Error when the backend refuses).
    Slot& slot(unsigned s);
    ~SplitResources();
};

}  // namespace hetero
