#include "platform/split/whole_verdict.hpp"

namespace hetero {

bool WholeVerdict::Key::operator==(const Key& o) const {
    return slot == o.slot && size.dims == o.size.dims && size.global[0] == o.size.global[0] &&
           size.global[1] == o.size.global[1] && size.global[2] == o.size.global[2] && workGroups == o.workGroups &&
           bytesWritten == o.bytesWritten && variantsReady == o.variantsReady && historyChanges == o.historyChanges;
}

void WholeVerdict::settle(const std::string& kernel) {
    left_ = 0;
    if (decided_ == 0) return;
    if (counts_) SplitHistory::instance().countWholeLaunches(kernel, key_.size, decided_);
    decided_ = 0;
}

}  // namespace hetero
