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
        Slot(merge::KernelSet::Builder builder, bool lanes) : mergeKernels(std::move(builder), lanes) {}
        backend::Queue queue;
        merge::KernelSet mergeKernels;
        // For a merge enqueued before its GPU kernel ends, behind the kernel's event. One launch
        // holds it at a time (takeAheadQueue), until that merge is done: such a merge never waits
        // behind another launch's command, nor another's command behind it (commands on the
        // shared queue above carry no wait lists, for that reason).
        backend::Queue aheadQueue;
        bool aheadTaken = false;  // under SplitResources::mutex
    };
    Context* context;  // used only while the context lives (queues and merge kernels are made then)
    merge::BufferPool pool;
    merge::HostBufferPool hostPool;
    std::vector<std::unique_ptr<Slot>> slots;
    std::mutex mutex;

    // The slot's internal queue made on first use (throws Error when the backend refuses).
    Slot& slot(unsigned s);
    // The slot's merge-ahead queue, made on first use, or null while another launch holds it (or
    // the backend refuses one). Give it back once everything enqueued on it is done.
    cl_command_queue takeAheadQueue(unsigned s);
    void giveAheadQueue(unsigned s);
    ~SplitResources();
};

}  // namespace hetero
