// Small RAII layer over the OpenCL API as an application sees it (through the ICD loader).
#pragma once

#include <CL/cl.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace cltest {

// Throws std::runtime_error naming the call and the error code when err != CL_SUCCESS.
void check(cl_int err, const char* what);

template <typename T, cl_int (*Release)(T)>
class Handle {
public:
    Handle() = default;
    explicit Handle(T object) : object_(object) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : object_(other.object_) { other.object_ = nullptr; }
    Handle& operator=(Handle&& other) noexcept
    {
        std::swap(object_, other.object_);
        return *this;
    }
    ~Handle()
    {
        if (object_)
            Release(object_);
    }
    T get() const { return object_; }
    explicit operator bool() const { return object_ != nullptr; }

private:
    T object_ = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Mem = Handle<cl_mem, clReleaseMemObject>;

struct Device {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string platformName;
    bool nonUniformWorkGroups = false;
    bool acceptsCl20 = false;  // builds a program with -cl-std=CL2.0 (PoCL 3.1 does, PoCL 5 and NVIDIA do not)
};

// The PoCL device (the platform whose name mentions "Portable", else the first), found once.
const Device& poclDevice();

struct ContextAndQueue {
    Context context;
    Queue queue;
};
ContextAndQueue makeContext(const Device& device);

struct BuildResult {
    Program program;
    cl_int status = CL_SUCCESS;  // of clBuildProgram
    std::string log;
};
BuildResult buildProgram(cl_context context, cl_device_id device, const std::vector<std::string>& sources,
                         const std::string& options);

Kernel makeKernel(cl_program program, const std::string& name);
cl_uint kernelNumArgs(cl_kernel kernel);

}  // namespace cltest
