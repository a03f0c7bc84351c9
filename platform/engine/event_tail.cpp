// Tails of commands: see event_tail.hpp.
#include "platform/engine/event_tail.hpp"

namespace hetero {

void Tail::finish() {
    std::vector<std::function<void()>> run;
    {
        std::lock_guard lock(mutex_);
        finished_ = true;
        run.swap(waiting_);
    }
    for (auto& then : run) then();
}

bool Tail::finished() const {
    std::lock_guard lock(mutex_);
    return finished_;
}

void Tail::whenFinished(std::function<void()> then) {
    {
        std::lock_guard lock(mutex_);
        if (!finished_) {
            waiting_.push_back(std::move(then));
            return;
        }
    }
    then();
}

}  // namespace hetero
