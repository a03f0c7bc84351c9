// Counting backend calls by entry point (HETERO_COUNT_BACKEND_CALLS=on): what a launch costs in
// calls into NVIDIA or PoCL, against what a native program makes, and the time spent inside them
// (what is left of a launch's time through Hetero is Hetero's own), and from how many threads
// each entry point was called. Printed to stderr at exit.
#pragma once

#include <atomic>
#include <chrono>

namespace hetero::backend {

// Set while the backends are loaded (devices/backend.cpp), as the view lock's switch is. Inline:
// every call through BACKEND() asks.
inline std::atomic<bool> callCountingOn{false};
inline bool countingCalls() { return callCountingOn.load(std::memory_order_relaxed); }
// Turns counting on and has the counts printed at exit.
void countCalls();
// One call of `function` through the dispatch table `dispatch` (which backend it went to), which
// took `nanoseconds`.
void countCall(const void* dispatch, const char* function, long long nanoseconds);

// Counts the call it lives through (backend_call.hpp).
class CountedCall {
public:
    CountedCall(const void* dispatch, const char* function) : dispatch_(dispatch), function_(function) {}
    ~CountedCall() {
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_);
        countCall(dispatch_, function_, ns.count());
    }
    CountedCall(const CountedCall&) = delete;
    CountedCall& operator=(const CountedCall&) = delete;

private:
    const void* dispatch_;
    const char* function_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace hetero::backend
