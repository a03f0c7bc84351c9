// OpenCL entry points for command queues: validate, translate handles, hand off to engine/queue.hpp.
#include "platform/engine/queue.hpp"

#include "platform/api/api.hpp"
#include "platform/engine/scheduler.hpp"
#include "platform/observe/trace.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include <algorithm>
#include <atomic>

using namespace hetero;

namespace {
cl_command_queue createQueue(cl_context context, cl_device_id device, const cl_queue_properties* properties,
                             bool legacy, cl_command_queue_properties flags, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_command_queue {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        require(isOurDevice(device), CL_INVALID_DEVICE);
        return Queue::create(c, properties, legacy, flags)->handle();
    });
}
}  // namespace

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int* errcode_ret) {
    return createQueue(context, device, nullptr, true, properties, errcode_ret);
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                const cl_queue_properties* properties,
                                                                cl_int* errcode_ret) {
    return createQueue(context, device, properties, false, 0, errcode_ret);
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
    auto q = fromHandle<Queue>(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    q->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
    auto q = fromHandle<Queue>(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    q->flush();
    // Each pending command's event holds the queue until it completes: make sure every completion
    // is heard, so that the queue goes once its commands are done even if nobody asks about them.
    q->notifyOutstanding();
    return q->releaseReference() ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto q = fromHandle<Queue>(command_queue);
        require(q != nullptr, CL_INVALID_COMMAND_QUEUE);
        return q->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
    auto q = fromHandle<Queue>(command_queue);
    if (!q) return CL_INVALID_COMMAND_QUEUE;
    q->flush();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
    return guarded([&] {
        auto q = fromHandle<Queue>(command_queue);
        require(q != nullptr, CL_INVALID_COMMAND_QUEUE);
        return q->finish();
    });
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties properties,
                                             cl_bool enable, cl_command_queue_properties* old_properties) {
    auto q = fromHandle<Queue>(command_queue);
    return q ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;  // deprecated in 1.1; properties are fixed
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
    if (!fromHandle<Context>(context)) return CL_INVALID_CONTEXT;
    if (!isOurDevice(device)) return CL_INVALID_DEVICE;
    return CL_INVALID_OPERATION;  // no on-device queues
}
