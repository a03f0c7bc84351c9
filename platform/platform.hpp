// The Hetero platform and its one virtual device (both live for the whole process).
#pragma once

#include "devices/backend.hpp"
#include "platform/object.hpp"

#include <string>
#include <vector>

namespace hetero {

class Platform : public ApiObject<_cl_platform_id, Kind::Platform> {
public:
    static Platform& instance();
    cl_int info(cl_platform_info param, size_t size, void* value, size_t* sizeRet);
};

class Device : public ApiObject<_cl_device_id, Kind::Device> {
public:
    // nullptr when no backend device could be wrapped (Backends::problem() says why).
    static Device* instance();
    const std::vector<Slot>& slots() const { return Backends::instance().slots(); }
    cl_int info(cl_device_info param, size_t size, void* value, size_t* sizeRet);
    cl_device_type type() const;
    cl_uint versionMajor() const { return versionMajor_; }
    cl_uint versionMinor() const { return versionMinor_; }

private:
    Device();
    cl_uint versionMajor_ = 1, versionMinor_ = 2;
};

// Validation of a cl_device_id argument: our one device.
inline bool isOurDevice(cl_device_id d) { return d != nullptr && Device::instance() && d == Device::instance()->handle(); }

}  // namespace hetero
