// How long a launch run whole took, for auto mode's history (platform/split/split_history.hpp): the
// kernel's own time from the backend's profiling timestamps, heard by polling.
//
// Why not completion callbacks: on NVIDIA a completion callback that is still pending (a timed
// launch behind a queue of others) makes every other launch of the process slower: its event
// thread spins on a lock the enqueuing thread needs. Timing one launch in 256 that way cost
// jacobi-1d about 5 us per launch on the H100 (docs/results/h100-session5/). Profiling timestamps need a queue with
// profiling enabled, so a timed launch runs on a side queue of its Hetero queue
// (Queue::timingQueue); it waits for the commands ahead of it like any other.
#pragma once

#include "platform/split/split_history.hpp"

#include <CL/cl.h>

#include <string>

namespace hetero {

// Times `done` (the launch's backend event, retained here until heard), enqueued on a queue with
// profiling enabled, for `kernel` at `size`.
void timeWholeLaunch(cl_event done, const std::string& kernel, const LaunchSize& size);

// Reports the timed launches that have completed to the history. Cheap when none is pending;
// called before each decision of auto mode, so a decision sees every timing that is in. Asks the
// backend at most every 100 us, unless `now` (at exit, before the history is written: a program's
// last timing is heard by no decision).
void pollLaunchTimings(bool now = false);

}  // namespace hetero
