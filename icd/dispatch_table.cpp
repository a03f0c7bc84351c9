// Hetero's dispatch table: every handle Hetero hands out points here, and the ICD loader calls
// through it. Entries with no meaning on Linux (Direct3D sharing) stay null.
#include "platform/api/api.hpp"
#include "platform/support/object.hpp"

#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

// Declared here because no public header declares them with these exact names.
extern "C" {
cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t, const void*,
                                              size_t, void*, size_t*);
}

namespace hetero {
namespace {
cl_icd_dispatch makeTable() {
    cl_icd_dispatch t{};
    t.clGetPlatformIDs = &clGetPlatformIDs;
    t.clGetPlatformInfo = &clGetPlatformInfo;
    t.clGetDeviceIDs = &clGetDeviceIDs;
    t.clGetDeviceInfo = &clGetDeviceInfo;
    t.clCreateContext = &clCreateContext;
    t.clCreateContextFromType = &clCreateContextFromType;
    t.clRetainContext = &clRetainContext;
    t.clReleaseContext = &clReleaseContext;
    t.clGetContextInfo = &clGetContextInfo;
    t.clCreateCommandQueue = &clCreateCommandQueue;
    t.clRetainCommandQueue = &clRetainCommandQueue;
    t.clReleaseCommandQueue = &clReleaseCommandQueue;
    t.clGetCommandQueueInfo = &clGetCommandQueueInfo;
    t.clSetCommandQueueProperty = &clSetCommandQueueProperty;
    t.clCreateBuffer = &clCreateBuffer;
    t.clCreateImage2D = &clCreateImage2D;
    t.clCreateImage3D = &clCreateImage3D;
    t.clRetainMemObject = &clRetainMemObject;
    t.clReleaseMemObject = &clReleaseMemObject;
    t.clGetSupportedImageFormats = &clGetSupportedImageFormats;
    t.clGetMemObjectInfo = &clGetMemObjectInfo;
    t.clGetImageInfo = &clGetImageInfo;
    t.clCreateSampler = &clCreateSampler;
    t.clRetainSampler = &clRetainSampler;
    t.clReleaseSampler = &clReleaseSampler;
    t.clGetSamplerInfo = &clGetSamplerInfo;
    t.clCreateProgramWithSource = &clCreateProgramWithSource;
    t.clCreateProgramWithBinary = &clCreateProgramWithBinary;
    t.clRetainProgram = &clRetainProgram;
    t.clReleaseProgram = &clReleaseProgram;
    t.clBuildProgram = &clBuildProgram;
    t.clUnloadCompiler = &clUnloadCompiler;
    t.clGetProgramInfo = &clGetProgramInfo;
    t.clGetProgramBuildInfo = &clGetProgramBuildInfo;
    t.clCreateKernel = &clCreateKernel;
    t.clCreateKernelsInProgram = &clCreateKernelsInProgram;
    t.clRetainKernel = &clRetainKernel;
    t.clReleaseKernel = &clReleaseKernel;
    t.clSetKernelArg = &clSetKernelArg;
    t.clGetKernelInfo = &clGetKernelInfo;
    t.clGetKernelWorkGroupInfo = &clGetKernelWorkGroupInfo;
    t.clWaitForEvents = &clWaitForEvents;
    t.clGetEventInfo = &clGetEventInfo;
    t.clRetainEvent = &clRetainEvent;
    t.clReleaseEvent = &clReleaseEvent;
    t.clGetEventProfilingInfo = &clGetEventProfilingInfo;
    t.clFlush = &clFlush;
    t.clFinish = &clFinish;
    t.clEnqueueReadBuffer = &clEnqueueReadBuffer;
    t.clEnqueueWriteBuffer = &clEnqueueWriteBuffer;
    t.clEnqueueCopyBuffer = &clEnqueueCopyBuffer;
    t.clEnqueueReadImage = &clEnqueueReadImage;
    t.clEnqueueWriteImage = &clEnqueueWriteImage;
    t.clEnqueueCopyImage = &clEnqueueCopyImage;
    t.clEnqueueCopyImageToBuffer = &clEnqueueCopyImageToBuffer;
    t.clEnqueueCopyBufferToImage = &clEnqueueCopyBufferToImage;
    t.clEnqueueMapBuffer = &clEnqueueMapBuffer;
    t.clEnqueueMapImage = &clEnqueueMapImage;
    t.clEnqueueUnmapMemObject = &clEnqueueUnmapMemObject;
    t.clEnqueueNDRangeKernel = &clEnqueueNDRangeKernel;
    t.clEnqueueTask = &clEnqueueTask;
    t.clEnqueueNativeKernel = &clEnqueueNativeKernel;
    t.clEnqueueMarker = &clEnqueueMarker;
    t.clEnqueueWaitForEvents = &clEnqueueWaitForEvents;
    t.clEnqueueBarrier = &clEnqueueBarrier;
    t.clGetExtensionFunctionAddress = &clGetExtensionFunctionAddress;
    t.clCreateFromGLBuffer = &clCreateFromGLBuffer;
    t.clCreateFromGLTexture2D = &clCreateFromGLTexture2D;
    t.clCreateFromGLTexture3D = &clCreateFromGLTexture3D;
    t.clCreateFromGLRenderbuffer = &clCreateFromGLRenderbuffer;
    t.clGetGLObjectInfo = &clGetGLObjectInfo;
    t.clGetGLTextureInfo = &clGetGLTextureInfo;
    t.clEnqueueAcquireGLObjects = &clEnqueueAcquireGLObjects;
    t.clEnqueueReleaseGLObjects = &clEnqueueReleaseGLObjects;
    t.clGetGLContextInfoKHR = &clGetGLContextInfoKHR;
    t.clSetEventCallback = &clSetEventCallback;
    t.clCreateSubBuffer = &clCreateSubBuffer;
    t.clSetMemObjectDestructorCallback = &clSetMemObjectDestructorCallback;
    t.clCreateUserEvent = &clCreateUserEvent;
    t.clSetUserEventStatus = &clSetUserEventStatus;
    t.clEnqueueReadBufferRect = &clEnqueueReadBufferRect;
    t.clEnqueueWriteBufferRect = &clEnqueueWriteBufferRect;
    t.clEnqueueCopyBufferRect = &clEnqueueCopyBufferRect;
    t.clCreateSubDevicesEXT = &clCreateSubDevicesEXT;
    t.clRetainDeviceEXT = &clRetainDeviceEXT;
    t.clReleaseDeviceEXT = &clReleaseDeviceEXT;
    t.clCreateEventFromGLsyncKHR = &clCreateEventFromGLsyncKHR;
    t.clCreateSubDevices = &clCreateSubDevices;
    t.clRetainDevice = &clRetainDevice;
    t.clReleaseDevice = &clReleaseDevice;
    t.clCreateImage = &clCreateImage;
    t.clCreateProgramWithBuiltInKernels = &clCreateProgramWithBuiltInKernels;
    t.clCompileProgram = &clCompileProgram;
    t.clLinkProgram = &clLinkProgram;
    t.clUnloadPlatformCompiler = &clUnloadPlatformCompiler;
    t.clGetKernelArgInfo = &clGetKernelArgInfo;
    t.clEnqueueFillBuffer = &clEnqueueFillBuffer;
    t.clEnqueueFillImage = &clEnqueueFillImage;
    t.clEnqueueMigrateMemObjects = &clEnqueueMigrateMemObjects;
    t.clEnqueueMarkerWithWaitList = &clEnqueueMarkerWithWaitList;
    t.clEnqueueBarrierWithWaitList = &clEnqueueBarrierWithWaitList;
    t.clGetExtensionFunctionAddressForPlatform = &clGetExtensionFunctionAddressForPlatform;
    t.clCreateFromGLTexture = &clCreateFromGLTexture;
    t.clCreateFromEGLImageKHR = &clCreateFromEGLImageKHR;
    t.clEnqueueAcquireEGLObjectsKHR = &clEnqueueAcquireEGLObjectsKHR;
    t.clEnqueueReleaseEGLObjectsKHR = &clEnqueueReleaseEGLObjectsKHR;
    t.clCreateEventFromEGLSyncKHR = &clCreateEventFromEGLSyncKHR;
    t.clCreateCommandQueueWithProperties = &clCreateCommandQueueWithProperties;
    t.clCreatePipe = &clCreatePipe;
    t.clGetPipeInfo = &clGetPipeInfo;
    t.clSVMAlloc = &clSVMAlloc;
    t.clSVMFree = &clSVMFree;
    t.clEnqueueSVMFree = &clEnqueueSVMFree;
    t.clEnqueueSVMMemcpy = &clEnqueueSVMMemcpy;
    t.clEnqueueSVMMemFill = &clEnqueueSVMMemFill;
    t.clEnqueueSVMMap = &clEnqueueSVMMap;
    t.clEnqueueSVMUnmap = &clEnqueueSVMUnmap;
    t.clCreateSamplerWithProperties = &clCreateSamplerWithProperties;
    t.clSetKernelArgSVMPointer = &clSetKernelArgSVMPointer;
    t.clSetKernelExecInfo = &clSetKernelExecInfo;
    t.clGetKernelSubGroupInfoKHR = &clGetKernelSubGroupInfoKHR;
    t.clCloneKernel = &clCloneKernel;
    t.clCreateProgramWithIL = &clCreateProgramWithIL;
    t.clEnqueueSVMMigrateMem = &clEnqueueSVMMigrateMem;
    t.clGetDeviceAndHostTimer = &clGetDeviceAndHostTimer;
    t.clGetHostTimer = &clGetHostTimer;
    t.clGetKernelSubGroupInfo = &clGetKernelSubGroupInfo;
    t.clSetDefaultDeviceCommandQueue = &clSetDefaultDeviceCommandQueue;
    t.clSetProgramReleaseCallback = &clSetProgramReleaseCallback;
    t.clSetProgramSpecializationConstant = &clSetProgramSpecializationConstant;
    t.clCreateBufferWithProperties = &clCreateBufferWithProperties;
    t.clCreateImageWithProperties = &clCreateImageWithProperties;
    t.clSetContextDestructorCallback = &clSetContextDestructorCallback;
    return t;
}
}  // namespace

const cl_icd_dispatch& dispatchTable() {
    static const cl_icd_dispatch table = makeTable();
    return table;
}
}  // namespace hetero
