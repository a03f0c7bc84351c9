// An application's whole write of a buffer, through the buffer's host copy (pinned where it can
// be) to one backend copy: copied into the host copy in pieces by several threads, each piece sent
// on as soon as it is in, so that copying and sending overlap. One memcpy and then one transfer took
// 7.4-9.0 ms for 64 MiB on the GPU machine, where NVIDIA's own write from ordinary memory takes
// 4.8-5.3 ms and one from pinned memory 1.2 (docs/results/h100-session18).
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <vector>

namespace hetero {

// Copies `bytes` from `from` into `staging` and writes them from there into `to` (from offset 0),
// on `queue`, after `wait`. Returns the write's event (a marker after every piece where there are
// several): `staging` is read until it completes. Throws the backend's error; then nothing it
// enqueued still reads `staging`.
cl_event stagedWrite(cl_command_queue queue, cl_mem to, unsigned char* staging, const void* from, size_t bytes,
                     const std::vector<cl_event>& wait);

}  // namespace hetero
