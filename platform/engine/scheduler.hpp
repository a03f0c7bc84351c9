// The process-wide scheduler thread: submits queued commands whose dependencies were not met when
// they were enqueued (user events, commands on other slots, out-of-order waits).
#pragma once

#include "platform/engine/queue.hpp"

namespace hetero {

class Scheduler {
public:
    // The queue has pending commands: keep trying them until none is left.
    static void watch(Queue* queue);
};

}  // namespace hetero
