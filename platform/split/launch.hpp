// Where a kernel launch runs and how: the slot (HETERO_RUN_ON), whole or split (splitDecision, then
// the discrete or the unified engine), timed for auto mode's history or not, with a backend event of
// its own or a deferred one. The API entry point (platform/api/enqueue_kernel.cpp) validates and
// hands every launch here.
//
// A launch that runs whole on one slot, with its memory current there, goes straight to that
// slot's backend queue (Queue::Direct): no command object, no scheduler, arguments set on the
// backend only where they changed, and no backend event unless somebody needs one. Everything
// else (split, timed, memory to bring, a wait list, a busy queue, tracing) becomes a command of the
// queue that the scheduler's rules submit.
#pragma once

#include "platform/engine/event.hpp"
#include "platform/engine/queue.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/launch_geometry.hpp"

#include <vector>

namespace hetero {

// Launches `kernel` on `queue` over `geometry` (validated) after `waitFor`. Returns the launch's
// event when `wantEvent` (the application asked for it), else possibly null.
Ref<Event> launchKernel(cl_command_type type, Queue& queue, Kernel& kernel, const LaunchGeometry& geometry,
                        std::vector<Ref<Event>> waitFor, bool wantEvent);

}  // namespace hetero
