// The Hetero platform and its one virtual device (both live for the whole process).
#pragma once

#include "devices/backend.hpp"
#include "platform/support/object.hpp"

#include <string>
#include <vector>

namespace hetero {

class Platform : public ApiObject<_cl_platform_id, Kind::Platform> {
public:
    static Platform& instance();
    cl_int info(cl_platform_info param, size_t size, void* value, size_t* sizeRet);
};

// The combined limits that validation reads on every enqueue or creation, computed once (device
// answers never change) instead of asking every backend each time.
struct DeviceLimits {
    size_t maxWorkItemSizes[3] = {0, 0, 0};
    size_t maxWorkGroupSize = 0;
    cl_bool nonUniformWorkGroups = CL_FALSE;
    cl_ulong maxMemAllocSize = 0;
    size_t baseAddressAlignment = 1;  // bytes (CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits)
    cl_bool imageSupport = CL_FALSE;
    size_t image2dMax[2] = {0, 0};
    size_t image3dMax[3] = {0, 0, 0};
    size_t imageMaxArraySize = 0;
    size_t imageMaxBufferSize = 0;   // pixels of a 1-D image buffer
    cl_uint imagePitchAlignment = 0; // pixels; 2-D images from buffers
    bool image2dFromBuffer = false;  // cl_khr_image2d_from_buffer is offered
};

class Device : public ApiObject<_cl_device_id, Kind::Device> {
public:
    // nullptr when no backend device could be wrapped (Backends::problem() says why).
    static Device* instance();
    const std::vector<Slot>& slots() const { return Backends::instance().slots(); }
    cl_int info(cl_device_info param, size_t size, void* value, size_t* sizeRet);
    cl_device_type type() const;
    const DeviceLimits& limits() const { return limits_; }
    cl_uint versionMajor() const { return versionMajor_; }
    cl_uint versionMinor() const { return versionMinor_; }

private:
    Device();
    cl_uint versionMajor_ = 1, versionMinor_ = 2;
    DeviceLimits limits_;
};

// Validation of a cl_device_id argument: our one device.
inline bool isOurDevice(cl_device_id d) { return d != nullptr && Device::instance() && d == Device::instance()->handle(); }

}  // namespace hetero
