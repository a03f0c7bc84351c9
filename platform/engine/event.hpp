// Hetero events: the status of one command (or a user event), its profiling times, callbacks,
// and the backend event that carries it once submitted to a backend device.
#pragma once

#include "platform/objects/context.hpp"
#include "platform/engine/deferred_event.hpp"
#include "platform/engine/event_tail.hpp"
#include "platform/support/object.hpp"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

class Queue;

class Event : public ApiObject<_cl_event, Kind::Event> {
public:
    using Callback = void(CL_CALLBACK*)(cl_event, cl_int, void*);

    Event(Context* context, Queue* queue, cl_command_type type);

    Context* context() const { return context_.get(); }
    Queue* queue() const;
    // The event's queue while the event is unfinished (the queue is held until then); else empty.
    Ref<Queue> queueWhileUnfinished() const;
    cl_command_type commandType() const { return type_; }

    cl_int status() const;
    bool isComplete() const;  // CL_COMPLETE or an error (asks the backend if need be)
    bool knownComplete() const;  // the same, without asking the backend (never runs callbacks)
    // The backend event a command on `slot` can wait on instead of the host, if any.
    cl_event backendEventFor(unsigned slot) const;
    // True once the event is complete or has a backend event (so others can chain on it).
    bool isResolvable() const;

    // Transitions. submitted(): the command now runs as `backendEvent` on `slot` (retained here);
    // completion follows from that event. complete(): final status (CL_COMPLETE or negative).
    // Completion is noticed when somebody asks (status queries, waits, the queue's bookkeeping)
    // unless push notification is needed: then a backend completion callback tells at once. A
    // callback costs about 11 us per command on NVIDIA, so only events that need one get one.
    // `backendEvent` null and `later` set: the command was enqueued on `later`'s queue without a
    // backend event (deferred_event.hpp); one is made only if somebody needs it.
    void submitted(unsigned slot, cl_event backendEvent, std::shared_ptr<DeferredEvent> later = nullptr);
    // A new event of `queue` for a command that is already submitted (Queue::Direct, every launch
    // with an event): submitted() without its lock, callbacks and wake-ups, as nobody else can
    // hold, wait on or have registered anything on the event yet. `queuedAt`: when the application
    // enqueued it (hostNanoseconds; 0: now). A profiled command's QUEUED must come before its
    // backend call, in which the device may already run all of it.
    static Ref<Event> madeSubmitted(Context* context, Queue* queue, cl_command_type type, unsigned slot,
                                    cl_event backendEvent, std::shared_ptr<DeferredEvent> later, cl_ulong queuedAt);
    // While the command runs on `slot` without a backend event of its own: its deferred event. A
    // command enqueued on the same in-order backend queue is ordered after it without waiting.
    std::shared_ptr<DeferredEvent> deferredOn(unsigned slot) const;
    // False while asking the status would make a deferred event's marker (the queue's bookkeeping
    // asks only when it must).
    bool cheapToAsk() const;
    // What a command enqueued on `slot`'s backend queue right after this one must know of it, in
    // one look under the lock (Queue::Direct asks on every launch): complete and its final status;
    // else whether unfinished tails hold it back, and, when it runs on `slot`, its deferred event
    // or its backend event (both borrowed: valid while this event lives and stays submitted).
    struct Successor {
        bool complete = false;
        cl_int status = CL_COMPLETE;
        bool unfinishedTails = false;
        DeferredEvent* deferred = nullptr;
        cl_event backend = nullptr;
    };
    Successor successorOn(unsigned slot) const;
    void complete(cl_int status);
    void setUserStatus(cl_int status);  // clSetUserEventStatus

    // Work that must end before the event counts as complete, though its backend event may be
    // complete already (event_tail.hpp): the command's own (a split launch's CPU side), and the
    // unfinished tails of the commands it depends on. Added before submitted().
    void addTails(const Tails& tails);
    // The unfinished tails a command depending on this one inherits (none once it is complete).
    Tails unfinishedTails() const;

    // For the trace (HETERO_TRACE): what follows the command type in the span's name (a kernel's
    // name) and the bytes the command moves; set before submission.
    // `alsoTrace` draws more of the command when it completes (a launch's span on "launches").
    using TraceHook = std::function<void(int slot, double beginUs, double endUs, cl_int status)>;
    void setTraceLabel(std::string detail, uint64_t bytes, TraceHook alsoTrace);
    // The command is being submitted to `slot` (or the host). Its span in the trace, on lane
    // {slot, "queue <n>"}, ends when the event completes and starts at the later of now and the
    // completion of the command ahead of it on that backend queue (Queue::traceStart).
    void submitting(int slot);

    // Somebody must hear of the completion as it happens (a callback, a command waiting in the
    // scheduler, a queue being released): from now on the backend's completion callback completes this event.
    void needNotification();

    // Blocks until complete; returns the final status.
    cl_int wait();
    // The application's wait (clWaitForEvents, a blocking enqueue): also, on an in-order queue, for
    // the commands enqueued before it, whose completions may be heard later on other threads (a
    // split launch's waits for its tail on the backend's callback thread while the read after it
    // is completed from the application's; a traced command draws its span when it completes).
    // Whoever saw this one complete then sees those complete too, and finds their spans in the
    // trace. (A command's completion cannot wait for the ones before it instead: they may wait for
    // the same tail, on the thread that would run it.)
    cl_int waitInOrder();

    void addCallback(cl_int status, Callback fn, void* userData);
    cl_int profilingInfo(cl_profiling_info param, size_t size, void* value, size_t* sizeRet);
    cl_int info(cl_event_info param, size_t size, void* value, size_t* sizeRet);

protected:
    ~Event() override;
    void lastReleased() override;

private:
    void runCallbacks(cl_int reached, std::unique_lock<std::mutex>& lock);
    // Whether its submission to `slot` as `backendEvent` must be heard at once (submitted()); with
    // mutex_ held, or before the event is shared.
    bool watchFromSubmission(unsigned slot, cl_event backendEvent) const;
    void watchSubmitted();  // submitted()'s end once watched_ is set: hear the backend event
    void watchBackend(cl_event backend);  // registers the completion callback
    void hear(cl_event backend, cl_int finalStatus);  // watchBackend(backend), or complete when null
    // With mutex_ held: the backend event, made from the deferred one if need be. Null if there is
    // none (not submitted, or a deferred one whose queue was finished instead: deferredFinal()).
    cl_event backendLocked();
    bool deferredFinal(cl_int& status) const;  // with mutex_ held
    void traceSpan(cl_int status);  // with mutex_ held

    // The slot whose backend context made backendEvent_ (a split's may be another than slot_); -1 if none.
    int slotOfBackendEvent() const;

    Ref<Context> context_;
    Queue* queue_;  // retained (a Queue is RefCounted) until the event completes
    // Its handle, for CL_EVENT_COMMAND_QUEUE: answerable after the queue itself is gone.
    cl_command_queue queueHandle_ = nullptr;
    unsigned queueId_ = 0;
    cl_command_type type_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    cl_int status_;
    bool completing_ = false;  // complete() runs (its callbacks unlock the mutex): a second call has nothing to do
    int slot_ = -1;
    backend::Event backendEvent_;
    std::shared_ptr<DeferredEvent> deferred_;  // submitted() without an event; backendEvent_ comes from it
    bool notify_ = false;   // push notification wanted (needNotification)
    bool watched_ = false;  // the backend completion callback is registered
    bool profiling_ = false;
    cl_ulong times_[4] = {0, 0, 0, 0};  // queued, submit, start, end
    struct TraceSpan {
        std::string detail;
        uint64_t bytes = 0;
        int slot = -1;
        double begin = -1;  // trace::now() at submission; < 0: not traced
        TraceHook also;
    } trace_;
    struct Registered {
        cl_int status;
        Callback fn;
        void* userData;
    };
    std::vector<Registered> callbacks_;
    bool heldForCallbacks_ = false;  // a reference of its own while callbacks wait (addCallback)
    Tails tails_;               // unfinished work that holds back completion (addTails)
    // complete() was called and waits for this tail to finish (null: not held). Once it has
    // finished the event completes whoever asks first: its own call from the tail may come after
    // others the same tail held (Tail::finish runs them one by one), and an event that waited for
    // this one must never be seen complete before it.
    std::shared_ptr<Tail> heldBy_;
};

// A process-wide signal raised whenever any event becomes resolvable or complete; schedulers wait
// on it instead of on each event.
class EventSignal {
public:
    // Wakes the waiters, if anyone listens (see listen()): every status change calls it, and a
    // wake-up costs a system call on the hot path of every command.
    static void raise();
    // The scheduler listens while it watches queues; with nobody listening raise() does nothing.
    static void listen(bool on);
    // Waits until raise() is called after `seen`, or returns at once if it was; updates `seen`.
    static void waitAfter(unsigned long& seen);
    static unsigned long current();
};

// Host clock in nanoseconds, for the profiling times Hetero records itself.
cl_ulong hostNanoseconds();

}  // namespace hetero
