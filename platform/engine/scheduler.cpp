#include "platform/engine/scheduler.hpp"

#include <map>
#include <thread>
#include <vector>

namespace hetero {
namespace {
struct State {
    std::mutex mutex;
    std::map<Queue*, Ref<Queue>> watched;
    std::map<Queue*, unsigned long> watchCount;  // bumped by every watch(), so no request is lost
    bool running = false;
};

State& state() {
    static State* s = new State;  // never destroyed: the thread may outlive static destructors
    return *s;
}

void loop() {
    State& s = state();
    unsigned long seen = EventSignal::current();
    for (;;) {
        std::vector<std::pair<Ref<Queue>, unsigned long>> work;
        {
            std::lock_guard lock(s.mutex);
            for (auto& [q, ref] : s.watched) work.emplace_back(ref, s.watchCount[q]);
        }
        for (auto& [ref, count] : work) {
            // Never waits: a command whose dependency on another slot is still running stays
            // pending, and the event signal brings us back when it completes. So one queue's wait
            // never holds up another's commands, nor keeps another queue (and its context) alive.
            Queue* q = ref.get();
            bool stillPending = q->submitReady(/*mayBlock=*/false);
            {
                std::lock_guard lock(s.mutex);
                if (!stillPending && s.watchCount[q] == count) {
                    s.watched.erase(q);
                    s.watchCount.erase(q);
                    if (s.watched.empty()) EventSignal::listen(false);
                }
            }
            ref = Ref<Queue>();  // may destroy the queue: outside the lock
        }
        // Any event change or watch() since `seen` (also during the pass above) wakes us at once.
        EventSignal::waitAfter(seen);
    }
}
}  // namespace

void Scheduler::watch(Queue* queue) {
    State& s = state();
    {
        std::lock_guard lock(s.mutex);
        s.watched.emplace(queue, Ref<Queue>(queue));
        ++s.watchCount[queue];
        EventSignal::listen(true);  // before the raise below: changes from now on wake the loop
        if (!s.running) {
            s.running = true;
            std::thread(loop).detach();
        }
    }
    EventSignal::raise();
}

}  // namespace hetero
