#include "platform/split/whole_verdict.hpp"

namespace hetero {

void WholeVerdict::settle(const std::string& kernel) {
    left_ = 0;
    if (decided_ == 0) return;
    if (counts_) SplitHistory::instance().countWholeLaunches(kernel, key_.size, decided_);
    decided_ = 0;
}

}  // namespace hetero
