// Backend queues are flushed by a thread of Hetero's own, not by the thread that enqueued: a flush
// costs microseconds per command on NVIDIA, and the enqueuing thread is the application's. A
// submission marks its backend queue; the flusher flushes every marked queue soon after, in
// batches, so cross-queue waits and completion callbacks never wait for a flush that never comes.
// (Blocking calls and clWaitForEvents flush by themselves, OpenCL 3.0 §5.15.)
#pragma once

#include <CL/cl.h>

namespace hetero {

class Flusher {
public:
    // Flush `queue` soon.
    static void later(cl_command_queue queue);
    // `queue` is about to be released: it leaves the flusher's list, and any flush of it in progress
    // has ended when this returns.
    static void forget(cl_command_queue queue);
};

}  // namespace hetero
