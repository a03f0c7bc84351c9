// Optional OpenCL 2.x/3.0 features the virtual device does not offer (SVM, pipes) and window-system
// sharing: each answers with the error the specification gives a 3.0 device without the feature.
#include "platform/api/api.hpp"
#include "platform/objects/context.hpp"
#include "platform/engine/queue.hpp"

#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

using namespace hetero;

namespace {
cl_int contextOperation(cl_context context) {
    return fromHandle<Context>(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
}
cl_int queueOperation(cl_command_queue queue) {
    return fromHandle<Queue>(queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
template <class T>
T* failWith(cl_int* errcode_ret, cl_int code) {
    if (errcode_ret) *errcode_ret = code;
    return nullptr;
}
}  // namespace

// --- Shared virtual memory: CL_DEVICE_SVM_CAPABILITIES is 0. ---
void* CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }
void CL_API_CALL clSVMFree(cl_context, void*) {}
cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue q, cl_uint, void*[], void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*),
                                    void*, cl_uint, const cl_event*, cl_event*) { return queueOperation(q); }
cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue q, cl_bool, void*, const void*, size_t, cl_uint, const cl_event*,
                                      cl_event*) { return queueOperation(q); }
cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue q, void*, const void*, size_t, size_t, cl_uint, const cl_event*,
                                       cl_event*) { return queueOperation(q); }
cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue q, cl_bool, cl_map_flags, void*, size_t, cl_uint, const cl_event*,
                                   cl_event*) { return queueOperation(q); }
cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue q, void*, cl_uint, const cl_event*, cl_event*) { return queueOperation(q); }
cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue q, cl_uint, const void**, const size_t*, cl_mem_migration_flags,
                                          cl_uint, const cl_event*, cl_event*) { return queueOperation(q); }

// --- Pipes: CL_DEVICE_PIPE_SUPPORT is false. ---
cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties*,
                                cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, contextOperation(context));
}
cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info, size_t, void*, size_t*) { return CL_INVALID_MEM_OBJECT; }

// --- OpenGL / EGL sharing: no Hetero context is created from a GL or EGL context. ---
cl_mem CL_API_CALL clCreateFromGLBuffer(cl_context context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, fromHandle<Context>(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT);
}
cl_mem CL_API_CALL clCreateFromGLTexture(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_mem CL_API_CALL clCreateFromGLTexture2D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_mem CL_API_CALL clCreateFromGLTexture3D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_mem CL_API_CALL clCreateFromGLRenderbuffer(cl_context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_int CL_API_CALL clGetGLObjectInfo(cl_mem, cl_gl_object_type*, cl_GLuint*) { return CL_INVALID_GL_OBJECT; }
cl_int CL_API_CALL clGetGLTextureInfo(cl_mem, cl_gl_texture_info, size_t, void*, size_t*) { return CL_INVALID_GL_OBJECT; }
cl_int CL_API_CALL clEnqueueAcquireGLObjects(cl_command_queue q, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*) {
    return fromHandle<Queue>(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}
cl_int CL_API_CALL clEnqueueReleaseGLObjects(cl_command_queue q, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*) {
    return fromHandle<Queue>(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}
cl_int CL_API_CALL clGetGLContextInfoKHR(const cl_context_properties*, cl_gl_context_info, size_t, void*, size_t*) {
    return CL_INVALID_OPERATION;
}
cl_event CL_API_CALL clCreateEventFromGLsyncKHR(cl_context, cl_GLsync, cl_int* errcode_ret) {
    return failWith<_cl_event>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_mem CL_API_CALL clCreateFromEGLImageKHR(cl_context, CLeglDisplayKHR, CLeglImageKHR, cl_mem_flags,
                                           const cl_egl_image_properties_khr*, cl_int* errcode_ret) {
    return failWith<_cl_mem>(errcode_ret, CL_INVALID_CONTEXT);
}
cl_int CL_API_CALL clEnqueueAcquireEGLObjectsKHR(cl_command_queue q, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*) {
    return fromHandle<Queue>(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}
cl_int CL_API_CALL clEnqueueReleaseEGLObjectsKHR(cl_command_queue q, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*) {
    return fromHandle<Queue>(q) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}
cl_event CL_API_CALL clCreateEventFromEGLSyncKHR(cl_context, CLeglSyncKHR, CLeglDisplayKHR, cl_int* errcode_ret) {
    return failWith<_cl_event>(errcode_ret, CL_INVALID_CONTEXT);
}

// --- cl_ext_device_fission (the pre-1.2 form of sub-devices): no partitions. ---
cl_int CL_API_CALL clCreateSubDevicesEXT(cl_device_id in_device, const cl_device_partition_property_ext*, cl_uint,
                                         cl_device_id*, cl_uint*) {
    return isOurDevice(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}
cl_int CL_API_CALL clRetainDeviceEXT(cl_device_id device) { return isOurDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }
cl_int CL_API_CALL clReleaseDeviceEXT(cl_device_id device) { return isOurDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE; }

cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                                              size_t in_size, const void* in, size_t size, void* value, size_t* size_ret) {
    return clGetKernelSubGroupInfo(kernel, device, param, in_size, in, size, value, size_ret);
}
