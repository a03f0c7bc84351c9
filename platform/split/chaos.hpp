// HETERO_TEST_SPLIT_CHAOS=<seed> (tests only): random chunk sizes and random delays in the split
// engines, so that tests see many interleavings, reproducibly per seed. Both split engines use it.
#pragma once

#include "devices/backend_call.hpp"

#include <thread>
#include <vector>

namespace hetero::chaos {

// True when the knob is set.
bool on();
// A random number in [0, n) (0 when n is 0).
unsigned below(unsigned n);
// Sleeps a random while below `maxMicroseconds` when the knob is set.
void delay(unsigned maxMicroseconds);
// Completes `gate` (a backend user event, retained meanwhile) after a random while below 30 ms, on
// the thread returned (join it): a split engine holds one side's kernel back behind it, so that
// the other gets ahead of it or not.
std::thread openLater(cl_event gate);
// With the knob set: a user event of `context` added to `wait`, opened by `opener` (openLater);
// the caller holds the returned reference until its command is enqueued. Else nothing.
backend::Event holdBack(cl_context context, std::vector<cl_event>& wait, std::thread& opener);
// HETERO_TEST_SPLIT_FAIL_EVERY=<n> (tests only): true for every n-th CPU chunk of the process, which
// the discrete engine then fails as a backend would, so tests see a CPU side failing mid-launch.
bool failChunk();
// HETERO_TEST_SPLIT_FAIL_BRING=<n> (tests only): true for the n-th copy that an N-way launch's thread
// brings to another slot (nway_split.cpp), which then fails as a backend's transfer would.
bool failBring();
// HETERO_TEST_SPLIT_FAIL_MERGE_AHEAD=1 (tests only): a split's merge enqueued ahead of its GPU
// kernel's end (discrete_split.cpp) fails once all of it is enqueued, as if its last enqueue had
// failed, so tests see the merge made after the kernel instead, with the first still queued.
bool failMergeAhead();
// HETERO_TEST_SPLIT_GIVE_UP_EVERY=<n> (tests only): true for every n-th adaptive split launch, whose
// CPU side then gives up before preparing anything, as when the GPU kernel ends first; so tests see
// what a launch that gave up leaves for later ones (the CPU copies it must still bring).
bool giveUp();
// HETERO_TEST_SPLIT_GPU_AFTER_CPU=1 (tests only): the GPU kernel of a split launch starts only once
// its CPU side is done, so an adaptive CPU side that does not give up computes every work-group
// (from the CPU copies, which must then be right).
bool gpuAfterCpu();
// HETERO_TEST_SPLIT_CPU_IDLE=1 (tests and bench/tools/split_cost only): an adaptive split's CPU side
// prepares its copies, then runs no chunk and waits for the GPU kernel, as when the GPU wins the
// race: what such a split costs over the launch run whole is its fixed cost.
bool cpuIdle();

}  // namespace hetero::chaos
