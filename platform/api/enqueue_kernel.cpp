// clEnqueueNDRangeKernel / clEnqueueTask: validation, then the launch policy decides where and how
// it runs (platform/split/launch.cpp).
#include "platform/api/api.hpp"
#include "platform/api/enqueue.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/launch.hpp"
#include "platform/split/thread_end.hpp"

using namespace hetero;

namespace {

using Launch = LaunchGeometry;  // empty: a zero global size, nothing runs (OpenCL 2.1+)

Launch validateLaunch(Kernel& kernel, cl_uint dims, const size_t* offset, const size_t* global, const size_t* local) {
    Launch l;
    require(dims >= 1 && dims <= 3, CL_INVALID_WORK_DIMENSION);
    // A NULL global size or a zero in it: from OpenCL 2.1 on the launch succeeds and does nothing
    // (after its wait list); before, CL_INVALID_GLOBAL_WORK_SIZE.
    const Device& device = *Device::instance();
    const bool emptyAllowed = device.versionMajor() * 10 + device.versionMinor() >= 21;
    static const size_t zeros[3] = {0, 0, 0};
    if (global == nullptr) {
        require(emptyAllowed, CL_INVALID_GLOBAL_WORK_SIZE);
        global = zeros;
    }
    l.dims = dims;
    l.hasOffset = offset != nullptr;
    l.hasLocal = local != nullptr;
    const DeviceLimits& limits = device.limits();
    const size_t* maxItems = limits.maxWorkItemSizes;
    const size_t maxGroup = limits.maxWorkGroupSize, kernelMax = kernel.maxWorkGroupSize();
    const cl_bool nonUniform = limits.nonUniformWorkGroups;
    size_t product = 1;
    for (cl_uint d = 0; d < dims; ++d) {
        l.global[d] = global[d];
        if (global[d] == 0) {
            require(emptyAllowed, CL_INVALID_GLOBAL_WORK_SIZE);
            l.empty = true;
        }
        if (offset) {
            l.offset[d] = offset[d];
            require(global[d] <= SIZE_MAX - offset[d], CL_INVALID_GLOBAL_OFFSET);
        }
        if (local) {
            require(local[d] > 0, CL_INVALID_WORK_GROUP_SIZE);
            require(local[d] <= maxItems[d], CL_INVALID_WORK_ITEM_SIZE);
            require(nonUniform || global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
            l.local[d] = local[d];
            product *= local[d];
        }
    }
    if (local) require(product <= maxGroup && (kernelMax == 0 || product <= kernelMax), CL_INVALID_WORK_GROUP_SIZE);
    // reqd_work_group_size(X, Y, Z): the launch must name exactly that local size.
    const size_t* required = kernel.requiredLocalSize();
    if (required[0] != 0) {
        require(local != nullptr, CL_INVALID_WORK_GROUP_SIZE);
        for (cl_uint d = 0; d < 3; ++d) {
            size_t given = d < dims ? l.local[d] : 1;  // dimensions beyond work_dim have size 1
            require(given == required[d], CL_INVALID_WORK_GROUP_SIZE);
        }
    }
    return l;
}

}  // namespace

// Both launch entry points; `type` is what the event reports (CL_COMMAND_TASK for clEnqueueTask).
static cl_int enqueueKernel(cl_command_type type, cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                            const size_t* global_work_offset, const size_t* global_work_size,
                            const size_t* local_work_size, cl_uint num_events_in_wait_list,
                            const cl_event* event_wait_list, cl_event* event) {
    holdThreadEnd();  // a launch may start a build of its kernel's split variants
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto k = fromHandle<Kernel>(kernel);
        require(k != nullptr, CL_INVALID_KERNEL);
        require(k->context() == queue->context(), CL_INVALID_CONTEXT);
        Launch launch = validateLaunch(*k, work_dim, global_work_offset, global_work_size, local_work_size);
        k->requireArgsSet();
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Event> ev = launchKernel(type, *queue, *k, launch, std::move(deps), event != nullptr);
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t* global_work_offset, const size_t* global_work_size,
                                          const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event) {
    return enqueueKernel(CL_COMMAND_NDRANGE_KERNEL, command_queue, kernel, work_dim, global_work_offset, global_work_size,
                         local_work_size, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event* event) {
    size_t one = 1;
    return enqueueKernel(CL_COMMAND_TASK, command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                         event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                                         void* args, size_t cb_args, cl_uint num_mem_objects, const cl_mem* mem_list,
                                         const void** args_mem_loc, cl_uint num_events_in_wait_list,
                                         const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        queueOf(command_queue);
        return CL_INVALID_OPERATION;  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL
    });
}
