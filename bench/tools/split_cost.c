// What one launch costs, from enqueue to clFinish, for a compute-bound and a bandwidth-bound
// kernel at a few sizes. bench/tools/split_cost.py runs it natively and through Hetero (run whole,
// and split with the CPU doing no work-group) side by side, so that a split's fixed costs show.
//
//   split_cost [--platform NAME] [--kernels compute,bandwidth] [--sizes MiB,...] [--reps R]
//              [--iterations N] [--list]
//
// --platform: part of the platform's name (default: the first platform); its first GPU device, else
// its first device. --sizes: MiB of each buffer (default 1,16,64). "compute": out[i] = N dependent
// multiply-adds of in[i] (--iterations, default 256); "bandwidth": c[i] = a[i] + b[i] (floats). Inputs and output are written
// by the host once (clEnqueueWriteBuffer) before the timed launches, as an application does. Each
// repetition is one launch and clFinish (after two warm-up launches). One line per kernel and size:
//   split_cost platform="..." kernel=bandwidth mib=16 reps=20 ms=1.234 min_ms=1.100 check=ok
// On Hetero, the line adds what its counters saw per timed launch: splits=, cpu_groups= (work-groups
// the CPU slot ran), moved_mb= (bytes between the devices, MB).
// Build: part of the CMake build (build/bench/split_cost), or gcc -O2 -Iplatform/include
// bench/tools/split_cost.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext_hetero.h>
#include "tool_support.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>




static const char* kSource =
    "__kernel void compute(__global const float* in, __global float* out, int iterations) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = in[i];\n"
    "    for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.5f;\n"
    "    out[i] = x;\n"
    "}\n"
    "__kernel void bandwidth(__global const float* a, __global const float* b, __global float* c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n";

static int iterations = 256;

static float computeOne(float x) {
    for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.5f;
    return x;
}

struct Setup {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    clGetHeteroCountersEXT_fn counters;  // Hetero only
    char name[256];
};

static void run(struct Setup* s, const char* kernelName, size_t mib, int reps) {
    const size_t n = mib * 1024 * 1024 / sizeof(float), bytes = n * sizeof(float);
    const int isCompute = strcmp(kernelName, "compute") == 0;
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(s->program, kernelName, &err);
    check(err, "clCreateKernel");
    float* host = malloc(bytes);
    float* other = malloc(bytes);
    for (size_t i = 0; i < n; ++i) host[i] = (float)(i % 1000), other[i] = (float)(i % 7);
    cl_mem in[2], out;
    for (int j = 0; j < 2; ++j) {
        in[j] = clCreateBuffer(s->context, CL_MEM_READ_ONLY, bytes, NULL, &err);
        check(err, "clCreateBuffer");
        check(clEnqueueWriteBuffer(s->queue, in[j], CL_TRUE, 0, bytes, j ? other : host, 0, NULL, NULL), "write");
    }
    out = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    memset(other, 0, bytes);
    check(clEnqueueWriteBuffer(s->queue, out, CL_TRUE, 0, bytes, other, 0, NULL, NULL), "write");
    for (size_t i = 0; i < n; ++i) other[i] = (float)(i % 7);  // b, for the check
    cl_uint arg = 0;
    check(clSetKernelArg(k, arg++, sizeof(cl_mem), &in[0]), "clSetKernelArg");
    if (!isCompute) check(clSetKernelArg(k, arg++, sizeof(cl_mem), &in[1]), "clSetKernelArg");
    check(clSetKernelArg(k, arg++, sizeof(cl_mem), &out), "clSetKernelArg");
    if (isCompute) check(clSetKernelArg(k, arg++, sizeof iterations, &iterations), "clSetKernelArg");
    size_t global = n, local = 256;
    double* t = malloc(sizeof(double) * reps);
    cl_ulong before[CL_HETERO_COUNTER_COUNT] = {0}, after[CL_HETERO_COUNTER_COUNT] = {0};
    for (int r = -2; r < reps; ++r) {  // two warm-ups: kernel loading, first-use costs
        if (r == 0 && s->counters) s->counters(s->platform, CL_HETERO_COUNTER_COUNT, before, NULL);
        double t0 = now();
        check(clEnqueueNDRangeKernel(s->queue, k, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
        check(clFinish(s->queue), "clFinish");
        if (r >= 0) t[r] = now() - t0;
    }
    if (s->counters) s->counters(s->platform, CL_HETERO_COUNTER_COUNT, after, NULL);
    check(clEnqueueReadBuffer(s->queue, out, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "read");
    int ok = 1;
    for (size_t i = 0; i < n && ok; i += 4099) {
        float a = (float)(i % 1000), want = isCompute ? computeOne(a) : a + other[i];
        if (fabsf(host[i] - want) > 1e-3f * fabsf(want) + 1e-3f) ok = 0;
    }
    qsort(t, reps, sizeof *t, compareDoubles);
    printf("split_cost platform=\"%s\" kernel=%s mib=%zu reps=%d ms=%.3f min_ms=%.3f check=%s", s->name, kernelName, mib,
           reps, t[reps / 2] * 1e3, t[0] * 1e3, ok ? "ok" : "FAILED");
    if (s->counters)
        printf(" splits=%.2f cpu_groups=%.1f moved_mb=%.2f",
               (double)(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + after[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] -
                        before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] - before[CL_HETERO_LAUNCHES_SPLIT_UNIFIED]) / reps,
               (double)(after[CL_HETERO_WORK_GROUPS_CPU] - before[CL_HETERO_WORK_GROUPS_CPU]) / reps,
               (double)(after[CL_HETERO_BYTES_BETWEEN_DEVICES] - before[CL_HETERO_BYTES_BETWEEN_DEVICES]) / reps / 1e6);
    printf("\n");
    fflush(stdout);
    free(t);
    free(host);
    free(other);
    clReleaseMemObject(in[0]);
    clReleaseMemObject(in[1]);
    clReleaseMemObject(out);
    clReleaseKernel(k);
}

int main(int argc, char** argv) {
    toolName = "split_cost";
    const char* want = NULL;
    const char* sizes = "1,16,64";
    const char* kernels = "compute,bandwidth";
    int reps = 20, listOnly = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc) want = argv[++i];
        else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) sizes = argv[++i];
        else if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc) kernels = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) iterations = atoi(argv[++i]);
        else if (strcmp(argv[i], "--list") == 0) listOnly = 1;
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--kernels compute,bandwidth] [--sizes MiB,...] [--reps R] [--iterations N] [--list]\n",
                    argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    struct Setup s = {0};
    s.platform = findPlatform(want, listOnly, s.name, sizeof s.name);
    if (listOnly) return 0;
    if (!s.platform) {
        printf("split_cost: no platform %s\n", want ? want : "at all");
        return 1;
    }
    if (!(s.device = firstDevice(s.platform))) {
        printf("split_cost: platform \"%s\" has no device\n", s.name);
        return 1;
    }
    cl_int err = CL_SUCCESS;
    s.context = clCreateContext(NULL, 1, &s.device, NULL, NULL, &err);
    check(err, "clCreateContext");
    s.queue = clCreateCommandQueueWithProperties(s.context, s.device, NULL, &err);
    check(err, "clCreateCommandQueue");
    s.program = clCreateProgramWithSource(s.context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(s.program, 1, &s.device, "", NULL, NULL), "clBuildProgram");
    if (strstr(s.name, "Hetero"))
        s.counters = (clGetHeteroCountersEXT_fn)clGetExtensionFunctionAddressForPlatform(s.platform, "clGetHeteroCountersEXT");
    char* list = strdup(kernels);
    for (char* kernel = strtok(list, ","); kernel; kernel = strtok(NULL, ",")) {
        char* sizeList = strdup(sizes);
        char* save = NULL;
        for (char* m = strtok_r(sizeList, ",", &save); m; m = strtok_r(NULL, ",", &save))
            if (atoi(m) > 0) run(&s, kernel, (size_t)atoi(m), reps);
        free(sizeList);
    }
    free(list);
    clReleaseProgram(s.program);
    clReleaseCommandQueue(s.queue);
    clReleaseContext(s.context);
    return 0;
}
