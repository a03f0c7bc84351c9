// With HETERO_TRACE: split commands drawn as their device ran them, on the trace's clock, where
// the host only sees when each is done. The split engines' queues profile then (resources.cpp,
// Queue::backendQueue), and each slot's clock is placed on the host's (backend_clock.hpp).
#pragma once

#include "devices/backend_commands.hpp"
#include "platform/observe/trace.hpp"

#include <CL/cl.h>

#include <string>
#include <vector>

namespace hetero {

class Context;

// Places `slot`'s device clock on the host's, once per process (nothing when tracing is off).
void calibrateForTrace(Context& context, unsigned slot);

// A span on `lane` from `from`'s `fromWhat` (CL_PROFILING_COMMAND_START, ..._END) to `to`'s end,
// both device times of `slot`; nothing when tracing is off or either time is unknown.
void traceOnDeviceClock(unsigned slot, const trace::Lane& lane, const std::string& name, cl_event from,
                        cl_profiling_info fromWhat, cl_event to, std::vector<trace::Arg> args = {});

// backend::enqueueAndWait, with the command drawn as its device ran it on `lane`.
template <typename Enqueue>
cl_int enqueueAndWaitTraced(unsigned slot, const trace::Lane& lane, const std::string& name, Enqueue enqueue) {
    if (!trace::enabled()) return backend::enqueueAndWait(enqueue);
    cl_event done = nullptr;
    cl_int err = enqueue(&done);
    if (err != CL_SUCCESS) return err;
    err = backend::waitFor(done);
    if (err == CL_SUCCESS) traceOnDeviceClock(slot, lane, name, done, CL_PROFILING_COMMAND_START, done);
    backend::releaseEvent(done);
    return err;
}

}  // namespace hetero
