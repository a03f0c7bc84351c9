// Events: status transitions, callbacks, waits, profiling; and the clXxx entry points for events.
#include "platform/engine/event.hpp"

#include "devices/backend_commands.hpp"

#include "platform/engine/backend_clock.hpp"

#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/engine/queue.hpp"
#include "platform/observe/trace.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <unordered_map>

namespace hetero {

namespace {
// Never destroyed: the detached scheduler thread waits on it until the process ends, and
// destroying a condition variable that has a waiter blocks exit forever.
struct Signal {
    std::mutex mutex;
    std::condition_variable changed;
    unsigned long generation = 0;
    std::atomic<bool> listened{false};
};
Signal& signalState() {
    static Signal* s = new Signal;
    return *s;
}

// Hetero events waiting for their backend event's completion callback. The callback holds no
// reference: an event the application has released may go (with its queue and context) at once,
// instead of whenever the backend's callback thread gets to it; the callback then finds nothing.
// Several events may wait on one backend event: commands that share a deferred one (a marker).
struct Waiting {
    std::mutex mutex;
    std::unordered_multimap<cl_event, Event*> events;
};
Waiting& waiting() {
    static Waiting* w = new Waiting;  // never destroyed: callbacks may come during exit
    return *w;
}

// A command's name in the trace: its type without CL_COMMAND_, in the trace's CamelCase.
const char* commandName(cl_command_type type) {
    switch (type) {
    case CL_COMMAND_NDRANGE_KERNEL: return "NDRangeKernel";
    case CL_COMMAND_TASK: return "Task";
    case CL_COMMAND_NATIVE_KERNEL: return "NativeKernel";
    case CL_COMMAND_READ_BUFFER: return "ReadBuffer";
    case CL_COMMAND_WRITE_BUFFER: return "WriteBuffer";
    case CL_COMMAND_COPY_BUFFER: return "CopyBuffer";
    case CL_COMMAND_READ_IMAGE: return "ReadImage";
    case CL_COMMAND_WRITE_IMAGE: return "WriteImage";
    case CL_COMMAND_COPY_IMAGE: return "CopyImage";
    case CL_COMMAND_COPY_IMAGE_TO_BUFFER: return "CopyImageToBuffer";
    case CL_COMMAND_COPY_BUFFER_TO_IMAGE: return "CopyBufferToImage";
    case CL_COMMAND_MAP_BUFFER: return "MapBuffer";
    case CL_COMMAND_MAP_IMAGE: return "MapImage";
    case CL_COMMAND_UNMAP_MEM_OBJECT: return "Unmap";
    case CL_COMMAND_MARKER: return "Marker";
    case CL_COMMAND_ACQUIRE_GL_OBJECTS: return "AcquireGLObjects";
    case CL_COMMAND_RELEASE_GL_OBJECTS: return "ReleaseGLObjects";
    case CL_COMMAND_READ_BUFFER_RECT: return "ReadBufferRect";
    case CL_COMMAND_WRITE_BUFFER_RECT: return "WriteBufferRect";
    case CL_COMMAND_COPY_BUFFER_RECT: return "CopyBufferRect";
    case CL_COMMAND_USER: return "User";
    case CL_COMMAND_BARRIER: return "Barrier";
    case CL_COMMAND_MIGRATE_MEM_OBJECTS: return "MigrateMemObjects";
    case CL_COMMAND_FILL_BUFFER: return "FillBuffer";
    case CL_COMMAND_FILL_IMAGE: return "FillImage";
    case CL_COMMAND_SVM_FREE: return "SVMFree";
    case CL_COMMAND_SVM_MEMCPY: return "SVMMemcpy";
    case CL_COMMAND_SVM_MEMFILL: return "SVMMemFill";
    case CL_COMMAND_SVM_MAP: return "SVMMap";
    case CL_COMMAND_SVM_UNMAP: return "SVMUnmap";
    default: return "Command";
    }
}

void CL_CALLBACK backendCompleted(cl_event backendEvent, cl_int status, void*) {
    backend::InBackendCallback inside;  // completing may release the last hold of a sub-buffer
    std::vector<Event*> events;
    {
        Waiting& w = waiting();
        std::lock_guard lock(w.mutex);
        auto [first, last] = w.events.equal_range(backendEvent);
        for (auto it = first; it != last; ++it)
            if (it->second->tryRetain()) events.push_back(it->second);
    }
    for (Event* event : events) {
        event->complete(status < 0 ? status : CL_COMPLETE);
        event->release();
    }
}
}  // namespace

void EventSignal::raise() {
    Signal& s = signalState();
    if (!s.listened.load()) return;
    std::lock_guard lock(s.mutex);
    ++s.generation;
    s.changed.notify_all();
}

void EventSignal::listen(bool on) { signalState().listened.store(on); }

void EventSignal::waitAfter(unsigned long& seen) {
    Signal& s = signalState();
    std::unique_lock lock(s.mutex);
    s.changed.wait(lock, [&] { return s.generation != seen; });
    seen = s.generation;
}

unsigned long EventSignal::current() {
    Signal& s = signalState();
    std::lock_guard lock(s.mutex);
    return s.generation;
}

cl_ulong hostNanoseconds() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Event::Event(Context* context, Queue* queue, cl_command_type type)
    : context_(context), queue_(queue), type_(type), status_(queue ? CL_QUEUED : CL_SUBMITTED) {
    if (queue_) {
        queue_->retain();  // held until the event completes (Queue::~Queue needs no cycle breaking)
        queueHandle_ = queue_->handle();
        queueId_ = queue_->id();
        profiling_ = queue_->profiling();
        if (profiling_) times_[0] = hostNanoseconds();  // only profiling info reads times_
    }
}

void Event::lastReleased() {
    if (backendEvent_) {
        Waiting& w = waiting();
        std::lock_guard lock(w.mutex);
        auto [first, last] = w.events.equal_range(backendEvent_.get());
        for (auto it = first; it != last; ++it)
            if (it->second == this) {
                w.events.erase(it);
                break;
            }
    }
    ApiObject<_cl_event, Kind::Event>::lastReleased();
}

Event::~Event() {
    backendEvent_.reset();  // before the queue reference below
    if (queue_ && status_ > CL_COMPLETE) queue_->release();  // released unfinished: nobody completes it
}

Queue* Event::queue() const { return queue_; }

Ref<Queue> Event::queueWhileUnfinished() const {
    std::lock_guard lock(mutex_);
    return queue_ && status_ > CL_COMPLETE ? Ref<Queue>(queue_) : Ref<Queue>();
}

// The backend's status of `e`, as CL_COMPLETE / negative when final, else a positive status.
static cl_int backendStatus(cl_event e) {
    cl_int st = CL_QUEUED;
    if (backend::eventStatus(e, &st) != CL_SUCCESS)
        return CL_QUEUED;
    return st;
}

cl_event Event::backendLocked() {
    if (!backendEvent_ && deferred_ && status_ > CL_COMPLETE) {
        if (cl_event marker = deferred_->get()) backendEvent_ = backend::Event::retained(marker);
    }
    return backendEvent_.get();
}

bool Event::deferredFinal(cl_int& status) const { return deferred_ && deferred_->seenComplete(status); }

cl_int Event::status() const {
    auto* self = const_cast<Event*>(this);
    cl_event backend = nullptr;
    cl_int st = CL_QUEUED;
    {
        std::lock_guard lock(mutex_);
        if (status_ <= CL_COMPLETE) return status_;
        // Commands sharing a deferred event complete together: once one heard it, the rest need no call.
        if (!deferredFinal(st)) {
            backend = self->backendLocked();
            if (!backend && !deferredFinal(st)) return status_;
        }
    }
    if (st > CL_COMPLETE) {
        // Backend completion callbacks may lag behind the backend's own state (they run on its
        // callback thread): ask it, so that an event is never seen running after one that waited for it.
        st = backendStatus(backend);
        if (st <= CL_COMPLETE && deferred_) deferred_->sawComplete(st);
    }
    if (st <= CL_COMPLETE) self->complete(st < 0 ? st : CL_COMPLETE);
    std::lock_guard lock(mutex_);
    return status_;
}

cl_event Event::backendEventFor(unsigned slot) const {
    std::lock_guard lock(mutex_);
    return slot_ == static_cast<int>(slot) ? const_cast<Event*>(this)->backendLocked() : nullptr;
}

std::shared_ptr<DeferredEvent> Event::deferredOn(unsigned slot) const {
    std::lock_guard lock(mutex_);
    return status_ > CL_COMPLETE && slot_ == static_cast<int>(slot) ? deferred_ : nullptr;
}

bool Event::cheapToAsk() const {
    std::lock_guard lock(mutex_);
    cl_int st;
    return status_ <= CL_COMPLETE || !deferred_ || backendEvent_ || deferredFinal(st);
}

Event::Successor Event::successorOn(unsigned slot) const {
    std::lock_guard lock(mutex_);
    Successor out;
    if (status_ <= CL_COMPLETE) {
        out.complete = true;
        out.status = status_;
        return out;
    }
    for (const auto& t : tails_)
        if (!t->finished()) {
            out.unfinishedTails = true;
            return out;
        }
    if (slot_ != static_cast<int>(slot)) return out;
    if (deferred_)
        out.deferred = deferred_.get();
    else
        out.backend = const_cast<Event*>(this)->backendLocked();
    return out;
}

bool Event::isResolvable() const {
    std::lock_guard lock(mutex_);
    return status_ <= CL_COMPLETE || backendEvent_ || deferred_ != nullptr;
}

bool Event::isComplete() const { return status() <= CL_COMPLETE; }

bool Event::knownComplete() const {
    std::lock_guard lock(mutex_);
    return status_ <= CL_COMPLETE;
}

void Event::setTraceLabel(std::string detail, uint64_t bytes, TraceHook alsoTrace) {
    std::lock_guard lock(mutex_);
    trace_.detail = std::move(detail);
    trace_.bytes = bytes;
    trace_.also = std::move(alsoTrace);
}

void Event::traceSpan(cl_int status) {
    double end = trace::now();
    double begin = queue_ ? queue_->traceStart(trace_.slot, trace_.begin, end) : trace_.begin;
    std::vector<trace::Arg> args;
    if (trace_.bytes) args.push_back(trace::num("bytes", static_cast<double>(trace_.bytes)));
    // How long it sat behind the commands ahead of it after its submission.
    args.push_back(trace::num("queued_us", std::round(begin - trace_.begin)));
    if (status < 0) args.push_back(trace::num("status", status));
    std::string name = commandName(type_);
    if (!trace_.detail.empty()) name += " " + trace_.detail;
    trace::span({trace_.slot, "queue " + std::to_string(queueId_)}, name, begin, end, std::move(args));
    if (trace_.also) trace_.also(trace_.slot, begin, end, status);
    trace_ = {};
}

void Event::submitting(int slot) {
    if (!trace::enabled()) return;
    std::lock_guard lock(mutex_);
    trace_.slot = slot;
    trace_.begin = trace::now();
}

void Event::submitted(unsigned slot, cl_event backendEvent, std::shared_ptr<DeferredEvent> later) {
    bool watch;
    {
        std::unique_lock lock(mutex_);
        slot_ = static_cast<int>(slot);
        backendEvent_ = backend::Event(backendEvent);
        deferred_ = std::move(later);
        if (profiling_) times_[1] = hostNanoseconds();
        // Decided with the event published, before any callback runs: needNotification() from
        // now on sees it and never registers a second callback. Traced commands take their end
        // time from the completion: heard at once; so do profiled ones whose device clock is not
        // placed on the host's (backend_clock.hpp). (Such commands are never deferred; a deferred
        // one somebody already waits to hear of gets its event made now.)
        watch = watchFromSubmission(slot, backendEvent);
        watched_ = watch;
        if (status_ == CL_QUEUED) {
            status_ = CL_SUBMITTED;
            if (!callbacks_.empty()) runCallbacks(CL_SUBMITTED, lock);
        }
    }
    changed_.notify_all();  // waiters without a backend event to wait on can wait on this one now
    EventSignal::raise();
    if (watch) watchSubmitted();
}

bool Event::watchFromSubmission(unsigned slot, cl_event backendEvent) const {
    return notify_ || !callbacks_.empty() || trace_.begin >= 0 ||
           (profiling_ && !(backendEvent && backend_clock::known(slot)));
}

void Event::watchSubmitted() {
    cl_event backend;
    cl_int st = CL_COMPLETE;
    {
        std::lock_guard lock(mutex_);
        backend = backendLocked();
        if (!backend) deferredFinal(st);
    }
    hear(backend, st);
}

Ref<Event> Event::madeSubmitted(Context* context, Queue* queue, cl_command_type type, unsigned slot,
                                cl_event backendEvent, std::shared_ptr<DeferredEvent> later, cl_ulong queuedAt) {
    Ref<Event> made(new Event(context, queue, type), /*adopt=*/true);
    Event& e = *made;
    e.slot_ = static_cast<int>(slot);
    e.backendEvent_ = backend::Event(backendEvent);
    e.deferred_ = std::move(later);
    if (e.profiling_) {
        if (queuedAt) e.times_[0] = queuedAt;
        e.times_[1] = hostNanoseconds();
    }
    e.status_ = CL_SUBMITTED;  // from CL_QUEUED: no callback can be registered for it yet
    const bool watch = e.watchFromSubmission(slot, backendEvent);
    e.watched_ = watch;
    EventSignal::raise();
    if (watch) e.watchSubmitted();
    return made;
}

void Event::needNotification() {
    cl_event backend;
    cl_int st = CL_COMPLETE;
    {
        std::lock_guard lock(mutex_);
        notify_ = true;
        if (status_ <= CL_COMPLETE || watched_) return;
        backend = backendLocked();
        if (!backend && !deferredFinal(st)) return;  // not submitted yet: submitted() will watch
        watched_ = true;
    }
    hear(backend, st);
}

void Event::hear(cl_event backend, cl_int finalStatus) {
    if (backend)
        watchBackend(backend);
    else
        complete(finalStatus);  // a deferred event whose queue was finished instead of marked
}

void Event::watchBackend(cl_event backend) {
    {
        Waiting& w = waiting();
        std::lock_guard lock(w.mutex);
        w.events.emplace(backend, this);
    }
    if (backend::onComplete(backend, backendCompleted, nullptr) != CL_SUCCESS) {
        // Cannot be told: wait here instead (rare; keeps the event correct).
        cl_int st = backend::waitFor(backend);
        complete(st == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    }
}

int Event::slotOfBackendEvent() const {
    cl_context made = nullptr;
    if (backend::eventContext(backendEvent_.get(), &made) != CL_SUCCESS)
        return -1;
    if (slot_ >= 0 && context_->backend(static_cast<unsigned>(slot_)) == made) return slot_;
    for (unsigned s = 0; s < context_->slotCount(); ++s)
        if (context_->backend(s) == made) return static_cast<int>(s);
    return -1;
}

void Event::complete(cl_int status) {
    // A callback may release the application's last reference (legal for user events, which
    // nothing else holds): stay alive until this function is done with the object.
    Ref<Event> self(this);
    Queue* queue = nullptr;
    bool heldForCallbacks = false;
    {
        std::unique_lock lock(mutex_);
        if (status_ <= CL_COMPLETE || completing_) return;  // already final, or being made so
        if (heldBy_) {
            if (!heldBy_->finished()) return;  // completes when the tail it waits for finishes
            heldBy_.reset();                   // finished: its call from the tail may still be to come
        }
        // Work the command started goes on (event_tail.hpp): complete once it is over.
        tails_.erase(std::remove_if(tails_.begin(), tails_.end(), [](const auto& t) { return t->finished(); }),
                     tails_.end());
        if (!tails_.empty()) {
            std::shared_ptr<Tail> tail = tails_.front();
            heldBy_ = tail;
            lock.unlock();
            tail->whenFinished([self, status, tail] {
                {
                    std::lock_guard relock(self->mutex_);
                    if (self->heldBy_ == tail) self->heldBy_.reset();
                }
                self->complete(status);
            });
            return;
        }
        completing_ = true;
        // Drawn before the status is final, so that whoever sees it complete (an application about
        // to exit) finds the span already in the trace.
        if (trace_.begin >= 0) traceSpan(status);
        cl_ulong start = 0, end = 0;
        bool backendTimes = backendEvent_ && profiling_ && status == CL_COMPLETE &&
            backend::profilingTime(backendEvent_.get(), CL_PROFILING_COMMAND_START, &start) == CL_SUCCESS &&
            backend::profilingTime(backendEvent_.get(), CL_PROFILING_COMMAND_END, &end) == CL_SUCCESS;
        const int clockSlot = backendTimes ? slotOfBackendEvent() : -1;
        if (backendTimes) {
            // The device's times on the host clock where it is placed there, else (heard at once:
            // submitted() watched it) its duration ending now.
            const cl_ulong now = hostNanoseconds();
            if (clockSlot >= 0 && backend_clock::known(static_cast<unsigned>(clockSlot))) {
                start = backend_clock::toHost(static_cast<unsigned>(clockSlot), start);
                end = backend_clock::toHost(static_cast<unsigned>(clockSlot), end);
            } else {
                start = now - std::min(end >= start ? end - start : 0, now);
                end = now;
            }
            const backend_clock::HostTimes placed = backend_clock::place(times_[0], times_[1], now, start, end);
            times_[1] = placed.submitted;
            times_[2] = placed.start;
            times_[3] = placed.end;
        } else if (profiling_) {
            if (!times_[1]) times_[1] = hostNanoseconds();
            times_[2] = times_[1];
            times_[3] = hostNanoseconds();
        }
        // A command may go from queued straight to complete (nothing tells Hetero when a backend
        // starts it): it still passes through every status, in order, and their callbacks fire.
        if (status_ > CL_SUBMITTED) {
            status_ = CL_SUBMITTED;
            runCallbacks(CL_SUBMITTED, lock);
        }
        if (status_ > CL_RUNNING) {
            status_ = CL_RUNNING;
            runCallbacks(CL_RUNNING, lock);
        }
        status_ = status;
        runCallbacks(status, lock);
        queue = queue_;  // the handle stays queryable (CL_EVENT_COMMAND_QUEUE); the reference goes
        heldForCallbacks = heldForCallbacks_;
        heldForCallbacks_ = false;
    }
    // Before waking anyone: an application woken here may exit at once, and the queue's last
    // reference may be this one (its destructor calls the backends).
    if (queue) queue->release();
    changed_.notify_all();
    EventSignal::raise();
    if (heldForCallbacks) release();  // `self` still holds it until this function returns
}

void Event::addTails(const Tails& tails) {
    if (tails.empty()) return;
    std::lock_guard lock(mutex_);
    for (const auto& t : tails)
        if (std::find(tails_.begin(), tails_.end(), t) == tails_.end()) tails_.push_back(t);
}

Tails Event::unfinishedTails() const {
    std::lock_guard lock(mutex_);
    Tails out;
    if (status_ > CL_COMPLETE)
        for (const auto& t : tails_)
            if (!t->finished()) out.push_back(t);
    return out;
}

void Event::setUserStatus(cl_int status) {
    require(type_ == CL_COMMAND_USER, CL_INVALID_EVENT);
    require(status == CL_COMPLETE || status < 0, CL_INVALID_VALUE);
    {
        std::lock_guard lock(mutex_);
        require(status_ > CL_COMPLETE && !completing_, CL_INVALID_OPERATION);  // may be set once
    }
    complete(status);
}

cl_int Event::waitInOrder() {
    Ref<Queue> queue = queueWhileUnfinished();
    std::vector<Ref<Event>> earlier;
    if (queue) earlier = queue->commandsBefore(this);
    cl_int status = wait();
    for (const auto& e : earlier) e->wait();
    return status;
}

cl_int Event::wait() {
    std::unique_lock lock(mutex_);
    while (status_ > CL_COMPLETE) {
        // Another thread is running the callbacks, or the command is done on the backend and its
        // tail's end completes it: either notifies when final. A tail that has finished no longer
        // holds it back (complete()): its own call may still be to come, maybe on this very thread.
        if (completing_ || (heldBy_ && !heldBy_->finished())) {
            changed_.wait(lock);
            continue;
        }
        if (cl_int st; !backendLocked() && deferredFinal(st)) {
            lock.unlock();
            complete(st);
            lock.lock();
            continue;
        }
        if (backendEvent_) {  // wait on the backend directly rather than for its callback
            cl_event backend = backendEvent_.get();
            lock.unlock();
            backend::waitFor(backend);
            cl_int st = backendStatus(backend);
            if (st <= CL_COMPLETE && deferred_) deferred_->sawComplete(st);
            if (st <= CL_COMPLETE)
                complete(st < 0 ? st : CL_COMPLETE);
            else
                needNotification();  // the backend's wait failed without a final status: hear it from its callback
            lock.lock();
            if (status_ > CL_COMPLETE) changed_.wait(lock);
            continue;
        }
        changed_.wait(lock);
    }
    return status_;
}

void Event::addCallback(cl_int status, Callback fn, void* userData) {
    std::unique_lock lock(mutex_);
    callbacks_.push_back({status, fn, userData});
    // Already reached: call it now (outside the lock, from this thread).
    bool reached = status_ <= status;
    if (reached) {
        callbacks_.pop_back();
        cl_int current = status_ < 0 ? status_ : status;
        lock.unlock();
        fn(handle(), current, userData);
        return;
    }
    // Registered callbacks run even if the application releases the event first: it stays alive
    // until complete() has run them (nothing else may hold a released event, e.g. a launch's).
    if (!heldForCallbacks_) {
        heldForCallbacks_ = true;
        retain();
    }
    lock.unlock();
    needNotification();
}

// Runs (and removes) the callbacks registered for `reached`; `reached` may be negative (error),
// which triggers CL_COMPLETE callbacks with the error code. Unlocks around each call; another
// thread may remove entries meanwhile (submitted() and complete() can run callbacks of different
// statuses at once), so each search starts from the front again.
void Event::runCallbacks(cl_int reached, std::unique_lock<std::mutex>& lock) {
    const cl_int level = reached < 0 ? CL_COMPLETE : reached;
    auto at = [&] { return std::find_if(callbacks_.begin(), callbacks_.end(), [&](const Registered& r) { return r.status == level; }); };
    for (auto it = at(); it != callbacks_.end(); it = at()) {
        Registered r = *it;
        callbacks_.erase(it);
        lock.unlock();
        r.fn(handle(), reached, r.userData);
        lock.lock();
    }
}

cl_int Event::profilingInfo(cl_profiling_info param, size_t size, void* value, size_t* sizeRet) {
    status();  // done on the backend but not heard of yet (its callback may lag): completes it now
    std::lock_guard lock(mutex_);
    if (!profiling_ || type_ == CL_COMMAND_USER) return CL_PROFILING_INFO_NOT_AVAILABLE;
    if (status_ != CL_COMPLETE) return CL_PROFILING_INFO_NOT_AVAILABLE;
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_PROFILING_COMMAND_QUEUED: return out.scalar<cl_ulong>(times_[0]);
    case CL_PROFILING_COMMAND_SUBMIT: return out.scalar<cl_ulong>(times_[1]);
    case CL_PROFILING_COMMAND_START: return out.scalar<cl_ulong>(times_[2]);
    case CL_PROFILING_COMMAND_END:
    case CL_PROFILING_COMMAND_COMPLETE: return out.scalar<cl_ulong>(times_[3]);
    default: return CL_INVALID_VALUE;
    }
}

cl_int Event::info(cl_event_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    // Not through queue_: a completed event no longer holds its queue, which may be gone.
    case CL_EVENT_COMMAND_QUEUE: return out.scalar<cl_command_queue>(queueHandle_);
    case CL_EVENT_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_EVENT_COMMAND_TYPE: return out.scalar<cl_command_type>(type_);
    case CL_EVENT_COMMAND_EXECUTION_STATUS: return out.scalar<cl_int>(status());
    case CL_EVENT_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
