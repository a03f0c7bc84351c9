#include "devices/kernel_lanes.hpp"

#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <cstdlib>

namespace hetero {

namespace {
bool checking() {
    static const bool on = [] {
        auto v = config::get("HETERO_TEST_LANE_CHECK", "test_lane_check");
        return v && !v->empty() && *v != "0";
    }();
    return on;
}
}  // namespace

cl_event* KernelLanes::Choice::event(cl_event* wanted) {
    if (wanted || !lock_.owns_lock()) return wanted;
    return own_.receive();
}

KernelLanes::Choice::~Choice() {
    if (lock_.owns_lock()) owner_->record(*this, nullptr);
}

void KernelLanes::Choice::ran(cl_event done) {
    if (lock_.owns_lock()) owner_->record(*this, done ? done : own_.get());
}

KernelLanes::Choice KernelLanes::choose(cl_command_queue queue) {
    Choice c;
    if (!tracked_) return c;
    c.owner_ = this;
    c.queue_ = queue;
    c.lock_ = std::unique_lock(mutex_);
    for (size_t i = 0; i < lanes_.size(); ++i)
        if (lanes_[i].queue == queue) {  // in order behind the lane's last command
            c.lane_ = static_cast<unsigned>(i);
            return c;
        }
    for (size_t i = 0; i < lanes_.size(); ++i)
        if (!lanes_[i].bound && (!lanes_[i].last || backend::done(lanes_[i].last.get()))) {
            c.lane_ = static_cast<unsigned>(i);
            return c;
        }
    c.lane_ = static_cast<unsigned>(lanes_.size());
    lanes_.emplace_back();
    return c;
}

void KernelLanes::record(Choice& choice, cl_event done) {
    const cl_command_queue queue = choice.queue_;
    Lane& lane = lanes_[choice.lane_];
    if (checking()) {
        auto& flying = lane.inFlight;
        for (size_t i = 0; i < flying.size();) {
            if (backend::done(flying[i].second.get())) {
                flying.erase(flying.begin() + static_cast<std::ptrdiff_t>(i));
                continue;
            }
            if (flying[i].first != queue) {
                HETERO_LOG(Error, "HETERO_TEST_LANE_CHECK: lane %u of a kernel has commands of two queues in flight",
                           choice.lane_);
                std::abort();
            }
            ++i;
        }
        if (done) flying.emplace_back(queue, backend::Event(backend::retainEvent(done)));
    }
    lane.queue = queue;
    lane.last = done ? backend::Event(backend::retainEvent(done)) : backend::Event();
    lane.bound = !done;  // not known when it is over: the lane stays this queue's
    choice.own_.reset();
    choice.lock_.unlock();
}

std::string laneBuildOptions(const std::string& options, unsigned lane) {
    if (lane == 0) return options;
    return options + (options.empty() ? "" : " ") + "-DHETERO_LANE_" + std::to_string(lane);
}

}  // namespace hetero
