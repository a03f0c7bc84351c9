// The host copy of a buffer in discrete memory, which is also the CPU slot's copy
// (platform/memory/discrete_storage.cpp): page-locked memory from the context's PinnedPool when it can be
// had, else ordinary page-aligned memory. It goes (back to the pool) when its last holder lets go:
// the Storage, and the backend buffer created on it, which a backend may still use after the
// Storage is gone (its destructor callback says when it is done).
#pragma once

#include "platform/memory/pinned_pool.hpp"

#include <CL/cl.h>

#include <atomic>
#include <memory>

namespace hetero {

class Context;

class HostMemory {
public:
    // Buffers smaller than this are not pinned: their transfers cost their latency, not bandwidth.
    static constexpr size_t kPinFrom = 64 * 1024;

    // `bytes` of host memory with one holder (the caller). Throws Error (CL_OUT_OF_HOST_MEMORY).
    static HostMemory* allocate(Context& context, size_t bytes);

    unsigned char* data() const { return data_; }
    bool pinned() const { return static_cast<bool>(block_); }
    void hold() { ++holders_; }
    void drop();  // the last holder frees the memory (or gives it back to the pool)
    // A destructor callback (clSetMemObjectDestructorCallback) for a backend buffer on the memory.
    static void CL_CALLBACK backendBufferGone(cl_mem, void* memory);

private:
    HostMemory() = default;
    std::atomic<unsigned> holders_{1};
    unsigned char* data_ = nullptr;
    std::shared_ptr<PinnedPool> pool_;
    PinnedPool::Block block_;
};

}  // namespace hetero
