#include "platform/engine/scheduler.hpp"
#include "platform/support/thread_name.hpp"

#include <map>
#include <thread>
#include <vector>

namespace hetero {
namespace {
struct State {
    std::mutex mutex;
    // Weak: the events of a queue's pending commands hold it until they complete. A queue whose
    // commands are done goes at its release, with its context, whatever this thread is busy with
    // (another queue's submission, an application's callback).
    std::map<Queue*, WeakRef<Queue>> watched;
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
        struct Watched {
            Queue* key;  // in s.watched
            WeakRef<Queue> queue;
            unsigned long count;
        };
        std::vector<Watched> work;
        {
            std::lock_guard lock(s.mutex);
            for (auto& [q, weak] : s.watched) work.push_back({q, weak, s.watchCount[q]});
        }
        for (auto& [q, weak, count] : work) {
            // Never waits: a command whose dependency on another slot is still running stays
            // pending, and the event signal brings us back when it completes. So one queue's wait
            // never holds up another's commands, nor keeps another queue (and its context) alive.
            // The thread whose turn it is to submit for the queue (Queue::Submitted::ByAnother)
            // looks at it again for this request, and watches it again for what it leaves. Kept
            // watched for it here, the queue would wait for a signal that nothing raises once that
            // thread is done (issue 20).
            Ref<Queue> ref = weak.lock();  // null: released, with nothing pending
            bool stillPending = ref && ref->submitReady(/*mayBlock=*/false) == Queue::Submitted::Waiting;
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
        s.watched[queue] = WeakRef<Queue>(queue);  // replaces a gone queue's at the same address
        ++s.watchCount[queue];
        EventSignal::listen(true);  // before the raise below: changes from now on wake the loop
        if (!s.running) {
            s.running = true;
            std::thread([] {
                nameThisThread("hetero schedule");
                loop();
            }).detach();
        }
    }
    EventSignal::raise();
}

}  // namespace hetero
