// The host copy of a buffer in discrete memory, which is also the CPU slot's copy
// (platform/memory/discrete_storage.cpp): page-locked memory from the context's PinnedPool when it can be
// had, else ordinary page-aligned memory. It goes (back to the pool) when its last holder lets go:
// the Storage, and the backend buffer created on it, which a backend may still use after the
// Storage is gone (its destructor callback says when it is done).
#pragma once

#include "devices/backend_call.hpp"
#include "platform/memory/pinned_pool.hpp"

#include <CL/cl.h>

#include <atomic>
#include <memory>
#include <vector>

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
    // The last holder frees the memory (or gives it back to the pool), once its readers are done.
    void drop();
    // A backend command reads the memory until `e` completes (a transfer to the GPU from the host
    // copy): the memory is neither freed nor reused before. Not heard by a completion callback,
    // which on NVIDIA slows every later launch of the process (docs/results/h100-session13): the
    // last drop() asks whether the readers are done, and only one still running is waited for by
    // callback. Called with the owning storage's mutex held; the last drop() is alone by then.
    void readUntil(cl_event e);
    // A destructor callback (clSetMemObjectDestructorCallback) for a backend buffer on the memory.
    static void CL_CALLBACK backendBufferGone(cl_mem, void* memory);

private:
    HostMemory() = default;
    void releaseOnceRead();  // frees the memory when its readers are done, or arranges that

    std::atomic<unsigned> holders_{1};
    unsigned char* data_ = nullptr;
    std::shared_ptr<PinnedPool> pool_;
    PinnedPool::Block block_;
    std::vector<backend::Event> readers_;  // unfinished as of the last readUntil()
};

}  // namespace hetero
