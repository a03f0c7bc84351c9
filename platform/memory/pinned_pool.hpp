// Page-locked host memory for the host copies of a context's buffers in discrete memory: carved
// from slabs, each a CL_MEM_ALLOC_HOST_PTR buffer of the GPU slot's backend, mapped once and kept
// mapped. The GPU's driver recognises the pointers as pinned and moves data to and from them by DMA
// (NVIDIA on the H100: 34-44 GB/s against 7 GB/s for ordinary memory, issue 16); the CPU slot
// computes in them in place (platform/memory/discrete_storage.cpp creates its buffer there with
// CL_MEM_USE_HOST_PTR).
//
// Slabs, not a backend buffer per block: a host copy is pinned right before its GPU buffer is made,
// and NVIDIA's pinned allocations between an application's buffers move those buffers on the GPU,
// unless they are multiples of 32 MiB. Moved, gesummv LARGE's kernel ran 0.362 ms on the H200
// against 0.325 natively (gemm's and 3mm's 2-3 % faster: the aim is the native layout); with its
// host copies carved from a first slab of 32 or 64 MiB it ran 0.327, from 16 or 48 MiB
// 0.336-0.358 (docs/results/h200-session39). So slabs are multiples of 32 MiB: 32, then twice the
// largest so far, up to 256 MiB, or a larger block's size rounded up. Pinning costs about 0.5 ms
// per MiB there.
//
// Blocks come in size classes (a quarter of a power of two apart) and are kept when their buffer
// goes, for the next buffer of that class. The bytes pinned by the whole process stay within a
// budget (HETERO_PINNED_BUDGET, configuration key `pinned_budget`; default a quarter of the
// machine's memory, 0 turns pinning off): a slab is cut to what the budget has left, and past it,
// or when the backend refuses, a host copy is ordinary memory, and the log says so once.
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
    struct Slab;

public:
    struct Block {
        unsigned char* data = nullptr;  // inside its slab's mapped memory
        size_t bytes = 0;               // the size class
        Slab* slab = nullptr;           // the pool's: where it was carved from
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

    static constexpr size_t kSlabGranule = size_t{32} << 20;
    static constexpr size_t kFirstSlab = kSlabGranule;
    static constexpr size_t kLargestSlab = size_t{256} << 20;
    static constexpr size_t kBlockAlign = 4096;  // page-aligned blocks (PoCL's CL_MEM_USE_HOST_PTR in place)

private:
    // One backend buffer, mapped once; blocks are carved from its start on and never go back to it
    // (a kept block serves its class again).
    struct Slab {
        cl_mem buffer = nullptr;  // owned: released by unpin
        unsigned char* data = nullptr;
        size_t bytes = 0;
        size_t carved = 0;  // bytes from the start handed out as blocks
        size_t out = 0;     // its blocks now used by a buffer (not kept)
    };

    Block carve(size_t classBytes);   // from a slab with room, else a new slab; empty when refused
    Slab* pin(size_t slabBytes);      // a new slab; null when the backend refuses
    void unpin(Slab* slab);
    size_t slabSize(size_t classBytes) const;  // the slab a new block of that class would start
    // Counts `slabBytes` in, releasing slabs none of whose blocks is used to fit the budget.
    bool reserve(size_t slabBytes);

    backend::Context context_;
    cl_device_id device_;
    backend::Queue queue_;  // for the maps and unmaps
    std::mutex mutex_;
    std::vector<std::unique_ptr<Slab>> slabs_;
    std::map<size_t, std::vector<Block>> kept_;  // by class
};

}  // namespace hetero
