// Auto mode's verdict "runs whole, untimed" on a kernel's launches, kept for the launches after the
// one decided (SplitDecision::wholeUntimedFor). A launch the GPU runs in one go, or a size that
// cannot gain until it is due for a timing again, is decided alike every time, yet deciding it
// afresh took the history's lock, its lookups and the model's arithmetic: with a CPU slot beside
// the GPU's, 700-1,500 instructions per launch more than over one slot, 250-400 with the verdict
// (callgrind on two PoCL slots, bench/tools/launch_cost.py --callgrind --groups 1|64).
// The direct way (launch.cpp) keeps the verdict in the kernel's variants, under the kernel's
// LaunchLock, and lets it decide while nothing it rests on changed: the slot, the global size and
// the work-groups, the bytes the written arguments hold (the model's cost), whether the variants
// are built, and the history (SplitHistory::changes()). The launches it decided are counted in
// the history before the next fresh decision, or when the kernel goes (a kernel never released
// leaves up to 64 uncounted in the history written at exit: counts that only schedule timings).
#pragma once

#include "platform/split/split_history.hpp"

#include <cstdint>
#include <string>

namespace hetero {

class WholeVerdict {
public:
    // What a verdict rests on besides the history.
    struct Key {
        unsigned slot = 0;
        LaunchSize size;
        uint64_t workGroups = 0;
        double bytesWritten = 0;
        bool variantsReady = false;
        uint64_t historyChanges = 0;  // SplitHistory::changes(), read before the decision
        bool operator==(const Key& o) const {
            return slot == o.slot && size == o.size && workGroups == o.workGroups && bytesWritten == o.bytesWritten &&
                   variantsReady == o.variantsReady && historyChanges == o.historyChanges;
        }
    };

    // Whether the kept verdict decides a launch of `key` (it runs whole, untimed); counts it if so.
    bool decides(const Key& key) {
        if (left_ == 0 || !(key == key_)) return false;
        --left_;
        ++decided_;
        return true;
    }
    // A fresh decision of a launch of `key` said what SplitDecision::wholeUntimedFor and
    // historyCounts say.
    void keep(const Key& key, unsigned launches, bool historyCounts) {
        key_ = key;
        left_ = launches;
        counts_ = historyCounts;
    }
    // Counts the launches the verdict decided in the history of `kernel` (its historyKey), and
    // drops it; before a fresh decision, and when the kernel goes.
    void settle(const std::string& kernel);

private:
    Key key_;
    unsigned left_ = 0;     // launches it may still decide
    unsigned decided_ = 0;  // launches it decided, not yet counted in the history
    bool counts_ = true;    // they count there (not where the GPU runs them in one go)
};

}  // namespace hetero
