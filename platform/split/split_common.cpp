#include "platform/split/split_common.hpp"

#include "platform/objects/platform.hpp"

#include <algorithm>
#include <chrono>

namespace hetero {

cl_uint computeUnits(unsigned slot) {
    cl_uint units = 1;
    cl_device_id d = Device::instance()->slots()[slot].device;
    BACKEND(d, clGetDeviceInfo)(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr);
    return std::max(1u, units);
}

double splitClock() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace hetero
