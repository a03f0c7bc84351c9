// Shared pieces of the clEnqueue* entry points: argument validation and the common ending
// (hand out the event, wait when blocking).
#pragma once

#include "platform/support/error.hpp"
#include "platform/engine/event.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/engine/queue.hpp"
#include "platform/engine/submit.hpp"

namespace hetero {

// The handles of an enqueue call, held for the call (fromHandle), or the call fails with the
// error the specification gives.
inline Held<Queue> queueOf(cl_command_queue q) {
    auto queue = fromHandle<Queue>(q);
    require(queue != nullptr, CL_INVALID_COMMAND_QUEUE);
    return queue;
}

inline Held<Mem> memOf(const Held<Queue>& queue, cl_mem m, cl_int invalid = CL_INVALID_MEM_OBJECT) {
    auto mem = fromHandle<Mem>(m);
    require(mem != nullptr, invalid);
    require(mem->context() == queue->context(), CL_INVALID_CONTEXT);
    return mem;
}

inline Held<Mem> bufferOf(const Held<Queue>& queue, cl_mem m) {
    auto mem = memOf(queue, m);
    require(!mem->isImage(), CL_INVALID_MEM_OBJECT);
    return mem;
}

inline Held<Mem> imageOf(const Held<Queue>& queue, cl_mem m) {
    auto mem = memOf(queue, m);
    require(mem->isImage(), CL_INVALID_MEM_OBJECT);
    return mem;
}

// Waits for the event if the call is blocking, and hands it to the application if asked (this
// reference becomes the application's: no retain and release on the way). A blocking call whose
// command failed returns an error and no event: an application does not release what a failed
// call did not give it, and an event left behind would keep its context. `event` may be null
// only for a non-blocking call that asked for none (a direct launch makes none then).
inline cl_int finishEnqueue(Ref<Event> event, cl_event* out, bool blocking) {
    if (blocking && event->waitInOrder() < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (out) *out = event.detach()->handle();
    return CL_SUCCESS;
}

// A map of `m` at `offset` of its host copy: the pointer is known now; the command brings the
// current contents to the host copy (unless the whole object is invalidated). Returns the pointer.
inline void* enqueueMap(Queue* queue, Mem* m, cl_command_type type, std::vector<Ref<Event>> deps, cl_map_flags flags,
                        size_t offset, size_t size, bool invalidatesAll, bool blocking, cl_event* event) {
    unsigned char* ptr;
    {
        std::lock_guard lock(m->storage().mutex);
        ptr = m->storage().host() + offset;
    }
    bool skipRead = (flags & CL_MAP_WRITE_INVALIDATE_REGION) && invalidatesAll;
    Ref<Mem> keep(m);
    m->addMapping(ptr, {flags, offset, size});
    auto ev = queue->enqueue({type, {}, size}, std::move(deps), [] { return kHostSlot; }, [keep, skipRead](Submission& sub) -> cl_event {
        if (!skipRead) {
            std::lock_guard lock(keep->storage().mutex);
            keep->storage().makeHostFresh(sub.queue);
        }
        return nullptr;
    });
    cl_int err = finishEnqueue(std::move(ev), event, blocking);
    if (err != CL_SUCCESS) {
        Mem::Mapping unused;
        m->takeMapping(ptr, unused);  // the application gets no pointer to unmap
        fail(err);
    }
    return ptr;
}

}  // namespace hetero
