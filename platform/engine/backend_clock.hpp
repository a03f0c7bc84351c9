// Each slot's device clock placed on the host clock (hostNanoseconds), so that a profiled command's
// start and end can be read from its backend event whenever Hetero learns that it completed,
// instead of being heard at once through a completion callback (which costs a profiled launch
// more than the launch itself on NVIDIA).
#pragma once

#include <CL/cl.h>

#include <algorithm>

namespace hetero::backend_clock {

// Learns `slot`'s offset once per process: a few profiled markers on a queue of `context`, each
// timed on the host around it. Blocks, so only from an application's thread (never from a
// backend's callback thread). Does nothing once known or once tried and failed.
// HETERO_TEST_CLOCK_SKEW_US (tests only): the offset learned is that many µs off (negative: device
// times placed earlier than they were), as a wide marker wait can leave it.
void calibrate(unsigned slot, cl_context context, cl_device_id device);

// True when `slot`'s offset is known.
bool known(unsigned slot);

// `deviceNs`, read from a backend event of `slot`, on the host clock. Only when known(slot).
cl_ulong toHost(unsigned slot, cl_ulong deviceNs);

// A profiled command's submit, start and end on the host clock.
struct HostTimes {
    cl_ulong submitted, start, end;
};
// The device's start and end (already on the host clock, or anywhere when only their difference is
// known) placed between what Hetero saw, in the order the specification requires: queued ≤
// submitted ≤ start ≤ end ≤ now. The device's duration is kept whole wherever the window holds it:
// an interval placed a little early or late (the offset is known to half a marker's wait) moves as
// a whole rather than losing what lies outside. One that needs more room than [submitted, now]
// began before Hetero noted its submission (PoCL starts work inside the enqueue call): submitted
// moves back to its start.
inline HostTimes place(cl_ulong queued, cl_ulong submitted, cl_ulong now, cl_ulong start, cl_ulong end) {
    submitted = std::clamp(submitted, queued, now);
    const cl_ulong duration = std::min(end >= start ? end - start : 0, now - queued);
    const cl_ulong earliest = now - submitted >= duration ? submitted : queued;
    const cl_ulong s = std::clamp(start, earliest, now - duration);
    return {std::min(submitted, s), s, s + duration};
}

}  // namespace hetero::backend_clock
