// Threads that run split launches' CPU sides, kept for the next launch: starting a thread cost
// 176 us on the 2-core development VM, handing a job to one that waits 11 us.
#pragma once

#include <functional>

namespace hetero {

// Runs `job` on a waiting worker thread, or on a new one when none is free (so a job never waits
// for another: a launch's CPU side may wait for an earlier launch's). Workers are never stopped.
void runOnSplitWorker(std::function<void()> job);

}  // namespace hetero
