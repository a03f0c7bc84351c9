// Each slot's device clock placed on the host clock (hostNanoseconds), so that a profiled command's
// start and end can be read from its backend event whenever Hetero learns that it completed,
// instead of being heard at once through a completion callback (which costs a profiled launch
// more than the launch itself on NVIDIA).
#pragma once

#include <CL/cl.h>

namespace hetero::backend_clock {

// Learns `slot`'s offset once per process: a few profiled markers on a queue of `context`, each
// timed on the host around it. Blocks, so only from an application's thread (never from a
// backend's callback thread). Does nothing once known or once tried and failed.
void calibrate(unsigned slot, cl_context context, cl_device_id device);

// True when `slot`'s offset is known.
bool known(unsigned slot);

// `deviceNs`, read from a backend event of `slot`, on the host clock. Only when known(slot).
cl_ulong toHost(unsigned slot, cl_ulong deviceNs);

}  // namespace hetero::backend_clock
