// Command queues: creation, the submission of commands to the backends, flush/finish, info.
#include "platform/engine/queue.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"

#include "platform/support/config.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include "platform/engine/backend_clock.hpp"
#include "platform/engine/scheduler.hpp"
#include "platform/observe/trace.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace hetero {
namespace {

// Launches without events are flushed every 16th: a flush costs about 2 us on NVIDIA, and whoever
// needs one of them makes its marker, which flushes (DeferredEvent::get), as do clFlush and
// clFinish. HETERO_TEST_FLUSH_EVERY=N (measuring only; 0: never) changes the period.
unsigned deferredFlushEvery() {
    static const unsigned every = [] {
        auto v = config::get("HETERO_TEST_FLUSH_EVERY", "test_flush_every");
        return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 16u;
    }();
    return every;
}

// HETERO_TEST_SUBMIT_END_DELAY_MS=<n> (tests only): a thread whose turn to submit for a queue is
// ending waits this long after its last look at the queue, so that another thread enqueues onto it
// meanwhile (icd.submit-turn-end).
unsigned submitEndDelayMs() {
    static const unsigned ms = [] {
        auto v = config::get("HETERO_TEST_SUBMIT_END_DELAY_MS", "test_submit_end_delay_ms");
        return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 0u;
    }();
    return ms;
}

// HETERO_SUBMIT_THREAD: which slots' launches a pipe makes (devices/call_pipe.hpp). auto (the
// default): GPU slots, whose launch calls cost microseconds; on: every slot (tests, on PoCL); off.
bool pipesLaunchesOn(const Slot& slot) {
    enum Mode { Auto, On, Off };
    static const Mode mode = [] {
        auto v = config::get("HETERO_SUBMIT_THREAD", "submit_thread");
        if (!v || *v == "auto") return Auto;
        if (*v == "on") return On;
        if (*v == "off") return Off;
        HETERO_LOG(Warn, "HETERO_SUBMIT_THREAD=%s is not auto, on or off: auto", v->c_str());
        return Auto;
    }();
    return mode == On || (mode == Auto && (slot.type & CL_DEVICE_TYPE_GPU));
}

// How long a run makes a queue's pipe (launch_run.hpp). HETERO_TEST_PIPE_AFTER_RUN=<n> (tests
// only; 1: from a run's first launch after the one that began it, so short test cases reach the pipe).
unsigned pipeAfterRun() {
    static const unsigned n = [] {
        auto v = config::get("HETERO_TEST_PIPE_AFTER_RUN", "test_pipe_after_run");
        const unsigned long got = v ? std::strtoul(v->c_str(), nullptr, 10) : 0;
        return got ? static_cast<unsigned>(got) : LaunchRun::kRunBeforePipe;
    }();
    return n;
}

bool flushDeferredNow(unsigned& unflushed) {
    const unsigned every = deferredFlushEvery();
    return every != 0 && unflushed++ % every == 0;
}

}  // namespace

Queue* Queue::create(Context* context, const cl_queue_properties* properties, bool legacy,
                     cl_command_queue_properties legacyFlags) {
    cl_command_queue_properties flags = legacyFlags;
    std::vector<cl_queue_properties> props;
    if (!legacy && properties) {
        for (const cl_queue_properties* p = properties; *p; p += 2) {
            switch (p[0]) {
            case CL_QUEUE_PROPERTIES: flags = p[1]; break;
            case CL_QUEUE_SIZE: fail(CL_INVALID_QUEUE_PROPERTIES);  // only for on-device queues
            default: fail(CL_INVALID_VALUE);
            }
            props.push_back(p[0]);
            props.push_back(p[1]);
        }
        props.push_back(0);
    }
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                              CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
    require((flags & ~known) == 0, CL_INVALID_VALUE);
    require((flags & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) == 0, CL_INVALID_QUEUE_PROPERTIES);

    static std::atomic<unsigned> queuesCreated{0};
    auto* q = new Queue;
    q->id_ = ++queuesCreated;
    q->context_ = Ref<Context>(context);
    q->flags_ = flags;
    q->properties_ = std::move(props);
    q->backend_.resize(context->slotCount());
    q->backendMade_ = std::make_unique<std::atomic<cl_command_queue>[]>(context->slotCount());
    q->timing_.resize(context->slotCount());
    q->pipes_.resize(context->slotCount());
    q->launchRuns_.resize(context->slotCount());
    q->openDeferred_.resize(context->slotCount());
    // Profiled commands read their times from the backend events (backend_clock.hpp).
    if (flags & CL_QUEUE_PROFILING_ENABLE)
        for (unsigned s = 0; s < context->slotCount(); ++s)
            backend_clock::calibrate(s, context->backend(s), Device::instance()->slots()[s].device);
    return q;
}

Queue::~Queue() {
    lastDirect_.event.reset();
    lastDirect_.later.reset();
    openDeferred_.clear();  // its marker goes before the queue it was made on
    pipes_.clear();         // makes what waits in them (on the backend queues, still here)
    // No clFinish: the last reference may drop on a backend's callback thread (an event completing
    // there releases its queue), where blocking calls are undefined (clSetEventCallback). Every
    // command of this queue is complete by now; the backend deletes a released queue once its
    // commands are done.
    timing_.clear();
    backend_.clear();
}

cl_command_queue Queue::backendQueue(unsigned slot) {
    if (cl_command_queue made = backendMade_[slot].load(std::memory_order_acquire)) return made;
    std::lock_guard lock(backendMutex_);
    if (!backend_[slot]) {
        const Slot& s = Device::instance()->slots()[slot];
        cl_int err = CL_SUCCESS;
        // Profiled for the trace too, which draws split launches' kernels on the devices' clocks.
        const bool profiled = profiling() || trace::enabled();
        backend::Queue made = backend::queue(context_->backend(slot), s.device, profiled ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
        if (!made) {
            HETERO_LOG(Error, "creating a queue on %s failed: %s", s.describe().c_str(), errorName(err));
            fail(CL_OUT_OF_RESOURCES);
        }
        backend_[slot] = std::make_shared<const backend::Queue>(std::move(made));
        backendMade_[slot].store(backend_[slot]->get(), std::memory_order_release);
    }
    return backend_[slot]->get();
}

cl_command_queue Queue::timingQueue(unsigned slot) {
    if (profiling()) return backendQueue(slot);
    std::lock_guard lock(backendMutex_);
    if (!timing_[slot]) {
        const Slot& s = Device::instance()->slots()[slot];
        cl_int err = CL_SUCCESS;
        timing_[slot] = backend::queue(context_->backend(slot), s.device, CL_QUEUE_PROFILING_ENABLE, &err);
        if (!timing_[slot] && !timingRefused_) {  // once per queue: auto mode asks again now and then
            HETERO_LOG(Warn, "a profiling queue on %s failed (%s): launches go untimed", s.describe().c_str(), errorName(err));
            timingRefused_ = true;
        }
    }
    return timing_[slot].get();
}

std::shared_ptr<DeferredEvent> Queue::deferredEventAfterLast(unsigned slot, cl_command_queue q) {
    std::lock_guard lock(deferredMutex_);
    auto& open = openDeferred_[slot];
    if (!open || !open->stillOpen()) {
        // backend_[slot] is set before backendMade_[slot] and stays: read without backendMutex_.
        if (q && backendMade_[slot].load(std::memory_order_acquire) == q)
            open = std::make_shared<DeferredEvent>(backend_[slot]);
        else
            open = std::make_shared<DeferredEvent>(q);
    }
    return open;
}

void Queue::enqueuedWithEvent(unsigned slot, cl_command_queue backendQueue, cl_event event) {
    std::shared_ptr<DeferredEvent> open;
    {
        std::lock_guard lock(deferredMutex_);
        open = openDeferred_[slot];
    }
    if (!open || open->queue() != backendQueue || !open->stillOpen()) return;
    // The event may be of another queue (a split launch's ends on a queue of its own): ask.
    if (backend::eventQueue(event) == backendQueue) open->closeWith(event);
}

std::vector<cl_event> Submission::waitsOn(cl_command_queue target) const {
    std::vector<cl_event> all = events;
    for (const auto& d : deferred)
        if (d->queue() != target)
            if (cl_event marker = d->get()) all.push_back(marker);  // null: its queue was finished
    return all;
}

bool Submission::dependenciesDone() const {
    if (queue.outOfOrder()) return false;
    for (cl_event e : events)
        if (!backend::done(e)) return false;
    for (const auto& d : deferred)
        if (cl_event marker = d->get(); marker && !backend::done(marker)) return false;
    return true;
}

std::vector<Ref<Event>> Queue::waitList(cl_uint count, const cl_event* events) const {
    require((count == 0) == (events == nullptr), CL_INVALID_EVENT_WAIT_LIST);
    std::vector<Ref<Event>> list;
    for (cl_uint i = 0; i < count; ++i) {
        auto e = fromHandle<Event>(events[i]);
        require(e != nullptr, CL_INVALID_EVENT_WAIT_LIST);
        require(e->context() == context_.get(), CL_INVALID_CONTEXT);
        list.emplace_back(e);
    }
    return list;
}

Queue::Direct::Direct(Queue& queue, unsigned slot)
    : queue_(queue), slot_(slot), locked_(queue.mutex_, std::defer_lock), queuedAt_(queue.profiling() ? hostNanoseconds() : 0) {
    if (queue.outOfOrder()) return;
    // Else another thread submits for this queue (or this one does, further up its stack).
    unsigned long nobody = 0;
    if (!queue.submitRequests_.compare_exchange_strong(nobody, 1, std::memory_order_acq_rel)) return;
    turn_ = true;
    locked_.lock();
    if (!queue.pending_.empty()) return;
    backend_ = queue.backendQueue(slot);
    const LastDirect& direct = queue.lastDirect_;
    if (direct.slot >= 0) {
        ok_ = static_cast<unsigned>(direct.slot) == slot;  // Direct enqueues on backendQueue(slot) only
        return;
    }
    Event* last = queue.last_.get();  // held by last_ while mutex_ is: what it lends stays valid
    if (!last) {
        ok_ = true;
        return;
    }
    const Event::Successor after = last->successorOn(slot);
    if (after.complete) {
        ok_ = after.status >= 0;  // a failed one fails what follows: the ordinary way says so
        return;
    }
    // Work it goes on with after its backend event (a split's CPU side, a variants build) holds
    // back what follows it: the ordinary way makes the new command inherit it (event_tail.hpp).
    if (after.unfinishedTails) return;
    if (DeferredEvent* later = after.deferred) {
        if (later->queue() != backend_) previous_ = later->get();  // null: that queue was finished
        ok_ = true;
    } else if (after.backend) {
        if (queue.lastOn_ != backend_) previous_ = after.backend;
        ok_ = true;
    }
    // Else it is on another slot or the host, not done: the scheduler's way waits for it.
}

Queue::Direct::~Direct() {
    if (locked_.owns_lock()) locked_.unlock();
    if (!turn_) return;
    unsigned long mine = 1;
    if (queue_.submitRequests_.compare_exchange_strong(mine, 0, std::memory_order_acq_rel)) return;
    // Others asked meanwhile (the scheduler's pass, an enqueue whose command came before this
    // Direct looked): they count on this thread to look at the queue again. The scheduler does,
    // not this launch's thread, which may still hold locks that submitting a command takes.
    queue_.submitRequests_.exchange(0, std::memory_order_acq_rel);
    Scheduler::watch(&queue_);
}

cl_event Queue::Direct::previousOn(cl_command_queue other) {
    if (other == backend_) return previous_;
    // As the constructor found it, with `other` in place of backendQueue(): what the slot's own
    // queue orders by itself needs an event here.
    const LastDirect& direct = queue_.lastDirect_;
    if (direct.slot >= 0) return direct.event ? direct.event.get() : direct.later ? direct.later->get() : nullptr;
    Event* last = queue_.last_.get();
    if (!last) return nullptr;
    const Event::Successor after = last->successorOn(slot_);
    if (after.complete) return nullptr;
    if (after.deferred) return after.deferred->queue() == other ? nullptr : after.deferred->get();
    return queue_.lastOn_ == other ? nullptr : after.backend;
}

backend::CallPipe* Queue::Direct::pipe() {
    LaunchRun& run = queue_.launchRuns_[slot_];
    if (!run.next(LaunchRun::Clock::now())) return nullptr;
    std::unique_ptr<backend::CallPipe>& p = queue_.pipes_[slot_];
    if (!p && run.longEnoughForPipe(pipeAfterRun()) && pipesLaunchesOn(Device::instance()->slots()[slot_]))
        p = std::make_unique<backend::CallPipe>(backend_);
    return p.get();
}

Ref<Event> Queue::Direct::submitted(cl_command_type type, cl_event done, std::shared_ptr<DeferredEvent> later,
                                    bool wantEvent, bool piped, cl_command_queue on) {
    Queue& q = queue_;
    // On another queue of the slot the next Direct cannot count on backendQueue()'s order: it
    // waits for last_'s event (previous()).
    const bool elsewhere = on && on != backend_;
    if (elsewhere) {
        q.lastDirect_ = {};
        q.lastOn_ = on;
        Ref<Event> event = Event::madeSubmitted(q.context_.get(), &q, type, slot_, done, nullptr, queuedAt_);
        q.last_ = event;
        backend::flush(on);
        return wantEvent ? event : Ref<Event>();
    }
    if (done) {
        // Whoever sees `done` complete sees the launches without events before it complete too.
        std::shared_ptr<DeferredEvent> open;
        {
            std::lock_guard lock(q.deferredMutex_);
            open = q.openDeferred_[slot_];
        }
        if (open && open->queue() == backend_) open->closeWith(done);
    }
    q.lastDirect_ = {};  // releases its backend event
    q.lastOn_ = backend_;
    Ref<Event> event;
    if (wantEvent) {
        // Not in outstanding_: in order, waiting for the last command waits for all before it
        // (finish), and an event the application released goes at once instead of waiting there
        // for somebody to ask about it.
        event = Event::madeSubmitted(q.context_.get(), &q, type, slot_, done, done ? nullptr : std::move(later), queuedAt_);
        q.last_ = event;
    } else {
        q.lastDirect_ = {static_cast<int>(slot_), type, backend::Event(done), done ? nullptr : std::move(later)};
    }
    // As trySubmit: commands with events are flushed at once, those without every 16th.
    if (done || flushDeferredNow(q.unflushedDeferred_)) {
        if (piped)
            q.pipes_[slot_]->flushAfterLast();
        else
            backend::flush(backend_);
    }
    return event;
}

void Queue::eventForLastDirect() {
    if (lastDirect_.slot < 0) return;
    // Only launches without an event of their own come here, so nobody can ask for its times.
    Ref<Event> event = Event::madeSubmitted(context_.get(), this, lastDirect_.type, static_cast<unsigned>(lastDirect_.slot),
                                            lastDirect_.event.release(), std::move(lastDirect_.later), 0);
    lastDirect_ = {};  // its event's reference went to `event`
    last_ = event;
    outstanding_.push_back(std::move(event));
}

Ref<Event> Queue::enqueue(CommandLabel what, std::vector<Ref<Event>> dependencies, std::function<int()> place,
                          std::function<cl_event(Submission&)> submit, bool isBarrier) {
    const cl_command_type type = what.type;
    pruneOutstanding();
    // Another queue's reads into host memory come along with a dependency on that queue (host_reads.hpp).
    for (const auto& d : dependencies)
        if (Ref<Queue> other = d->queueWhileUnfinished(); other && other.get() != this) hostReads_.takeOver(other->hostReads());
    Ref<Event> event(new Event(context_.get(), this, type), /*adopt=*/true);
    if (trace::enabled()) event->setTraceLabel(std::move(what.detail), what.bytes, std::move(what.alsoTrace));
    auto command = std::make_unique<Command>();
    command->event = event;
    command->place = std::move(place);
    command->submit = std::move(submit);
    {
        std::lock_guard lock(mutex_);
        bool markerLike = type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER;
        if (!outOfOrder()) {
            eventForLastDirect();
            if (last_) dependencies.push_back(last_);
            last_ = event;
            lastOn_ = nullptr;
        } else {
            if (lastBarrier_) dependencies.push_back(lastBarrier_);
            // A marker or barrier without a wait list waits for everything enqueued before it.
            if (markerLike && dependencies.empty())
                for (const auto& e : outstanding_) dependencies.push_back(e);
            if (isBarrier) lastBarrier_ = event;
        }
        command->dependencies = std::move(dependencies);
        outstanding_.push_back(event);
        pending_.push_back(std::move(command));
    }
    if (submitReady(/*mayBlock=*/false) != Submitted::AllDone) Scheduler::watch(this);
    return event;
}

void Queue::pruneOutstanding() {
    // Completion is noticed when asked (Event::needNotification): ask about the oldest commands,
    // outside the lock (completing an event may run callbacks), and drop those that are done. In
    // order, nothing after an unfinished command has finished: stop there, and only the finished
    // front goes (no scan of thousands of queued commands per enqueue).
    constexpr size_t kPolled = 4;
    // Every 4th enqueue: asking a backend costs a call (microseconds on NVIDIA), and a few more
    // finished commands held a little longer cost nothing.
    if (enqueues_.fetch_add(1, std::memory_order_relaxed) % 4 != 0) return;
    // Asking a deferred event makes its marker: only once enough commands wait (one marker then
    // serves all of them), so that a launch-heavy program pays for one in dozens of launches.
    constexpr size_t kDeferredBacklog = 64;
    std::vector<Ref<Event>> oldest;
    size_t backlog;
    {
        std::lock_guard lock(mutex_);
        for (size_t i = 0; i < outstanding_.size() && i < kPolled; ++i) oldest.push_back(outstanding_[i]);
        backlog = outstanding_.size();
    }
    for (auto& e : oldest) {
        if (!e->cheapToAsk() && backlog < kDeferredBacklog) break;
        if (!e->isComplete() && !outOfOrder()) break;
    }
    oldest.clear();
    std::lock_guard lock(mutex_);
    auto done = [](const Ref<Event>& e) { return e->knownComplete(); };
    if (outOfOrder())
        outstanding_.erase(std::remove_if(outstanding_.begin(), outstanding_.end(), done), outstanding_.end());
    else
        outstanding_.erase(outstanding_.begin(), std::find_if_not(outstanding_.begin(), outstanding_.end(), done));
}

std::vector<Ref<Event>> Queue::commandsBefore(const Event* event) {
    std::vector<Ref<Event>> earlier;
    std::lock_guard lock(mutex_);
    if (outOfOrder()) return earlier;
    for (const auto& e : outstanding_) {
        if (e.get() == event) return earlier;
        earlier.push_back(e);
    }
    return {};
}

void Queue::notifyOutstanding() {
    std::vector<Ref<Event>> events;
    {
        std::lock_guard lock(mutex_);
        events = outstanding_;
        if (last_) events.push_back(last_);  // a direct launch's event may be only there (Direct::submitted)
    }
    for (auto& e : events) e->needNotification();
}

Queue::Submitted Queue::submitReady(bool mayBlock) {
    // Moved from 0: this thread's turn. Else a request the thread whose turn it is will see.
    if (submitRequests_.fetch_add(1, std::memory_order_acq_rel) != 0) return Submitted::ByAnother;
    return submitThenEndTurn(mayBlock);
}

Queue::Submitted Queue::submitThenEndTurn(bool mayBlock) {
    // Should submitting throw (it reports its errors on the commands' events), the turn still ends.
    struct EndTurnIfThrown {
        std::atomic<unsigned long>& requests;
        bool ended = false;
        ~EndTurnIfThrown() {
            if (!ended) requests.store(0, std::memory_order_release);
        }
    } guard{submitRequests_};
    for (;;) {
        unsigned long seen = submitRequests_.load(std::memory_order_acquire);
        Submitted left = submitPending(mayBlock);
        if (unsigned ms = submitEndDelayMs()) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
        // A request since `seen` may come with a command enqueued after the look above (or by a
        // callback this thread ran): look again. Else nobody's turn from now on.
        if (submitRequests_.compare_exchange_strong(seen, 0, std::memory_order_acq_rel)) {
            guard.ended = true;
            return left;
        }
    }
}

Queue::Submitted Queue::submitPending(bool mayBlock) {
    for (;;) {
        std::unique_ptr<Command> command;
        {
            std::lock_guard lock(mutex_);
            auto ready = [](const std::unique_ptr<Command>& c) {
                return std::all_of(c->dependencies.begin(), c->dependencies.end(),
                                   [](const Ref<Event>& d) { return d->isResolvable(); });
            };
            auto it = outOfOrder() ? std::find_if(pending_.begin(), pending_.end(), ready)
                                   : (pending_.empty() || !ready(pending_.front()) ? pending_.end() : pending_.begin());
            if (it == pending_.end()) return pending_.empty() ? Submitted::AllDone : Submitted::Waiting;
            command = std::move(*it);
            pending_.erase(it);
        }
        if (!trySubmit(*command, mayBlock)) {
            std::lock_guard lock(mutex_);
            pending_.push_front(std::move(command));
            return Submitted::Waiting;
        }
    }
}

bool Queue::trySubmit(Command& c, bool mayBlock) {
    Event& event = *c.event;
    try {
        int slot = c.place ? c.place() : static_cast<int>(Backends::instance().primarySlot());
        Submission submission{*this, slot, nullptr, {}, {}, {}, {}};
        if (slot >= 0) submission.backendQueue = backendQueue(static_cast<unsigned>(slot));
        // A dependency that failed fails the command. One chained as a backend wait is not asked
        // (a call per dependency per command, microseconds on NVIDIA): if it failed unnoticed, the
        // backend fails the command the same way.
        for (const auto& d : c.dependencies) {
            // A dependency's unfinished work holds this command's completion back too: whoever
            // sees this command complete must be able to rely on everything before it being over.
            event.addTails(d->unfinishedTails());
            if (!d->knownComplete() && slot >= 0) {
                if (auto later = d->deferredOn(static_cast<unsigned>(slot))) {
                    submission.deferred.push_back(std::move(later));  // waitsOn() decides
                    continue;
                }
                if (cl_event be = d->backendEventFor(static_cast<unsigned>(slot))) {
                    submission.events.push_back(be);
                    continue;
                }
            }
            if (d->isComplete()) {
                if (d->status() < 0) {
                    event.complete(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
                    return true;
                }
                continue;
            }
            if (!mayBlock) {
                d->needNotification();  // its completion must wake the scheduler
                return false;
            }
            if (d->wait() < 0) {
                event.complete(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
                return true;
            }
        }
        event.submitting(slot);
        cl_event done = c.submit(submission);
        event.addTails(submission.tails);
        if (done || submission.deferredDone) {
            if (done) enqueuedWithEvent(static_cast<unsigned>(slot), submission.backendQueue, done);
            event.submitted(static_cast<unsigned>(slot), done, done ? nullptr : std::move(submission.deferredDone));
            // Commands with events are flushed at once: on the H100, flushing them only when another
            // queue or a callback needed one, or from a background thread, made each launch slower
            // (16.8 and 19.1 us against 13.8, docs/results/h100-session4/). Launches without one
            // every 16th (deferredFlushEvery).
            if (done || flushDeferredNow(unflushedDeferred_)) backend::flush(submission.backendQueue);
        } else {
            event.complete(CL_COMPLETE);
        }
    } catch (const Error& e) {
        HETERO_LOG(Warn, "command 0x%x failed: %s", event.commandType(), errorName(e.code));
        event.complete(e.code < 0 ? e.code : CL_OUT_OF_RESOURCES);
    } catch (const std::bad_alloc&) {
        event.complete(CL_OUT_OF_HOST_MEMORY);
    }
    return true;
}

std::vector<cl_event> waitsForCommandOn(cl_command_queue backendQueue, const std::vector<cl_event>& waitList) {
    std::vector<cl_event> kept;
    kept.reserve(waitList.size());
    for (auto it = waitList.begin(); it != waitList.end(); ++it) {
        cl_event e = *it;
        // The previous command is often also the last writer of every object: ask once.
        if (std::find(waitList.begin(), it, e) != it) continue;
        cl_command_queue of = backend::eventQueue(e);
        if (!of || of != backendQueue) kept.push_back(e);  // user events have no queue
    }
    return kept;
}

double Queue::traceStart(int slot, double submitted, double completed) {
    std::lock_guard lock(traceMutex_);
    double& last = traceLastEnd_[slot];
    double start = std::min(completed, std::max(submitted, last));
    last = std::max(last, completed);
    return start;
}

void Queue::flush() {
    // Commands reach the backends as soon as their dependencies allow; what is still pending is
    // in the scheduler's hands. Launches without events may wait in a backend queue unflushed
    // (trySubmit): flushed here.
    std::vector<cl_command_queue> queues;
    {
        std::lock_guard lock(backendMutex_);
        queues.reserve(backend_.size());
        for (const auto& q : backend_) queues.push_back(q ? q->get() : nullptr);
    }
    for (cl_command_queue q : queues)
        if (q) backend::flush(q);
}

cl_int Queue::finish() {
    std::vector<Ref<Event>> waitFor;
    {
        std::lock_guard lock(mutex_);
        eventForLastDirect();
        waitFor = outstanding_;
        if (last_) waitFor.push_back(last_);  // in order: after everything before it (Direct::submitted)
    }
    for (auto& e : waitFor) e->wait();
    std::lock_guard lock(mutex_);
    outstanding_.erase(std::remove_if(outstanding_.begin(), outstanding_.end(),
                                      [](const Ref<Event>& e) { return e->knownComplete(); }),
                       outstanding_.end());
    // A launch a pipe made that the backend refused (devices/call_pipe.hpp) is reported here.
    for (auto& p : pipes_)
        if (p)
            if (cl_int err = p->takeError(); err != CL_SUCCESS) return err;
    return CL_SUCCESS;
}

cl_int Queue::info(cl_command_queue_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_QUEUE_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_QUEUE_DEVICE: return out.scalar<cl_device_id>(Device::instance()->handle());
    case CL_QUEUE_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_QUEUE_PROPERTIES: return out.scalar<cl_command_queue_properties>(flags_);
    case CL_QUEUE_PROPERTIES_ARRAY: return out.array(properties_);
    case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
    case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
