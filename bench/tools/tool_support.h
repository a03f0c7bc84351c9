// What the bench tools share (single-file C programs, each also built by hand with
// `gcc -O2 -Iplatform/include bench/tools/<tool>.c -lOpenCL`): a clock, checked calls, a median,
// and the platform chosen by name. Each tool sets `toolName` first, for its messages.
#pragma once

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char* toolName = "tool";

static inline double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static inline void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: %s failed: %d\n", toolName, what, err);
        exit(1);
    }
}

static inline int compareDoubles(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

// Sorts `v`.
static inline double median(double* v, int n) {
    qsort(v, n, sizeof *v, compareDoubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The first platform whose name contains `want` (any, when null), its name in `name`; with `list`,
// every platform's name is printed on the way. Null when there is none.
static inline cl_platform_id findPlatform(const char* want, int list, char* name, size_t nameSize) {
    cl_platform_id ps[16], found = NULL;
    cl_uint n = 0;
    clGetPlatformIDs(16, ps, &n);
    for (cl_uint i = 0; i < n && i < 16; ++i) {
        char here[256] = "";
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof here, here, NULL);
        if (list) printf("%s\n", here);
        if (!found && (!want || strstr(here, want))) {
            found = ps[i];
            snprintf(name, nameSize, "%s", here);
        }
    }
    return found;
}

// The platform's first GPU, else its first device of any kind; null when it has none.
static inline cl_device_id firstDevice(cl_platform_id platform) {
    cl_device_id d = NULL;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &d, NULL) == CL_SUCCESS) return d;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d, NULL) == CL_SUCCESS) return d;
    return NULL;
}
