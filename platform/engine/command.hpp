// A command of a Hetero queue: what it waits for, where it runs, and how it submits itself to a
// backend device. Every clEnqueue* builds one and hands it to Queue::enqueue().
#pragma once

#include "platform/engine/event.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hetero {

// Where a command runs: a backend slot, or the host (memcpy, map bookkeeping).
constexpr int kHostSlot = -1;

// What a command's submit() gets: the chosen slot, the backend queue of this Hetero queue on it,
// and the backend events it must wait for (those of its dependencies that ran on the same slot).
struct Submission {
    Queue& queue;
    int slot;
    cl_command_queue backendQueue;   // nullptr for the host slot
    // The backend events to wait for before work enqueued on `target`: the dependencies' events,
    // less the deferred ones of `target` itself (an in-order queue orders them already); others
    // are made now. Borrowed; valid during submit().
    std::vector<cl_event> waitsOn(cl_command_queue target) const;
    // In an in-order queue: nothing enqueued on backendQueue before this command is still to run
    // there, because every dependency (the queue's previous command among them) has completed. Asks
    // the backend about each dependency's event (a deferred one makes its marker): for work that
    // would otherwise hold the caller behind the commands ahead of it (clEnqueueWriteBuffer's
    // pinned pieces).
    bool dependenciesDone() const;
    // Set by a submit() that enqueued its work on backendQueue without an event (and returned
    // nullptr): Queue::deferredEventAfterLast().
    std::shared_ptr<DeferredEvent> deferredDone;
    // Set by a submit() whose work goes on after the backend event it returns completes (a split
    // launch's CPU side): the command completes only once these have finished (event_tail.hpp).
    Tails tails;

    std::vector<cl_event> events;                           // of dependencies, borrowed
    std::vector<std::shared_ptr<DeferredEvent>> deferred;   // of dependencies without an event yet
};

// What a command is: its type (for its event), and for its span in the trace (HETERO_TRACE) a
// detail after the type's name (a kernel's name) and the bytes it moves, when known.
struct CommandLabel {
    CommandLabel(cl_command_type type, std::string detail = {}, uint64_t bytes = 0)
        : type(type), detail(std::move(detail)), bytes(bytes) {}
    cl_command_type type;
    std::string detail;
    uint64_t bytes;
    Event::TraceHook alsoTrace;  // more to draw when the command completes (Event::setTraceLabel)
};

struct Command {
    Ref<Event> event;
    std::vector<Ref<Event>> dependencies;
    // Chooses the slot from the current state of the memory objects; runs right before submit(),
    // once every dependency has been submitted. Default: the primary slot.
    std::function<int()> place;
    // Submits the work. Returns the backend event that completes it (the caller takes ownership),
    // or nullptr when the work is already done (host commands). Throws Error on failure.
    std::function<cl_event(Submission&)> submit;
};

}  // namespace hetero
