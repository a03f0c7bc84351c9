// For test programs without Catch2 that must control how the process ends (exit-time tests):
// a call check that ends the process with status 2, and the Hetero platform's first device.
#pragma once

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define PLAIN_CL_CHECK(call)                                                             \
    do {                                                                                 \
        cl_int err_ = (call);                                                            \
        if (err_ != CL_SUCCESS) {                                                        \
            std::fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, err_);  \
            std::fflush(stderr);                                                         \
            std::_Exit(2);                                                               \
        }                                                                                \
    } while (0)

namespace plaincl {

// The platform named "Hetero" through the ICD loader, and its first device; ends the process
// with status 2 where there is none.
inline cl_device_id heteroDevice(cl_platform_id& platform) {
    cl_uint n = 0;
    PLAIN_CL_CHECK(clGetPlatformIDs(0, nullptr, &n));
    std::vector<cl_platform_id> platforms(n);
    PLAIN_CL_CHECK(clGetPlatformIDs(n, platforms.data(), nullptr));
    for (cl_platform_id p : platforms) {
        char name[128] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::strcmp(name, "Hetero") == 0) {
            platform = p;
            cl_device_id d = nullptr;
            PLAIN_CL_CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr));
            return d;
        }
    }
    std::fprintf(stderr, "no Hetero platform\n");
    std::_Exit(2);
}

}  // namespace plaincl
