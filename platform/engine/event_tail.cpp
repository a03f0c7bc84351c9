// Tails of commands: see event_tail.hpp.
#include "platform/engine/event_tail.hpp"

namespace hetero {

void Tail::finish() {
    std::vector<std::function<void()>> run, near;
    {
        std::lock_guard lock(mutex_);
        finished_ = nearlyFinished_ = true;
        run.swap(waiting_);
        near.swap(waitingNear_);
    }
    for (auto& then : run) then();
}

void Tail::nearlyFinished() {
    std::vector<std::function<void()>> run;
    {
        std::lock_guard lock(mutex_);
        nearlyFinished_ = true;
        run.swap(waitingNear_);
    }
    for (auto& then : run) then();
}

bool Tail::isNearlyFinished() const {
    std::lock_guard lock(mutex_);
    return nearlyFinished_;
}

void Tail::whenNearlyFinished(std::function<void()> then) {
    {
        std::lock_guard lock(mutex_);
        if (finished_) return;
        if (!nearlyFinished_) {
            waitingNear_.push_back(std::move(then));
            return;
        }
    }
    then();
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
