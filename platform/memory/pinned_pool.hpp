// Page-locked host memory for the host copies of a context's buffers in discrete memory: a
// CL_MEM_ALLOC_HOST_PTR buffer of the GPU slot's backend, mapped once and kept mapped. The GPU's
// driver recognises the pointer as pinned and moves data to and from it by DMA (NVIDIA on the H100:
// 34-44 GB/s against 7 GB/s for ordinary memory, issue 16); the CPU slot computes in it in place
// (platform/memory/discrete_storage.cpp creates its buffer there with CL_MEM_USE_HOST_PTR).
//
// Blocks come in size classes (a quarter of a power of two apart) and are kept when their buffer
// goes, for the next buffer of that class. The bytes pinned by the whole process stay within a
// budget (HETERO_PINNED_BUDGET, configuration key `pinned_budget`; default a quarter of the
// machine's memory, 0 turns pinning off): past it, or when the backend refuses, a host copy is
// ordinary memory, and the log says so once.
#pragma once

#include "devices/backend_call.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class PinnedPool {
public:
    struct Block {
        // The backend buffer that owns the memory (kept mapped). Raw: a block is copied between the
        // pool and the storage using it; the pool releases it (unpin).
        cl_mem buffer = nullptr;
        unsigned char* data = nullptr;  // its mapped pointer
        size_t bytes = 0;               // the size class
        explicit operator bool() const { return data != nullptr; }
    };

    // Pins through `device` of the backend context `context` (retained while the pool lives).
    PinnedPool(cl_context context, cl_device_id device);
    ~PinnedPool();
    PinnedPool(const PinnedPool&) = delete;
    PinnedPool& operator=(const PinnedPool&) = delete;

    // A block of at least `bytes`: a kept one of its class, else a new one; an empty Block when the
    // budget would be exceeded or the backend refuses (then the caller uses ordinary memory).
    Block take(size_t bytes);
    // The block's memory is no longer used by anyone: kept for the next take() of its class.
    void give(const Block& block);

    // Smallest class holding `bytes`: 4 KiB at least, else 1, 1.25, 1.5 or 1.75 times a power of two.
    static size_t sizeClass(size_t bytes);
    // The budget in bytes (configuration, read once).
    static uint64_t budget();
    // Bytes pinned by the process now (kept blocks included).
    static uint64_t pinnedBytes();

private:
    Block pin(size_t classBytes);   // a new block; empty when the backend refuses
    void unpin(const Block& block);
    bool reserve(size_t classBytes);  // counts a new block in, dropping kept ones to fit the budget

    backend::Context context_;
    cl_device_id device_;
    backend::Queue queue_;  // for the maps and unmaps
    std::mutex mutex_;
    std::map<size_t, std::vector<Block>> kept_;  // by class
};

}  // namespace hetero
