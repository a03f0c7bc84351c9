// Counting backend calls by entry point (HETERO_COUNT_BACKEND_CALLS=on): what a launch costs in
// calls into NVIDIA or PoCL, against what a native program makes. Printed to stderr at exit.
#pragma once

#include <atomic>

namespace hetero::backend {

// Set while the backends are loaded (devices/backend.cpp), as the view lock's switch is. Inline:
// every call through BACKEND() asks.
inline std::atomic<bool> callCountingOn{false};
inline bool countingCalls() { return callCountingOn.load(std::memory_order_relaxed); }
// Turns counting on and has the counts printed at exit.
void countCalls();
// One call of `function` through the dispatch table `dispatch` (which backend it went to).
void countCall(const void* dispatch, const char* function);

}  // namespace hetero::backend
