// The merged results of a split launch on their way back to the CPU's copies, after the launch's
// event completed. It holds only backend objects (retained) and a pool, so the application may
// release every object of its own meanwhile.
#pragma once

#include "merge/pool.hpp"

#include "devices/backend_call.hpp"

#include <functional>
#include <vector>

namespace hetero::merge {

struct StreamBack {
    cl_command_queue cpuQueue = nullptr;   // the CPU copies' in-order queue (behind any chunk left running)
    cl_command_queue gpuQueue = nullptr;   // where the results are read from
    BufferPool* pool = nullptr;            // where each item's `from` goes back to
    cl_context gpuContext = nullptr;
    struct Item {
        cl_mem from;   // a pool buffer of the GPU's context holding the result
        backend::Buffer onCpu;  // the CPU copy
        size_t bytes;
    };
    std::vector<Item> items;
    std::vector<cl_event> cpuReady;  // the CPU copies' earlier users, when the launch did not wait for them
    size_t bytesMoved = 0;
    std::function<void(size_t bytes)> beforeEach;  // tests' delays

    // Brings every item into its CPU copy; throws Error when a backend call fails.
    void run();
    // Gives the buffers back and drops the references; after run(), or instead of it.
    void release();
};

}  // namespace hetero::merge
