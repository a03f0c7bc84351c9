// The merge of a split launch (docs/hazards.md; FluidiCL, CGO 2014, §4.3): on the GPU, after its kernel,
// every written memory object is combined element by element with what the CPU sent:
//     out[i] = cpu[i] != orig[i] ? cpu[i] : gpu[i]
// compared as raw bits at the stored scalar size (H2: never per byte, never as floats, so NaNs and
// -0.0 survive exactly). Also the buffer pool that snapshot and receive buffers come from.
#pragma once

#include "platform/support/object.hpp"

#include <CL/cl.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace hetero::merge {

// OpenCL C source of the merge kernels hetero_merge_u8/u16/u32/u64.
const char* kernelSource();
const char* kernelName(size_t elementSize);  // nullptr for sizes other than 1, 2, 4, 8

// Enqueues the merge of `bytes` bytes (a multiple of elementSize) on `queue`:
// gpu := cpu != orig ? cpu : gpu. `kernel` is the hetero_merge_* kernel for elementSize.
// Returns the backend event.
cl_event enqueueMerge(cl_command_queue queue, cl_kernel kernel, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t bytes,
                      size_t elementSize, const std::vector<cl_event>& waitList);

// Backend buffers reused across launches, per backend context and size. Buffers idle for longer
// than `idleLimit` releases are dropped, so the pool shrinks when launches stop needing them.
class BufferPool {
public:
    ~BufferPool();
    cl_mem take(cl_context context, size_t bytes);  // throws Error
    void give(cl_context context, cl_mem buffer, size_t bytes);

private:
    struct Entry {
        cl_mem buffer;
        unsigned idle;  // how many give() calls it has waited through
    };
    std::mutex mutex_;
    std::map<std::pair<cl_context, size_t>, std::vector<Entry>> free_;
};

// Host buffers (what a split launch last sent to the GPU), reused across launches: the page faults
// of a fresh allocation cost more than the copies they serve. At most `idleBytesLimit` stay idle.
class HostBufferPool {
public:
    std::vector<unsigned char> take(size_t bytes);
    void give(std::vector<unsigned char> buffer);

private:
    static constexpr size_t idleBytesLimit = size_t{1} << 30;
    std::mutex mutex_;
    std::vector<std::vector<unsigned char>> free_;  // oldest first
    size_t idleBytes_ = 0;
};

}  // namespace hetero::merge
