// Counting backend calls by entry point (HETERO_COUNT_BACKEND_CALLS=on): what a launch costs in
// calls into NVIDIA or PoCL, against what a native program makes. Printed to stderr at exit.
#pragma once

namespace hetero {
namespace backend {

bool countingCalls();  // HETERO_COUNT_BACKEND_CALLS, read once
// One call of `function` through the dispatch table `dispatch` (which backend it went to).
void countCall(const void* dispatch, const char* function);

}  // namespace backend
}  // namespace hetero
