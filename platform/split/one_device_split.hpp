// An N-way split over GPU slots of one device (docs/multi-slot.md, "Slots of one GPU"; issue 17):
// slots that name the same backend device share its backend context (Backends::contextSlot), so
// every part runs the chunk variant over its exclusive range of the flattened work-groups on its
// own slot's queue, over the primary's memory objects. Nothing is copied, snapshotted or merged:
// the parts write disjoint work-groups' results into the same memory, as one launch's work-groups
// do, and the kernels run side by side on the device (two contexts would take turns).
//   - the primary's part goes on the launch's own queue, behind the launch's dependencies, with a
//     marker right before it; the launch's thread enqueues the other parts once that marker is done
//     (the slots' internal queues carry no wait lists: one launch's dependencies would hold every
//     other launch behind it there), and completes the launch when every part is done;
//   - the written objects are current on the primary afterwards; the other slots' copies are not
//     touched.
// The N-way engine (nway_split.hpp) splits over slots of several devices.
#pragma once

#include "platform/engine/command.hpp"
#include "platform/split/decision.hpp"

#include <vector>

namespace hetero {

class Context;

// Whether every slot of `slots` shares the first's backend context (Context::sameBackend).
bool slotsOfOneDevice(const Context& context, const std::vector<unsigned>& slots);

// Runs the launch split over decision.nwaySlots (the first = sub.slot; slotsOfOneDevice). Returns
// the backend event (of the primary slot) that completes when every part is done.
cl_event submitOneDeviceSplit(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args,
                              const LaunchGeometry& launch, const SplitDecision& decision);

// Such launches submitted and not finished; they count against kMaxDiscreteSplitsInFlight.
unsigned oneDeviceSplitsInFlight();

}  // namespace hetero
