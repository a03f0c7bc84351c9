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

// A context and in-order queue of their own on `device`, with a one-work-item kernel whose loop
// runs at least about `ms` (calibrated after a first launch, which may compile): what a tool times
// the host's side against. spin(out, rounds), its arguments set; `one` is its NDRange.
typedef struct {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel kernel;
    cl_mem out;
    size_t one;
} SpinKernel;

static inline void enqueueSpin(const SpinKernel* s, cl_event* done) {
    check(clEnqueueNDRangeKernel(s->queue, s->kernel, 1, NULL, &s->one, &s->one, 0, NULL, done), "launch");
}

static inline SpinKernel spinKernel(cl_device_id device, double ms) {
    static const char* source =
        "__kernel void spin(__global uint* out, uint rounds) {\n"
        "    uint x = (uint)get_global_id(0);\n"
        "    for (uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;\n"
        "    out[get_global_id(0)] = x;\n"
        "}\n";
    SpinKernel s;
    cl_int err;
    s.one = 1;
    s.context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    s.queue = clCreateCommandQueueWithProperties(s.context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    s.program = clCreateProgramWithSource(s.context, 1, &source, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(s.program, 1, &device, "", NULL, NULL), "clBuildProgram");
    s.kernel = clCreateKernel(s.program, "spin", &err);
    check(err, "clCreateKernel");
    s.out = clCreateBuffer(s.context, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(s.kernel, 0, sizeof s.out, &s.out), "clSetKernelArg");
    cl_uint rounds = 1u << 20;
    check(clSetKernelArg(s.kernel, 1, sizeof rounds, &rounds), "clSetKernelArg");
    enqueueSpin(&s, NULL);
    check(clFinish(s.queue), "clFinish");
    for (;;) {
        check(clSetKernelArg(s.kernel, 1, sizeof rounds, &rounds), "clSetKernelArg");
        double t0 = now();
        enqueueSpin(&s, NULL);
        check(clFinish(s.queue), "clFinish");
        double took = now() - t0;
        if (took * 1e3 >= ms || rounds >= (1u << 31)) break;
        double scale = ms / (took * 1e3);
        rounds = (cl_uint)(rounds * (scale > 8 ? 8 : scale * 1.05));
    }
    return s;
}

static inline void releaseSpinKernel(SpinKernel* s) {
    clReleaseMemObject(s->out);
    clReleaseKernel(s->kernel);
    clReleaseProgram(s->program);
    clReleaseCommandQueue(s->queue);
    clReleaseContext(s->context);
}
