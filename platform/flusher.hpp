// When Hetero's backend queues get flushed. A flush after every command cost 2-6 us on NVIDIA,
// and a thread flushing in the background cost more (it contends with the enqueuing thread in the
// driver), while NVIDIA and PoCL start commands without one. So a submission only marks its
// backend queue, and a marked queue is flushed when one of its commands must make progress that
// nobody else triggers (OpenCL 3.0, clFlush):
//  - its event goes into another queue's wait list, or gets a completion callback: flushFor(event);
//  - the application calls clFlush (Queue::flush) or a blocking call (implicit in the backend);
//  - and, as a safety net for backends that wait for a flush, after kSafetyNet at the latest.
#pragma once

#include <CL/cl.h>

namespace hetero {

class Flusher {
public:
    // A command was enqueued on `queue` (one of a Hetero queue's backend queues).
    static void later(cl_command_queue queue);
    // `event`'s command is about to be waited on from elsewhere (another queue's wait list, a
    // completion callback): flush its queue if it is marked.
    static void flushFor(cl_event event);
    // The same for a queue known to hold such a command.
    static void now(cl_command_queue queue);
    // `queue` is about to be released: no flush of it happens after this returns.
    static void forget(cl_command_queue queue);
};

}  // namespace hetero
