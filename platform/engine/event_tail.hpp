// Work a command started that goes on after its backend event completes: a split launch's CPU
// side (the chunk left running when the GPU ended first, the stream-back of the merged result)
// and, under HETERO_SPLIT=always, the build of a program's split variants that a launch started
// or met (platform/split/). Elsewhere such a build holds the end of the application's threads
// instead (platform/split/thread_end.hpp).
//
// Commands chained on the backend event run at once (the GPU never waits for the CPU), but the
// command itself, and every command that depends on it, counts as complete for the application
// (status, waits, callbacks, clFinish) only once its tails have finished (Event::addTails). An
// application may exit as soon as its last wait returns, and the exit-time destructors of the
// libraries in the process (LLVM's, used by PoCL to compile a CPU chunk) must never run while
// Hetero's work goes on; no exit handler can be ordered before all of them.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class Tail {
public:
    Tail() = default;
    Tail(const Tail&) = delete;
    Tail& operator=(const Tail&) = delete;

    // The work is over: runs what waited for it, on this thread. Call it as the work's very last
    // step (an application may exit once it returns).
    void finish();
    bool finished() const;
    // Runs `then` once finished: at once on this thread if it is, else on the finishing thread.
    void whenFinished(std::function<void()> then);

private:
    mutable std::mutex mutex_;
    bool finished_ = false;
    std::vector<std::function<void()>> waiting_;
};

using Tails = std::vector<std::shared_ptr<Tail>>;

}  // namespace hetero
