// HETERO_TEST_SPLIT_CHAOS=<seed> (tests only): random chunk sizes and random delays in the split
// engines, so that tests see many interleavings, reproducibly per seed. Both split engines use it.
#pragma once

namespace hetero::chaos {

// True when the knob is set.
bool on();
// A random number in [0, n) (0 when n is 0).
unsigned below(unsigned n);
// Sleeps a random while below `maxMicroseconds` when the knob is set.
void delay(unsigned maxMicroseconds);
// HETERO_TEST_SPLIT_FAIL_EVERY=<n> (tests only): true for every n-th CPU chunk of the process, which
// the discrete engine then fails as a backend would, so tests see a CPU side failing mid-launch.
bool failChunk();

}  // namespace hetero::chaos
