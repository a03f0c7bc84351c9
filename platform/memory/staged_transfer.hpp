// Transfers between the application's (ordinary) memory and a backend buffer through pinned
// memory, in pieces, copied by several threads while the backend moves the piece before or after:
// on the GPU machine one core copies 11-15 GB/s into or out of pinned memory, eight 44-68 GB/s,
// NVIDIA moves 45-54 GB/s from or to pinned memory and 7-15 GB/s from or to ordinary memory
// (docs/results/h100-session18).
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace hetero {

class PinnedPool;

// An application's whole write of a buffer goes through the buffer's host copy (pinned where it
// can be) to one backend copy, in pieces from 4 MiB on (a quarter of it each, 1 to 8 MiB): one
// memcpy and then one transfer took 7.4-9.0 ms for 64 MiB, where NVIDIA's own write from ordinary
// memory takes 4.8-5.3 ms and one from pinned memory 1.2.

// Copies `bytes` from `from` into `staging` and writes them from there into `to` (from offset 0),
// on `queue`, after `wait`. Returns the write's event (a marker after every piece where there are
// several): `staging` is read until it completes. `oneTransfer`: the copy first, then one transfer,
// whose event then spans all of it (a profiling queue's command reports its own start and end).
// Throws the backend's error; then nothing it enqueued still reads `staging`.
cl_event stagedWrite(cl_command_queue queue, cl_mem to, unsigned char* staging, const void* from, size_t bytes,
                     const std::vector<cl_event>& wait, bool oneTransfer);

// Whether a blocking read or write of `bytes` goes through stagedRead / stagedBlockingWrite: from
// 16 MiB on (8 MiB pieces). Not on a profiling queue, whose command reports its own start and end
// (the caller asks).
bool transferStaged(size_t bytes);
// A blocking read of `bytes` from `from` at `offset` into `to`, through a ring of a few pieces'
// worth of pinned memory from `pool`, after `wait`; done when it returns. Returns the last piece's
// (complete) event, or null when the pool has no ring to spare (nothing was enqueued: read
// directly). Throws the backend's error; then nothing it enqueued still runs.
cl_event stagedRead(cl_command_queue queue, cl_mem from, size_t offset, void* to, size_t bytes,
                    const std::vector<cl_event>& wait, PinnedPool& pool);
// The same for a write of `bytes` from `from` into `to` at `offset` that does not go through a host
// copy (a part of a buffer; no CPU slot; a context that never split N-way): a blocking one, or a
// non-blocking one with nothing ahead of it still running (clEnqueueWriteBuffer).
cl_event stagedBlockingWrite(cl_command_queue queue, cl_mem to, size_t offset, const void* from, size_t bytes,
                             const std::vector<cl_event>& wait, PinnedPool& pool);

}  // namespace hetero
