// Backend objects through the devices layer: contexts, queues, memory, samplers, programs, kernels
// and device answers, made and asked by name instead of through BACKEND() (backend_call.hpp).
//
// Creation returns an owner (empty when the backend refused) and the backend's error in `*err`
// when asked for: callers decide which error the application sees. Queries and builds return the
// backend's cl_int: the API layer passes some of them on (a build's CL_BUILD_PROGRAM_FAILURE) and
// ignores others. Nothing here throws.
#pragma once

#include "devices/backend_call.hpp"

#include <string>
#include <vector>

namespace hetero::backend {

// Gives up a reference held outside an owner (a pool's or registry's entry, a C callback's).
template <class Handle>
void release(Handle h) {
    Refcount<Handle>::release(h);
}

// Contexts and queues.
// A context of `device` alone, on `platform`.
Context context(cl_platform_id platform, cl_device_id device, cl_int* err = nullptr);
Queue queue(cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int* err = nullptr);

// Memory.
Buffer buffer(cl_context context, cl_mem_flags flags, size_t bytes, void* hostPtr, cl_int* err = nullptr);
Buffer image(cl_context context, cl_mem_flags flags, const cl_image_format& format, const cl_image_desc& desc,
             void* hostPtr, cl_int* err = nullptr);
// Has the backend call `callback(mem, data)` once it frees `mem` (on a thread of its own: `data`
// must outlive the memory object, which is why this is no owner's business).
inline cl_int whenFreed(cl_mem mem, void(CL_CALLBACK* callback)(cl_mem, void*), void* data) {
    return BACKEND(mem, clSetMemObjectDestructorCallback)(mem, callback, data);
}
// Views of a buffer's memory (a sub-buffer, an image made from a buffer), made alone where the
// backends' views are locked (view_lock.hpp). Raw: a view goes through BackendViews
// (platform/memory/backend_views.hpp) and releaseView(), in an order an owner cannot keep.
cl_mem subBuffer(cl_mem root, cl_mem_flags flags, const cl_buffer_region& region, cl_int* err);
cl_mem imageView(cl_context context, cl_mem_flags flags, const cl_image_format& format, const cl_image_desc& desc,
                 cl_int* err);
// The image formats the context supports for `flags` and `type`; the backend's error, if it could not say.
cl_int supportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                             std::vector<cl_image_format>& out);

// Samplers.
Sampler sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter,
                cl_int* err = nullptr);

// Programs, for one device each.
Program programFromSource(cl_context context, const char* source, cl_int* err = nullptr);
inline Program programFromSource(cl_context context, const std::string& source, cl_int* err = nullptr) {
    return programFromSource(context, source.c_str(), err);
}
// The backend's binary status is not asked for: a binary it cannot load fails here or at the build.
Program programFromBinary(cl_context context, cl_device_id device, const unsigned char* binary, size_t size,
                          cl_int* err = nullptr);
cl_int build(cl_program program, cl_device_id device, const char* options);
// `headers` and `headerNames` pair up (clCompileProgram's input headers).
cl_int compile(cl_program program, cl_device_id device, const char* options, const std::vector<cl_program>& headers,
               const std::vector<const char*>& headerNames);
// May return a program together with an error (a link that failed but made a program, as specified).
Program link(cl_context context, cl_device_id device, const char* options, const std::vector<cl_program>& inputs,
             cl_int* err = nullptr);

template <class T>
cl_int programInfo(cl_program program, cl_program_info param, T& out) {
    return BACKEND(program, clGetProgramInfo)(program, param, sizeof out, &out, nullptr);
}
template <class T>
cl_int programBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param, T& out) {
    return BACKEND(program, clGetProgramBuildInfo)(program, device, param, sizeof out, &out, nullptr);
}
// String answers without their terminating NULs; empty when the backend has none or cannot say.
std::string programInfoString(cl_program program, cl_program_info param);
std::string programBuildInfoString(cl_program program, cl_device_id device, cl_program_build_info param);
inline std::string programBuildLog(cl_program program, cl_device_id device) {
    return programBuildInfoString(program, device, CL_PROGRAM_BUILD_LOG);
}
// The program's binary for its one device (empty when it has none).
std::vector<unsigned char> programBinary(cl_program program);
// The context the program belongs to (null when the backend does not say).
inline cl_context programContext(cl_program program) {
    cl_context c = nullptr;
    BACKEND(program, clGetProgramInfo)(program, CL_PROGRAM_CONTEXT, sizeof c, &c, nullptr);
    return c;
}

// Kernels.
Kernel kernel(cl_program program, const char* name, cl_int* err = nullptr);
inline Kernel kernel(cl_program program, const std::string& name, cl_int* err = nullptr) {
    return kernel(program, name.c_str(), err);
}
Kernel cloneKernel(cl_kernel source, cl_int* err = nullptr);
// On every launch's path: one backend call, nothing else.
inline cl_int setArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
    return BACKEND(kernel, clSetKernelArg)(kernel, index, size, value);
}
template <class T>
cl_int setArg(cl_kernel kernel, cl_uint index, const T& value) {
    return setArg(kernel, index, sizeof value, &value);
}
template <class T>
cl_int kernelInfo(cl_kernel kernel, cl_kernel_info param, T& out) {
    return BACKEND(kernel, clGetKernelInfo)(kernel, param, sizeof out, &out, nullptr);
}
std::string kernelInfoString(cl_kernel kernel, cl_kernel_info param);
// `out` may be an array (CL_KERNEL_COMPILE_WORK_GROUP_SIZE: size_t[3]).
template <class T>
cl_int kernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param, T& out) {
    return BACKEND(kernel, clGetKernelWorkGroupInfo)(kernel, device, param, sizeof out, &out, nullptr);
}
template <class T>
cl_int kernelArgInfo(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, T& out) {
    return BACKEND(kernel, clGetKernelArgInfo)(kernel, index, param, sizeof out, &out, nullptr);
}
// The answer's bytes, whatever their type; the backend's error if it could not say how many.
cl_int kernelArgInfoBytes(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, std::vector<unsigned char>& out);

// Devices.
// True when the backend answered (else `out` is as it was).
template <class T>
bool deviceInfo(cl_device_id device, cl_device_info param, T& out) {
    return BACKEND(device, clGetDeviceInfo)(device, param, sizeof out, &out, nullptr) == CL_SUCCESS;
}
// The answer, or T{} when the backend has none.
template <class T>
T deviceInfo(cl_device_id device, cl_device_info param) {
    T out{};
    deviceInfo(device, param, out);
    return out;
}
// The answer's bytes; empty when the backend cannot say.
std::vector<unsigned char> deviceInfoBytes(cl_device_id device, cl_device_info param);
// Without terminating NULs; empty when the backend cannot say.
std::string deviceInfoString(cl_device_id device, cl_device_info param);
std::string platformInfoString(cl_platform_id platform, cl_platform_info param);

}  // namespace hetero::backend
