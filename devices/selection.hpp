// HETERO_DEVICES: which backend devices become slots of the virtual device.
//   gpu | cpu | accelerator | all     every device of that type, in backend order
//   NAME                              every device of the platforms whose name, vendor or library
//                                     contains NAME (case-insensitive), e.g. "pocl", "nvidia"
//   NAME:K                            the K-th device of those platforms, e.g. "pocl:0"
// Comma separated; a device may be named twice ("pocl:0,pocl:0": two slots, two contexts).
// Default "gpu,cpu"; if that matches nothing, every device.
#pragma once

#include "devices/backend.hpp"

#include <string>
#include <vector>

namespace hetero {

struct Selection {
    std::vector<Slot> slots;
    std::string error;  // non-empty: the request was wrong; says what exists
};

Selection selectSlots(const std::vector<BackendPlatform>& platforms, const std::string* request);

}  // namespace hetero
