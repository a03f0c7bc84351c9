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

// While the application enqueues back to back, commands that arrive within this window share a
// flush (a backend usually runs commands without one; the flush only guarantees that it will).
constexpr auto kBatchWindow = std::chrono::microseconds(20);

struct State {
    std::mutex mutex;
    std::condition_variable wake, idle;
    std::vector<cl_command_queue> marked, flushing;
    bool waiting = false, running = false;
    std::thread::id thread;
};

State& state() {
    static State* s = new State;  // never destroyed: the thread may outlive static destructors
    return *s;
}

void loop() {
    State& s = state();
    std::unique_lock lock(s.mutex);
    for (;;) {
        s.waiting = true;
        s.wake.wait(lock, [&] { return !s.marked.empty(); });
        s.waiting = false;
        s.flushing.swap(s.marked);
        lock.unlock();
        for (cl_command_queue q : s.flushing) BACKEND(q, clFlush)(q);
        lock.lock();
        s.flushing.clear();
        s.idle.notify_all();
        lock.unlock();
        std::this_thread::sleep_for(kBatchWindow);
        lock.lock();
    }
}

}  // namespace

void Flusher::later(cl_command_queue queue) {
    State& s = state();
    bool wake;
    {
        std::lock_guard lock(s.mutex);
        if (!s.running) {
            s.running = true;
            std::thread t(loop);
            s.thread = t.get_id();
            t.detach();
        }
        wake = s.waiting && s.marked.empty();
        if (std::find(s.marked.begin(), s.marked.end(), queue) == s.marked.end()) s.marked.push_back(queue);
    }
    if (wake) s.wake.notify_one();
}

void Flusher::forget(cl_command_queue queue) {
    State& s = state();
    std::unique_lock lock(s.mutex);
    s.marked.erase(std::remove(s.marked.begin(), s.marked.end(), queue), s.marked.end());
    if (std::this_thread::get_id() == s.thread) return;  // a backend callback during our own flush
    s.idle.wait(lock, [&] { return std::find(s.flushing.begin(), s.flushing.end(), queue) == s.flushing.end(); });
}

}  // namespace hetero
