// Whether a queue's launches on a slot come in a loop's run, for its launch pipe (Queue::Direct::pipe,
// devices/call_pipe.hpp). A loop's launches come a few microseconds apart; a program's lone launches
// (a launch, a read, host work) hundreds or more. A launch that follows the queue's previous pipe
// candidate on the slot within kGap is in a run, and may go to the pipe; the pipe is made only once a
// run is kRunBeforePipe launches long: its thread's first NVIDIA call costs 100-200 us, more than a
// program's few launches in a row could gain (docs/results/h100-session21).
#pragma once

#include <chrono>

namespace hetero {

class LaunchRun {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr auto kGap = std::chrono::microseconds(100);
    static constexpr unsigned kRunBeforePipe = 8;

    // A launch that could go to the pipe, at `now`: whether it follows the one before within kGap.
    bool next(Clock::time_point now) {
        const bool inRun = now - last_ < kGap;
        last_ = now;
        length_ = inRun ? length_ + 1 : 0;
        return inRun;
    }
    // Whether the run is long enough to make a pipe for: `runBeforePipe` launches in a row, each
    // within kGap of the one before.
    bool longEnoughForPipe(unsigned runBeforePipe = kRunBeforePipe) const { return length_ >= runBeforePipe; }

private:
    Clock::time_point last_{};
    unsigned length_ = 0;
};

}  // namespace hetero
