// Short data-parallel work on a few kept threads: what one thread cannot do fast enough alone
// (memcpy into pinned memory: 11-15 GB/s on one core of the GPU machine, 44-68 GB/s on eight,
// where NVIDIA sends 45-54 GB/s from pinned memory; docs/results/h100-session18).
#pragma once

#include <cstddef>
#include <functional>

namespace hetero {

// How many threads parallelFor uses at most: half the machine's cores, from 2 to 8.
unsigned parallelThreads();

// Calls body(i) once for every i in [0, count): i = 0 on the calling thread, the others on kept
// worker threads (started the first time, never stopped). Returns once every call has returned.
// Any number of threads may call it at once. `body` must not throw. Backend calls belong in i = 0:
// on NVIDIA, commands enqueued from several threads slowed the process's later launches
// (staged_transfer.cpp).
void parallelFor(unsigned count, const std::function<void(unsigned)>& body);

// memcpy, by parallelFor's threads from 4 MiB on (each taking at least 2 MiB).
void copyInParallel(void* to, const void* from, size_t bytes);

// The same for memory that a device's transfer reads next, not this core (a host copy or a pinned
// block before its transfer to a GPU): the stores bypass the caches (non-temporal stores on x86-64,
// fenced before it returns; elsewhere memcpy), so no destination line is read first or kept. On one
// H100 the application's writes through the host copy got faster by it: six programs' total time
// 0.572x -> 0.545x native (gemm 0.685 -> 0.610 ms, convolution-2d 9.34 -> 8.56; docs/results/h100-session22).
void copyForTransfer(void* to, const void* from, size_t bytes);
// copyForTransfer's copy on this thread alone.
void copyBypassingCaches(void* to, const void* from, size_t bytes);

}  // namespace hetero
