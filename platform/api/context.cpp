// OpenCL entry points for contexts: validate, translate handles, hand off to objects/context.hpp.
#include "platform/objects/context.hpp"

#include "platform/api/api.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include <CL/cl_ext_hetero.h>

using namespace hetero;

cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                       const cl_device_id* devices, Context::Notify pfn_notify, void* user_data,
                                       cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_context {
        require(devices != nullptr && num_devices > 0, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(devices[i]), CL_INVALID_DEVICE);
        return Context::create(properties, pfn_notify, user_data)->handle();
    });
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties, cl_device_type device_type,
                                               Context::Notify pfn_notify, void* user_data, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_context {
        cl_device_id d = nullptr;
        cl_int err = clGetDeviceIDs(nullptr, device_type, 1, &d, nullptr);
        require(err != CL_INVALID_DEVICE_TYPE, CL_INVALID_DEVICE_TYPE);
        require(err == CL_SUCCESS, CL_DEVICE_NOT_FOUND);
        return Context::create(properties, pfn_notify, user_data)->handle();
    });
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
    auto c = fromHandle<Context>(context);
    if (!c) return CL_INVALID_CONTEXT;
    c->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
    auto c = fromHandle<Context>(context);
    if (!c) return CL_INVALID_CONTEXT;
    return c->releaseReference() ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        return c->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context, Context::Destructor pfn_notify, void* user_data) {
    return guarded([&] {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        c->addDestructor(pfn_notify, user_data);
        return CL_SUCCESS;
    });
}
