// Shared helpers for tests that act as OpenCL applications: they go through the real ICD loader,
// which the test environment (test/CMakeLists.txt) points at Hetero alone.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace cltest {

inline cl_platform_id heteroPlatform() {
    cl_uint n = 0;
    REQUIRE(clGetPlatformIDs(0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_platform_id> platforms(n);
    REQUIRE(clGetPlatformIDs(n, platforms.data(), nullptr) == CL_SUCCESS);
    for (auto p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::string(name) == "Hetero") return p;
    }
    FAIL("no platform named Hetero is visible through the ICD loader");
    return nullptr;
}

inline cl_device_id heteroDevice() {
    cl_device_id d = nullptr;
    REQUIRE(clGetDeviceIDs(heteroPlatform(), CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS);
    return d;
}

// A context and an in-order queue on the Hetero device, released at scope end.
struct Env {
    cl_platform_id platform = heteroPlatform();
    cl_device_id device = heteroDevice();
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;

    explicit Env(cl_command_queue_properties props = 0, const cl_context_properties* contextProperties = nullptr) {
        cl_int err = CL_SUCCESS;
        context = clCreateContext(contextProperties, 1, &device, nullptr, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
        queue = clCreateCommandQueueWithProperties(context, device, qp, &err);
        REQUIRE(err == CL_SUCCESS);
    }
    ~Env() {
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }
    Env(const Env&) = delete;
    Env& operator=(const Env&) = delete;

    cl_program build(const std::string& source, const char* options = "") {
        const char* text = source.c_str();
        cl_int err = CL_SUCCESS;
        cl_program p = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        err = clBuildProgram(p, 1, &device, options, nullptr, nullptr);
        if (err != CL_SUCCESS) {
            size_t n = 0;
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
            std::string log(n, '\0');
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
            INFO("build log:\n" << log);
            REQUIRE(err == CL_SUCCESS);
        }
        return p;
    }
    cl_kernel kernel(cl_program p, const char* name) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(p, name, &err);
        REQUIRE(err == CL_SUCCESS);
        return k;
    }
    cl_mem buffer(cl_mem_flags flags, size_t size, void* host = nullptr) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context, flags, size, host, &err);
        REQUIRE(err == CL_SUCCESS);
        return m;
    }
    template <class T>
    std::vector<T> read(cl_mem m, size_t count) {
        std::vector<T> out(count);
        REQUIRE(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T), out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        return out;
    }
};

// A comment line naming `test` and the time: a program source nobody built before (Hetero keeps
// what it learned and built per source, also across processes).
inline std::string nonce(const char* test) {
    return "// " + std::string(test) + " " + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
           "\n";
}

// spin(out, n): each work-item runs n rounds of a generator and stores the result, for commands
// that run a while (n = 20,000,000: tens of milliseconds on PoCL).
inline const char* const kSpinSource = R"(
    __kernel void spin(__global uint* out, uint n) {
        uint x = get_global_id(0);
        for (uint i = 0; i < n; ++i) x = x * 1664525u + 1013904223u;
        out[get_global_id(0)] = x;
    })";

template <class T>
void setArg(cl_kernel k, cl_uint index, const T& value) {
    REQUIRE(clSetKernelArg(k, index, sizeof(T), &value) == CL_SUCCESS);
}

}  // namespace cltest
