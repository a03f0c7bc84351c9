// A Hetero command queue. Commands are submitted to the backends as soon as their dependencies
// allow: at once from the enqueuing thread when nothing is ahead of them, else by the process-wide
// scheduler thread (platform/engine/scheduler.cpp). In-order queues submit strictly in order; out-of-order queues submit any command
// whose dependencies are met. Each Hetero queue owns one in-order backend queue per slot.
#pragma once

#include "devices/call_pipe.hpp"
#include "platform/engine/command.hpp"
#include "platform/engine/host_reads.hpp"
#include "platform/engine/launch_run.hpp"
#include "platform/objects/context.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace hetero {

class Queue : public ApiObject<_cl_command_queue, Kind::CommandQueue> {
public:
    // properties: the cl_queue_properties list as given (may be null).
    static Queue* create(Context* context, const cl_queue_properties* properties, bool legacy,
                         cl_command_queue_properties legacyFlags);

    Context* context() const { return context_.get(); }
    cl_command_queue_properties flags() const { return flags_; }
    // A number naming the queue in the trace ("queue 3"), unique in the process.
    unsigned id() const { return id_; }
    bool outOfOrder() const { return flags_ & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE; }
    bool profiling() const { return flags_ & CL_QUEUE_PROFILING_ENABLE; }

    // The backend queue of this queue on `slot`, created on first use.
    cl_command_queue backendQueue(unsigned slot);
    // A queue on `slot` with profiling enabled, for launches auto mode times (launch_timing.hpp):
    // the backend queue itself when this queue profiles, else a side queue made on first use.
    // Null when the backend refuses one. Commands on it are ordered by their wait lists.
    cl_command_queue timingQueue(unsigned slot);

    // For a command just enqueued on `q` = backendQueue(slot) without an event: the deferred event
    // it shares with the commands enqueued there since the last one was made (deferred_event.hpp).
    std::shared_ptr<DeferredEvent> deferredEventAfterLast(unsigned slot, cl_command_queue q);
    // A command with a backend event of its own was just enqueued on `backendQueue`: when that is
    // backendQueue(slot), its event closes the open deferred event there (DeferredEvent::closeWith).
    // Called while submitting (in this thread's turn), so nothing is enqueued there in between.
    void enqueuedWithEvent(unsigned slot, cl_command_queue backendQueue, cl_event event);

    // The queue's commands that fill host memory when they run, in flight (host_reads.hpp):
    // non-blocking reads note theirs; a write copying from host memory at submission waits for
    // those into its source.
    HostReadsInFlight& hostReads() { return hostReads_; }

    // Validates an application wait list (CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT) and
    // returns it as references.
    std::vector<Ref<Event>> waitList(cl_uint count, const cl_event* events) const;

    // The fast way for a command that the enqueuing thread submits itself, at once: no Command,
    // no std::function, no scheduler, and no Event unless the application asks for one (a command
    // without one is remembered as the queue's last command until a later one needs an Event for
    // it). Open when the queue is in order, nothing of it waits to be submitted, and the previous
    // command needs no wait on `slot` that the backend queue there does not give (it ran on that
    // queue, or is complete) beyond its backend event (previous()). While a Direct lives it holds
    // the queue's submitting turn and mutex_, so nothing is enqueued in between: the caller
    // enqueues its work on backendQueue(), after previous(), and reports it with submitted().
    class Direct {
    public:
        Direct(Queue& queue, unsigned slot);
        ~Direct();
        Direct(const Direct&) = delete;
        Direct& operator=(const Direct&) = delete;
        bool ok() const { return ok_; }
        cl_command_queue backendQueue() const { return backend_; }
        cl_event previous() const { return previous_; }  // borrowed; null: nothing to wait for
        // What work enqueued on `other` instead, another backend queue of the slot (a timing side
        // queue), waits for: the last command of the queue, whose event this may make (a marker
        // after launches without events). Borrowed, valid while this Direct lives; null: nothing.
        cl_event previousOn(cl_command_queue other);
        // The pipe that makes this queue's launches on the slot from a thread of its own
        // (devices/call_pipe.hpp), or null where launches are made here: on slots without pipes,
        // and for a launch that is not in a run (launch_run.hpp: a lone launch gains nothing from
        // another thread, and starting or waking one costs it microseconds). The pipe is made once
        // a run is long enough to be a loop's.
        backend::CallPipe* pipe();
        // The work was enqueued on backendQueue(), with `done` (its backend event; the reference
        // passes here) or without an event (`later`: deferredEventAfterLast()). Returns the event for
        // the application when `wantEvent`, else null.
        // `piped`: the work was pushed to pipe() instead (without an event). `on`: where it was
        // enqueued when not on backendQueue() (previousOn's queue; then `done` is needed).
        Ref<Event> submitted(cl_command_type type, cl_event done, std::shared_ptr<DeferredEvent> later, bool wantEvent,
                             bool piped = false, cl_command_queue on = nullptr);

    private:
        Queue& queue_;
        unsigned slot_;
        std::unique_lock<std::mutex> locked_;
        bool turn_ = false;  // this Direct has the queue's submitting turn
        bool ok_ = false;
        cl_command_queue backend_ = nullptr;
        cl_event previous_ = nullptr;
        cl_ulong queuedAt_;  // when the application's call began (profiling queues only)
    };

    // Adds the queue's implicit dependencies, creates the command's event, and submits or queues it.
    // Returns the event (retained for the caller).
    Ref<Event> enqueue(CommandLabel what, std::vector<Ref<Event>> dependencies, std::function<int()> place,
                       std::function<cl_event(Submission&)> submit, bool isBarrier = false);

    // What submitReady() left.
    enum class Submitted {
        AllDone,    // nothing is pending
        Waiting,    // commands wait for their dependencies: the scheduler must try them again
        ByAnother,  // another thread, or this one further up its stack (a callback that enqueues),
                    // is submitting for this queue and sees to what is left
    };
    // Submits what can be submitted now, in order (in-order) or any ready one (out-of-order).
    // mayBlock=false: never waits for a dependency on another slot (the enqueuing thread).
    // Called by enqueue(), which hands the scheduler whatever it does not find AllDone, and by
    // the Scheduler. One thread submits for a queue at a time (its turn, submitRequests_); a
    // thread that finds another's turn leaves it a request and returns ByAnother, never waiting.
    // The thread whose turn it is looks at the queue again for every request made before it gives
    // the turn up, and watches what it leaves (enqueue(), the scheduler) or has the scheduler do it
    // (a Direct): for the scheduler, ByAnother means that the thread whose turn it is sees to what
    // is left.
    Submitted submitReady(bool mayBlock);

    // Where the trace starts a command that was submitted to `slot` at `submitted` and completed at
    // `completed` (trace::now() values): when it could start running, i.e. not before the command
    // ahead of it on the same in-order backend queue completed. Drawn from its submission, the
    // commands of a pipelined queue would overlap each other by hundreds.
    double traceStart(int slot, double submitted, double completed);

    void flush();
    cl_int finish();
    cl_int info(cl_command_queue_info param, size_t size, void* value, size_t* sizeRet);

    // In order: the commands enqueued before `event` that are still outstanding (none out of order,
    // or when `event` is not outstanding).
    std::vector<Ref<Event>> commandsBefore(const Event* event);

    // clReleaseCommandQueue: every outstanding command's completion must be heard (see Event).
    void notifyOutstanding();

protected:
    ~Queue() override;

private:
    Queue() = default;
    // In this thread's turn: submits what it can, again while requests came meanwhile, then gives
    // the turn up.
    Submitted submitThenEndTurn(bool mayBlock);
    Submitted submitPending(bool mayBlock);  // one look at pending_ (submitReady)
    bool trySubmit(Command& c, bool mayBlock);
    void pruneOutstanding();
    // With mutex_ held: the last command, if Direct submitted it without an Event, gets one now
    // (last_, outstanding_), for a command that depends on it or a finish() that waits for it.
    void eventForLastDirect();

    Ref<Context> context_;
    unsigned id_ = 0;
    cl_command_queue_properties flags_ = 0;
    std::vector<cl_queue_properties> properties_;
    // Shared with the deferred events made on them (a memory object may outlive this queue).
    std::vector<std::shared_ptr<const backend::Queue>> backend_;
    // backend_[slot]'s queue once made (it stays until the queue goes), read without backendMutex_:
    // every launch asks for its backend queue.
    std::unique_ptr<std::atomic<cl_command_queue>[]> backendMade_;
    std::vector<backend::Queue> timing_;  // side queues with profiling (timingQueue)
    // Per slot: the pipe of Direct::pipe(), made and used in a Direct (under mutex_, in the
    // submitting turn); declared after backend_: it goes first, making what it holds.
    std::vector<std::unique_ptr<backend::CallPipe>> pipes_;
    std::vector<LaunchRun> launchRuns_;  // per slot: its pipe candidates' run (Direct::pipe)
    bool timingRefused_ = false;            // under backendMutex_: warned that one failed
    std::mutex deferredMutex_;
    std::vector<std::shared_ptr<DeferredEvent>> openDeferred_;  // per slot (deferredEventAfterLast)
    std::mutex backendMutex_;
    std::mutex traceMutex_;
    std::map<int, double> traceLastEnd_;  // per slot (and the host): the latest completion drawn
    HostReadsInFlight hostReads_;

    // One thread submits for this queue at a time: the one that moved this from 0 (nobody's turn);
    // each thread that asks while it is that thread's turn adds one (submitReady). No mutex: the
    // thread whose turn it is runs callbacks while it submits (an application's event callback, a
    // backend's completion heard at once), and one that enqueues onto this very queue asks like any
    // other thread; a std::mutex it owns must not be tried again (undefined behaviour).
    std::atomic<unsigned long> submitRequests_{0};
    std::mutex mutex_;               // guards everything below
    std::condition_variable idle_;
    std::deque<std::unique_ptr<Command>> pending_;
    std::vector<Ref<Event>> outstanding_;  // enqueued and not known complete (for finish / barriers)
    std::atomic<unsigned> enqueues_{0};     // pruneOutstanding polls at every 4th
    unsigned unflushedDeferred_ = 0;       // in a submitting turn: launches without events (trySubmit)
    Ref<Event> last_;                      // in-order: the previous command
    Ref<Event> lastBarrier_;               // out-of-order: the latest barrier
    // In order: the last command when Direct submitted it without an Event (then it came after
    // last_). It ran on backendQueue(slot), with its backend event (owned) or its deferred one.
    struct LastDirect {
        int slot = -1;  // -1: none
        cl_command_type type = 0;
        backend::Event event;
        std::shared_ptr<DeferredEvent> later;
    } lastDirect_;
    cl_command_queue lastOn_ = nullptr;  // the backend queue that orders last_, when Direct knows it
};

// The wait list of a command enqueued on `backendQueue` itself, without that queue's own events:
// backend queues are in order, and naming such an event costs a cross-command wait on every launch
// in some drivers (NVIDIA). Only for commands on that very queue (split engines use others).
std::vector<cl_event> waitsForCommandOn(cl_command_queue backendQueue, const std::vector<cl_event>& waitList);

}  // namespace hetero
