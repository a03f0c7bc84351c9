#include "platform/flusher.hpp"

#include "platform/object.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace hetero {
namespace {

// The longest a marked queue waits for a flush when nothing asks for one.
constexpr auto kSafetyNet = std::chrono::milliseconds(1);

struct State {
    std::mutex mutex;
    std::condition_variable wake, idle;
    std::vector<cl_command_queue> marked;
    std::vector<cl_command_queue> flushing;  // taken off `marked`, being flushed outside the lock
    bool idleWait = false;  // the thread waits with nothing marked (a mark must wake it)
    bool running = false;
    std::thread::id thread;
};

State& state() {
    static State* s = new State;  // never destroyed: the thread may outlive static destructors
    return *s;
}

// Flushes `queues` (already moved to s.flushing) outside the lock; `forget` waits for it.
void flushOutside(State& s, std::unique_lock<std::mutex>& lock, const std::vector<cl_command_queue>& queues) {
    lock.unlock();
    for (cl_command_queue q : queues) BACKEND(q, clFlush)(q);
    lock.lock();
    for (cl_command_queue q : queues) s.flushing.erase(std::find(s.flushing.begin(), s.flushing.end(), q));
    s.idle.notify_all();
}

void loop() {
    State& s = state();
    std::unique_lock lock(s.mutex);
    for (;;) {
        s.idleWait = s.marked.empty();
        if (s.idleWait)
            s.wake.wait(lock, [&] { return !s.marked.empty(); });
        s.idleWait = false;
        // Whatever is still marked after the safety net's time gets its flush.
        s.wake.wait_for(lock, kSafetyNet);
        std::vector<cl_command_queue> due;
        due.swap(s.marked);
        s.flushing.insert(s.flushing.end(), due.begin(), due.end());
        flushOutside(s, lock, due);
    }
}

}  // namespace

void Flusher::later(cl_command_queue queue) {
    State& s = state();
    bool wake = false;
    {
        std::lock_guard lock(s.mutex);
        if (!s.running) {
            s.running = true;
            std::thread t(loop);
            s.thread = t.get_id();
            t.detach();
        }
        if (std::find(s.marked.begin(), s.marked.end(), queue) != s.marked.end()) return;
        wake = s.idleWait && s.marked.empty();
        s.marked.push_back(queue);
    }
    if (wake) s.wake.notify_one();
}

void Flusher::now(cl_command_queue queue) {
    State& s = state();
    std::unique_lock lock(s.mutex);
    auto it = std::find(s.marked.begin(), s.marked.end(), queue);
    if (it == s.marked.end()) return;  // not marked: flushed already, or not one of ours
    s.marked.erase(it);
    s.flushing.push_back(queue);
    flushOutside(s, lock, {queue});
}

void Flusher::flushFor(cl_event event) {
    if (!event) return;
    cl_int status = CL_COMPLETE;
    if (BACKEND(event, clGetEventInfo)(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
            CL_SUCCESS ||
        status <= CL_COMPLETE)
        return;
    cl_command_queue queue = nullptr;
    BACKEND(event, clGetEventInfo)(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr);
    if (queue) now(queue);  // user events have no queue
}

void Flusher::forget(cl_command_queue queue) {
    State& s = state();
    std::unique_lock lock(s.mutex);
    s.marked.erase(std::remove(s.marked.begin(), s.marked.end(), queue), s.marked.end());
    if (std::this_thread::get_id() == s.thread) return;  // a backend callback during our own flush
    s.idle.wait(lock, [&] { return std::find(s.flushing.begin(), s.flushing.end(), queue) == s.flushing.end(); });
}

}  // namespace hetero
