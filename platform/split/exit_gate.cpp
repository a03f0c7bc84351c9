#include "platform/split/exit_gate.hpp"

#include "devices/backend_commands.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/error.hpp"

#include <condition_variable>
#include <cstdlib>
#include <mutex>

namespace hetero::exit_gate {
namespace {

// Counts the admitted enqueues whose last kernel has not ended: a completion callback counts each
// down, so no event is kept (a kept event holds its command's objects in the backend).
struct Gate {
    std::mutex mutex;
    std::condition_variable idle;
    bool closed = false;
    unsigned running = 0;
};
Gate& gate() {
    static auto* g = new Gate;  // never destroyed: used at exit
    return *g;
}

void countDown() {
    Gate& g = gate();
    std::lock_guard lock(g.mutex);
    if (--g.running == 0) g.idle.notify_all();
}

void CL_CALLBACK ended(cl_event, cl_int, void*) { countDown(); }

void closeAtExit() { closeAndDrain(); }

}  // namespace

void enqueue(const std::function<void()>& enqueue, backend::Event& last) {
    static std::once_flag atExit;
    std::call_once(atExit, [] { std::atexit(closeAtExit); });  // after the backends were loaded
    Gate& g = gate();
    {
        // Counted before the enqueue: a close from now on waits for it, even where the enqueue
        // itself comes after the close.
        std::lock_guard lock(g.mutex);
        if (g.closed) {
            counters::add(counters::ChunksRefusedAtExit);
            fail(CL_OUT_OF_RESOURCES);
        }
        ++g.running;
    }
    counters::add(counters::SplitChunks);
    // Unlocked: the callback may run at once, on this thread. What was enqueued before a failure
    // still runs, and is waited for alike.
    auto watch = [&] {
        if (!last || backend::onComplete(last.get(), ended, nullptr) != CL_SUCCESS) {
            if (last) backend::waitFor(last.get());  // no callback: its end is here
            countDown();
        }
    };
    try {
        enqueue();
    } catch (...) {
        watch();
        throw;
    }
    watch();
}

bool closed() {
    Gate& g = gate();
    std::lock_guard lock(g.mutex);
    return g.closed;
}

void closeAndDrain() {
    Gate& g = gate();
    std::unique_lock lock(g.mutex);
    g.closed = true;
    g.idle.wait(lock, [&] { return g.running == 0; });
}

}  // namespace hetero::exit_gate
