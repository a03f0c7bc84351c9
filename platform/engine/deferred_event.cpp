#include "platform/engine/deferred_event.hpp"

#include "platform/support/log.hpp"
#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"

namespace hetero {

DeferredEvent::DeferredEvent(cl_command_queue queue)
    : queue_(std::make_shared<const backend::Queue>(backend::Queue::retained(queue))) {}

DeferredEvent::DeferredEvent(std::shared_ptr<const backend::Queue> queue) : queue_(std::move(queue)) {}

bool DeferredEvent::stillOpen() { return !made_.load(std::memory_order_acquire); }

void DeferredEvent::closeWith(cl_event next) {
    std::lock_guard lock(mutex_);
    if (made_.load(std::memory_order_relaxed)) return;
    marker_ = backend::Event::retained(next);
    made_.store(true);
}

cl_event DeferredEvent::get() {
    std::lock_guard lock(mutex_);  // held across the enqueue: a second caller gets the same marker
    if (made_.load(std::memory_order_relaxed)) return marker_.get();
    made_.store(true);  // before the marker's enqueue: stillOpen() answers before or after it
    cl_int err = backend::enqueueMarker(queue(), {}, marker_.receive());
    if (err == CL_SUCCESS) {
        backend::flush(queue());
        return marker_.get();
    }
    // No marker: wait for the queue itself, so that whoever asked still sees the truth.
    HETERO_LOG(Warn, "a marker was refused (%d); waiting for the queue instead", err);
    marker_.release();  // a refused enqueue leaves nothing to release
    err = backend::finish(queue());
    complete_ = true;
    status_ = err == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    return nullptr;
}

bool DeferredEvent::seenComplete(cl_int& status) {
    std::lock_guard lock(mutex_);
    if (complete_) status = status_;
    return complete_;
}

void DeferredEvent::sawComplete(cl_int status) {
    std::lock_guard lock(mutex_);
    if (complete_) return;
    complete_ = true;
    status_ = status;
}

}  // namespace hetero
