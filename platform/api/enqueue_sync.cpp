// Markers, barriers and the OpenCL 1.1 synchronisation commands.
#include "platform/api/api.hpp"
#include "platform/api/enqueue.hpp"

using namespace hetero;

namespace {
// A marker or barrier: a backend marker on the slot most of its dependencies ran on (others are
// waited for by the queue), so that it completes exactly when they all have.
cl_int enqueueSync(cl_command_queue command_queue, cl_command_type type, bool barrier, cl_uint count,
                   const cl_event* list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto deps = queue->waitList(count, list);
        auto ev = queue->enqueue(type, std::move(deps), nullptr, [](Submission& sub) -> cl_event {
            cl_event e = nullptr;
            const auto waits = sub.waitsOn(sub.backendQueue);
            check(backend::enqueueMarker(sub.backendQueue, waits, &e));
            return e;
        }, barrier);
        return finishEnqueue(std::move(ev), event, false);
    });
}
}  // namespace

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                               const cl_event* event_wait_list, cl_event* event) {
    return enqueueSync(command_queue, CL_COMMAND_MARKER, false, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                                const cl_event* event_wait_list, cl_event* event) {
    return enqueueSync(command_queue, CL_COMMAND_BARRIER, true, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
    if (!fromHandle<Queue>(command_queue)) return CL_INVALID_COMMAND_QUEUE;
    if (!event) return CL_INVALID_VALUE;
    return enqueueSync(command_queue, CL_COMMAND_MARKER, false, 0, nullptr, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
    return enqueueSync(command_queue, CL_COMMAND_BARRIER, true, 0, nullptr, nullptr);
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event* event_list) {
    if (!fromHandle<Queue>(command_queue)) return CL_INVALID_COMMAND_QUEUE;
    if (num_events == 0 || !event_list) return CL_INVALID_VALUE;
    return enqueueSync(command_queue, CL_COMMAND_BARRIER, true, num_events, event_list, nullptr);
}
