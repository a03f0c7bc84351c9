// The commands of a queue that fill the application's host memory when they run (non-blocking
// reads of buffers, rectangles and images), while in flight. (A map brings its bytes to the host
// copy when it is submitted, so it is done before any later command of its queue is.) A write
// that copies from host memory at its submission (a whole write through the host copy, a large
// blocking one through pinned pieces) must first let those into its source land; anything else
// its dependencies do on the devices is ordered on the backend queue and need not be waited for
// (docs/architecture.md, "Memory coherence").
//
// Kept per queue: in an in-order queue every earlier command is a dependency. A command that
// depends on another queue's unfinished event takes over that queue's reads (Queue::enqueue), so
// chains across queues are covered too. What is found may be more than the write's dependencies
// (an out-of-order queue's, another queue's later reads): waiting for a read already submitted
// costs time, never correctness, and reads not yet submitted are no dependency of a write being
// submitted (everything it waits for was submitted first), so they are left out.
#pragma once

#include "platform/support/object.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace hetero {

class Event;

class HostReadsInFlight {
public:
    // `event`'s command fills [begin, begin + bytes) of host memory when it runs.
    void note(const void* begin, size_t bytes, Ref<Event> event);
    // Takes over `other`'s reads not known complete (another queue's, see above).
    void takeOver(HostReadsInFlight& other);
    // Waits until every submitted read into [begin, begin + bytes) is done, whatever its status
    // (one that failed fails the write through the backend's wait list, as any dependency does).
    void waitForReadsInto(const void* begin, size_t bytes);

private:
    struct Read {
        uintptr_t begin, end;
        Ref<Event> event;
    };
    std::vector<Read> snapshot();
    void pruneLocked();  // drops reads known complete

    std::mutex mutex_;
    std::vector<Read> reads_;
};

}  // namespace hetero
