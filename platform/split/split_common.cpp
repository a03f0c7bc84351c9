#include "platform/split/split_common.hpp"

#include "devices/backend_objects.hpp"
#include "platform/objects/platform.hpp"

#include <algorithm>
#include <chrono>

namespace hetero {

cl_uint computeUnits(unsigned slot) {
    cl_uint units = 1;
    backend::deviceInfo(Device::instance()->slots()[slot].device, CL_DEVICE_MAX_COMPUTE_UNITS, units);
    return std::max(1u, units);
}

double splitClock() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace hetero
