// OpenCL entry points for devices: validate, translate handles, hand off to objects/device.cpp.
#include "platform/objects/platform.hpp"

#include "platform/api/api.hpp"
#include "platform/memory/memory_model.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/version.hpp"
#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

using namespace hetero;

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices) {
    return guarded([&] {
        require(platform == nullptr || fromHandle<Platform>(platform), CL_INVALID_PLATFORM);
        const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                     CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
        require(device_type == CL_DEVICE_TYPE_ALL || (device_type & ~known) == 0, CL_INVALID_DEVICE_TYPE);
        require(!(num_entries == 0 && devices), CL_INVALID_VALUE);
        require(devices || num_devices, CL_INVALID_VALUE);
        Device* d = Device::instance();
        // The virtual device is the default device, and matches any of the types it wraps.
        bool matches = d && (device_type == CL_DEVICE_TYPE_ALL || (device_type & CL_DEVICE_TYPE_DEFAULT) ||
                             (device_type & d->type()));
        if (!matches) {
            if (num_devices) *num_devices = 0;
            return CL_DEVICE_NOT_FOUND;
        }
        if (devices) devices[0] = d->handle();
        if (num_devices) *num_devices = 1;
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        require(isOurDevice(device), CL_INVALID_DEVICE);
        return Device::instance()->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                                      cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret) {
    return guarded([&] {
        require(isOurDevice(in_device), CL_INVALID_DEVICE);
        require(properties != nullptr, CL_INVALID_VALUE);
        // CL_DEVICE_PARTITION_PROPERTIES reports no partition type.
        return CL_INVALID_VALUE;
    });
}

// The root device is never created or destroyed by the application: retain/release do nothing.
cl_int CL_API_CALL clRetainDevice(cl_device_id device) { return isOurDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }
cl_int CL_API_CALL clReleaseDevice(cl_device_id device) { return isOurDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp, cl_ulong* host_timestamp) {
    // CL_PLATFORM_HOST_TIMER_RESOLUTION is 0: the platform offers no host timer.
    return isOurDevice(device) ? CL_INVALID_OPERATION : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
    return isOurDevice(device) ? CL_INVALID_OPERATION : CL_INVALID_DEVICE;
}
