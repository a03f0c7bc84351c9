// Invalid handles: NULL, objects of another platform, released objects and objects of the wrong kind
// or of another context must be answered with the specification's error, never a crash. Also the
// optional 2.x/3.0 features Hetero does not offer, which answer as a 3.0 device without them does.
#include "cl_test.hpp"

#include <CL/cl_gl.h>

#include <vector>

namespace {

// A handle of "another platform": its first member is a dispatch pointer, but not Hetero's.
// Used only where the loader does not dispatch on it (so the table is never read).
struct ForeignObject {
    const void* dispatch;
    void* padding[8];
};
const void* const otherTable[128] = {};

// A handle the loader routes to Hetero (it carries Hetero's dispatch table), yet is no object
// Hetero made: stands for an object of a second instance of a platform that shares the table.
struct Impostor {
    const void* dispatch;
    void* padding[8];
};

template <class Handle>
Handle foreign(ForeignObject& storage) {
    storage.dispatch = otherTable;
    return reinterpret_cast<Handle>(&storage);
}

template <class Handle>
Handle impostorOf(Impostor& storage, const void* anyHeteroHandle) {
    storage.dispatch = *static_cast<const void* const*>(anyHeteroHandle);
    return reinterpret_cast<Handle>(&storage);
}

const char* kKernelSource = "__kernel void k(__global int* d) { d[get_global_id(0)] = 1; }";

}  // namespace

TEST_CASE("api: handles routed to Hetero that it never made are refused", "[api][errors]") {
    cltest::Env env;
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    Impostor storage[9];
    auto ctx = impostorOf<cl_context>(storage[0], env.context);
    auto queue = impostorOf<cl_command_queue>(storage[1], env.queue);
    auto mem = impostorOf<cl_mem>(storage[2], buffer);
    auto program = impostorOf<cl_program>(storage[3], env.context);
    auto kernel = impostorOf<cl_kernel>(storage[4], env.context);
    auto event = impostorOf<cl_event>(storage[5], env.context);
    auto sampler = impostorOf<cl_sampler>(storage[6], env.context);
    auto device = impostorOf<cl_device_id>(storage[7], env.device);
    cl_uint v = 0;
    cl_int err = CL_SUCCESS;

    CHECK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, nullptr) == CL_INVALID_CONTEXT);
    CHECK(clRetainContext(ctx) == CL_INVALID_CONTEXT);
    CHECK(clReleaseContext(ctx) == CL_INVALID_CONTEXT);
    CHECK(clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK(clCreateUserEvent(ctx, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK(clCreateProgramWithSource(ctx, 1, &kKernelSource, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);

    CHECK(clGetCommandQueueInfo(queue, CL_QUEUE_REFERENCE_COUNT, sizeof v, &v, nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clFlush(queue) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clFinish(queue) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clReleaseCommandQueue(queue) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, nullptr) == CL_INVALID_COMMAND_QUEUE);

    CHECK(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof v, &v, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clRetainMemObject(mem) == CL_INVALID_MEM_OBJECT);
    CHECK(clReleaseMemObject(mem) == CL_INVALID_MEM_OBJECT);
    cl_buffer_region region{0, 16};
    CHECK(clCreateSubBuffer(mem, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err) == nullptr);
    CHECK(err == CL_INVALID_MEM_OBJECT);

    CHECK(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof v, &v, nullptr) == CL_INVALID_PROGRAM);
    CHECK(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_PROGRAM);
    CHECK(clCreateKernel(program, "k", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM);
    CHECK(clReleaseProgram(program) == CL_INVALID_PROGRAM);

    CHECK(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof v, &v, nullptr) == CL_INVALID_KERNEL);
    CHECK(clSetKernelArg(kernel, 0, sizeof v, &v) == CL_INVALID_KERNEL);
    CHECK(clReleaseKernel(kernel) == CL_INVALID_KERNEL);

    CHECK(clGetEventInfo(event, CL_EVENT_REFERENCE_COUNT, sizeof v, &v, nullptr) == CL_INVALID_EVENT);
    CHECK(clWaitForEvents(1, &event) == CL_INVALID_EVENT);
    CHECK(clSetUserEventStatus(event, CL_COMPLETE) == CL_INVALID_EVENT);
    CHECK(clReleaseEvent(event) == CL_INVALID_EVENT);

    CHECK(clGetSamplerInfo(sampler, CL_SAMPLER_REFERENCE_COUNT, sizeof v, &v, nullptr) == CL_INVALID_SAMPLER);
    CHECK(clReleaseSampler(sampler) == CL_INVALID_SAMPLER);

    CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof v, &v, nullptr) == CL_INVALID_DEVICE);
    CHECK(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE);
    clReleaseMemObject(buffer);
}

TEST_CASE("api: Hetero handles of the wrong kind are refused", "[api][errors]") {
    cltest::Env env;
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_uint v = 0;
    cl_int err = CL_SUCCESS;
    // Each of these is a live Hetero object, just not of the kind the call takes.
    CHECK(clGetContextInfo(reinterpret_cast<cl_context>(env.queue), CL_CONTEXT_REFERENCE_COUNT, sizeof v, &v, nullptr) ==
          CL_INVALID_CONTEXT);
    CHECK(clCreateBuffer(reinterpret_cast<cl_context>(buffer), CL_MEM_READ_WRITE, 64, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK(clFinish(reinterpret_cast<cl_command_queue>(env.context)) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clGetMemObjectInfo(reinterpret_cast<cl_mem>(env.queue), CL_MEM_SIZE, sizeof v, &v, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueReadBuffer(env.queue, reinterpret_cast<cl_mem>(env.context), CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    cl_event notAnEvent = reinterpret_cast<cl_event>(buffer);
    CHECK(clEnqueueMarkerWithWaitList(env.queue, 1, &notAnEvent, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
    CHECK(clGetDeviceInfo(reinterpret_cast<cl_device_id>(env.context), CL_DEVICE_TYPE, sizeof v, &v, nullptr) ==
          CL_INVALID_DEVICE);
    CHECK(clGetPlatformInfo(reinterpret_cast<cl_platform_id>(env.context), CL_PLATFORM_NAME, sizeof v, &v, nullptr) ==
          CL_INVALID_PLATFORM);
    clReleaseMemObject(buffer);
}

TEST_CASE("api: objects of another platform in argument positions are refused", "[api][errors]") {
    cltest::Env env;
    cl_program program = env.build(kKernelSource);
    cl_kernel kernel = env.kernel(program, "k");
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    ForeignObject storage[5];
    auto mem = foreign<cl_mem>(storage[0]);
    auto device = foreign<cl_device_id>(storage[1]);
    auto event = foreign<cl_event>(storage[2]);
    auto kernelHandle = foreign<cl_kernel>(storage[3]);
    auto platform = foreign<cl_platform_id>(storage[4]);
    cl_int v = 0, err = CL_SUCCESS;

    CHECK(clEnqueueReadBuffer(env.queue, mem, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBuffer(env.queue, buffer, mem, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBuffer(env.queue, mem, buffer, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueUnmapMemObject(env.queue, mem, &v, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueMigrateMemObjects(env.queue, 1, &mem, 0, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueMarkerWithWaitList(env.queue, 1, &event, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
    size_t global = 1;
    CHECK(clEnqueueNDRangeKernel(env.queue, kernelHandle, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_KERNEL);
    CHECK(clCreateCommandQueueWithProperties(env.context, device, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE);
    CHECK(clBuildProgram(program, 1, &device, nullptr, nullptr, nullptr) == CL_INVALID_DEVICE);
    cl_build_status status = 0;
    CHECK(clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr) ==
          CL_INVALID_DEVICE);
    size_t size = 0;
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof size, &size, nullptr) ==
          CL_INVALID_DEVICE);
    cl_device_id twoDevices[] = {env.device, device};
    CHECK(clCreateContext(nullptr, 2, twoDevices, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
    CHECK(clCreateContext(props, 1, &env.device, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PLATFORM);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

TEST_CASE("api: NULL handles are refused", "[api][errors]") {
    cltest::Env env;
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int v = 0, err = CL_SUCCESS;
    CHECK(clEnqueueReadBuffer(env.queue, nullptr, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBuffer(env.queue, buffer, nullptr, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    size_t global = 1;
    CHECK(clEnqueueNDRangeKernel(env.queue, nullptr, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_KERNEL);
    CHECK(clCreateCommandQueueWithProperties(env.context, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE);
    CHECK(clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &global, &err) == nullptr);
    CHECK(err == CL_INVALID_MEM_OBJECT);
    CHECK(clGetContextInfo(nullptr, CL_CONTEXT_NUM_DEVICES, sizeof v, &v, nullptr) == CL_INVALID_CONTEXT);
    CHECK(clFinish(nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clReleaseEvent(nullptr) == CL_INVALID_EVENT);
    CHECK(clReleaseMemObject(nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 4, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    CHECK(clGetDeviceInfo(nullptr, CL_DEVICE_TYPE, sizeof v, &v, nullptr) == CL_INVALID_DEVICE);
    cl_event none = nullptr;
    CHECK(clWaitForEvents(1, &none) == CL_INVALID_EVENT);
    clReleaseMemObject(buffer);
}

TEST_CASE("api: released objects are refused where the loader does not dispatch on them", "[api][errors]") {
    cltest::Env env;
    cl_program program = env.build(kKernelSource);
    cl_mem live = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int v = 0, err = CL_SUCCESS;

    cl_mem released = env.buffer(CL_MEM_READ_WRITE, 64);
    REQUIRE(clReleaseMemObject(released) == CL_SUCCESS);
    CHECK(clEnqueueReadBuffer(env.queue, released, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyBuffer(env.queue, live, released, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);

    cl_event done = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clReleaseEvent(done) == CL_SUCCESS);
    CHECK(clEnqueueWriteBuffer(env.queue, live, CL_TRUE, 0, 4, &v, 1, &done, nullptr) == CL_INVALID_EVENT_WAIT_LIST);

    cl_kernel gone = env.kernel(program, "k");
    REQUIRE(clReleaseKernel(gone) == CL_SUCCESS);
    size_t global = 1;
    CHECK(clEnqueueNDRangeKernel(env.queue, gone, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_KERNEL);

    cl_program releasedProgram = env.build(kKernelSource);
    REQUIRE(clReleaseProgram(releasedProgram) == CL_SUCCESS);
    cl_program inputs[] = {program, releasedProgram};
    CHECK(clLinkProgram(env.context, 0, nullptr, nullptr, 2, inputs, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM);

    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(live);
    clReleaseProgram(program);
}

TEST_CASE("api: objects of another context are refused", "[api][errors]") {
    cltest::Env env, other;
    cl_mem otherBuffer = other.buffer(CL_MEM_READ_WRITE, 64);
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_program otherProgram = other.build(kKernelSource);
    cl_kernel otherKernel = other.kernel(otherProgram, "k");
    cl_int v = 0;
    CHECK(clEnqueueReadBuffer(env.queue, otherBuffer, CL_TRUE, 0, 4, &v, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
    CHECK(clEnqueueCopyBuffer(env.queue, buffer, otherBuffer, 0, 0, 4, 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
    size_t global = 1;
    cltest::setArg(otherKernel, 0, otherBuffer);
    CHECK(clEnqueueNDRangeKernel(env.queue, otherKernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_CONTEXT);
    cl_program header = nullptr;
    {
        const char* text = "int x;";
        cl_int err = CL_SUCCESS;
        header = clCreateProgramWithSource(other.context, 1, &text, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
    }
    const char* source = "#include \"x.h\"\n__kernel void k() {}";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(env.context, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const char* names[] = {"x.h"};
    CHECK(clCompileProgram(p, 0, nullptr, nullptr, 1, &header, names, nullptr, nullptr) == CL_INVALID_CONTEXT);
    clReleaseProgram(p);
    clReleaseProgram(header);
    clReleaseKernel(otherKernel);
    clReleaseProgram(otherProgram);
    clReleaseMemObject(buffer);
    clReleaseMemObject(otherBuffer);
}

TEST_CASE("api: info queries follow the size rules for every object kind", "[api][errors]") {
    cltest::Env env;
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_uint value = 0;
    size_t n = 0;
    // A value buffer with size 0 is an error; a NULL buffer with a size is a size query.
    CHECK(clGetContextInfo(env.context, CL_CONTEXT_REFERENCE_COUNT, 0, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetCommandQueueInfo(env.queue, CL_QUEUE_REFERENCE_COUNT, 0, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetMemObjectInfo(buffer, CL_MEM_REFERENCE_COUNT, 0, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetEventInfo(user, CL_EVENT_REFERENCE_COUNT, 0, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetDeviceInfo(env.device, CL_DEVICE_MAX_COMPUTE_UNITS, 0, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetContextInfo(env.context, CL_CONTEXT_REFERENCE_COUNT, 64, nullptr, &n) == CL_SUCCESS);
    CHECK(n == sizeof(cl_uint));
    CHECK(clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, 64, nullptr, &n) == CL_SUCCESS);
    CHECK(n == sizeof(cl_int));
    REQUIRE(clSetUserEventStatus(user, CL_COMPLETE) == CL_SUCCESS);
    clReleaseEvent(user);
    clReleaseMemObject(buffer);
}

TEST_CASE("api: SVM, pipes and other absent optional features answer as specified", "[api][errors]") {
    cltest::Env env;
    cl_program program = env.build(kKernelSource);
    cl_kernel kernel = env.kernel(program, "k");
    // No SVM: allocation returns NULL and every SVM command is an invalid operation.
    CHECK(clSVMAlloc(env.context, CL_MEM_READ_WRITE, 64, 0) == nullptr);
    clSVMFree(env.context, nullptr);
    int a = 0, b = 0;
    CHECK(clEnqueueSVMMemcpy(env.queue, CL_TRUE, &a, &b, sizeof a, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueSVMMemFill(env.queue, &a, &b, sizeof b, sizeof a, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueSVMMap(env.queue, CL_TRUE, CL_MAP_READ, &a, sizeof a, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueSVMUnmap(env.queue, &a, 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clSetKernelArgSVMPointer(kernel, 0, &a) == CL_INVALID_OPERATION);
    void* ptrs[] = {&a};
    CHECK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs) == CL_INVALID_OPERATION);
    // No pipes.
    cl_int err = CL_SUCCESS;
    CHECK(clCreatePipe(env.context, CL_MEM_READ_WRITE, 4, 16, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);
    // No sub-groups.
    size_t local = 1, subGroups = 0;
    CHECK(clGetKernelSubGroupInfo(kernel, env.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                  sizeof subGroups, &subGroups, nullptr) == CL_INVALID_OPERATION);
    // No GL sharing: the context was not created from a GL context.
    CHECK(clCreateFromGLBuffer(env.context, CL_MEM_READ_WRITE, 1, &err) == nullptr);
    CHECK(err == CL_INVALID_CONTEXT);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}
