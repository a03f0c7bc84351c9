// A backend event made only when someone needs it. On NVIDIA a command enqueued with an event costs
// about 2.6 us more than one without (bench/tools/launch_cost.c), and most launches of a
// launch-heavy program are never waited for one by one. Commands enqueued one after another on one
// in-order backend queue, without an event, share one DeferredEvent: the first time anybody needs it
// (a status query, a wait, a command on another queue), it becomes a marker enqueued on that queue,
// which completes after every one of them. The events of those commands then report the marker's
// status, which is never earlier than their own.
#pragma once

#include "devices/backend_call.hpp"

#include <atomic>
#include <memory>
#include <mutex>

namespace hetero {

class DeferredEvent {
public:
    // Holds a reference to `queue`: a memory object may outlive the Hetero queue that wrote it.
    explicit DeferredEvent(cl_command_queue queue);
    // Shares the Hetero queue's own reference instead: one per deferred event cost a
    // clRetainCommandQueue and a clReleaseCommandQueue on the launch path, 1.5-6 us on NVIDIA
    // (docs/results/h200-session34, call I).
    explicit DeferredEvent(std::shared_ptr<const backend::Queue> queue);
    ~DeferredEvent() = default;
    DeferredEvent(const DeferredEvent&) = delete;
    DeferredEvent& operator=(const DeferredEvent&) = delete;

    cl_command_queue queue() const { return queue_->get(); }

    // For a command just enqueued on queue(): true if it may share this object, i.e. no marker was
    // made yet (one made from now on comes after the command). Else it needs a new one.
    bool stillOpen();
    // The next command enqueued on queue() with an event of its own serves instead of a marker:
    // whoever sees it complete then also sees these complete. `next` is retained; ignored if a
    // marker was made already.
    void closeWith(cl_event next);
    // The marker (made on first call), borrowed: valid while this object lives. Null when the
    // backend refused a marker; then the queue was finished instead and everything is complete.
    cl_event get();
    // Whether the marker exists and was seen complete, without making one (no backend call once
    // seen complete). `status` gets the final status then.
    bool seenComplete(cl_int& status);
    // Records a final status of the marker seen by someone else.
    void sawComplete(cl_int status);

private:
    // The Hetero queue's reference, or one of its own. Declared before marker_: the queue's
    // reference is given up after the marker's.
    std::shared_ptr<const backend::Queue> queue_;
    std::mutex mutex_;
    backend::Event marker_;
    // Set under mutex_; read without it by stillOpen() (every launch without an event asks): a
    // command enqueued before a marker is made or a closing command is named (both in order with
    // the enqueues on queue()) sees it false, one enqueued after sees it true.
    std::atomic<bool> made_{false};
    bool complete_ = false;
    cl_int status_ = CL_COMPLETE;
};

}  // namespace hetero
