// The backend alone (no Hetero): what the first launch after a few whole-buffer writes costs to
// enqueue, by how the writes were made. Through Hetero with the CPU slot, 3mm's first launch after
// its four 1 MiB writes (which go through the CPU's pinned host copy) took 40-50 us longer in
// NVIDIA's own launch call than held to the GPU (docs/results/h100-session22): this finds which
// of Hetero's habits around those writes NVIDIA charges the launch for. Each round makes fresh
// buffers, writes them non-blocking, waits, and times one launch that reads them all and writes one
// more fresh buffer (as 3mm's first product does), then a second launch of it. Modes:
//   source   pageable: from ordinary memory (the application's own, 3mm's case held to the GPU)
//            pinned:   from a mapped CL_MEM_ALLOC_HOST_PTR buffer (Hetero's host copy)
//            aligned:  from page-aligned ordinary memory (Hetero's host copy when nothing is pinned)
//            copied:   from the pinned buffer, each write's bytes first copied into it from ordinary
//                      memory by memcpy (Hetero's write through the host copy, whole)
//   wait     finish: clFinish after the writes; events: clWaitForEvents on the writes' events
//   kept     the writes' events released at once, or kept until the round ends (Hetero keeps a
//            write's event while the transfer may still read its host copy)
// Prints one line per mode: median enqueue time of the first and of the second launch, in us.
// --until-done: each launch is timed from its enqueue to the clFinish after it instead (a
// PolyBench program's kernel_ms): through Hetero with the CPU slot gesummv LARGE's launch took
// 35-45 us longer than held to the GPU, its enqueue no longer (docs/results/h200-session36).
// --rows: the kernel reads each buffer as a square matrix, one row per work-item (gesummv's way).
// --read-write: the inputs are made CL_MEM_READ_WRITE, as Hetero makes every backend copy, instead of
// CL_MEM_READ_ONLY (held to the GPU, Hetero's second launch of --rows took 342-346 us against
// native's 287-289, docs/results/h200-session36: whether NVIDIA treats the flags differently).
// --profile: a profiling queue; each launch also reports its device time (the event's END - START),
// to tell the kernel's own time from what the host's calls around it add.
//   launch_after_writes [--platform NAME] [--bytes N] [--rounds N] [--until-done] [--rows] [--read-write] [--profile]
#define _POSIX_C_SOURCE 200112L
#include "tool_support.h"

#include <math.h>

static const char* kSource =
    "__kernel void sum(__global const float* a, __global const float* b, __global const float* c,\n"
    "                  __global const float* d, __global float* out) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = a[i] + b[i] + c[i] + d[i];\n"
    "}\n"
    // --rows: each work-item sums a row of n x n matrices, as gesummv reads A and B (few
    // work-groups, each item its own row: bound by memory latency, not bandwidth).
    "__kernel void rows(__global const float* a, __global const float* b, __global const float* c,\n"
    "                   __global const float* d, __global float* out, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i >= n) return;\n"
    "  float s = 0.0f;\n"
    "  for (int j = 0; j < n; ++j) s += a[i * n + j] + b[i * n + j] + c[i * n + j] + d[i * n + j];\n"
    "  out[i] = s;\n"
    "}\n";

enum { kBuffers = 4 };

typedef struct {
    const char* source;  // pageable | pinned | aligned | copied
    int events;          // wait with clWaitForEvents instead of clFinish
    int kept;            // keep the writes' events until the round ends
} Mode;

int main(int argc, char** argv) {
    toolName = "launch_after_writes";
    const char* want = "NVIDIA";
    size_t bytes = 1 << 20;
    int rounds = 30, untilDone = 0, rows = 0, readWrite = 0, profile = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--until-done")) untilDone = 1;
        else if (!strcmp(argv[i], "--rows")) rows = 1;
        else if (!strcmp(argv[i], "--read-write")) readWrite = 1;
        else if (!strcmp(argv[i], "--profile")) profile = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "--platform")) want = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "--bytes")) bytes = strtoull(argv[++i], NULL, 10);
        else if (i + 1 < argc && !strcmp(argv[i], "--rounds")) rounds = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: launch_after_writes [--platform NAME] [--bytes N] [--rounds N] [--until-done] [--rows] [--read-write] [--profile]\n");
            return 2;
        }
    }
    char name[256];
    cl_platform_id platform = findPlatform(want, 0, name, sizeof name);
    if (!platform) {
        fprintf(stderr, "%s: no platform named %s\n", toolName, want);
        return 1;
    }
    cl_device_id device = firstDevice(platform);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    cl_command_queue queue = clCreateCommandQueue(context, device, profile ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
    check(err, "clCreateCommandQueue");
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
    cl_kernel kernel = clCreateKernel(program, rows ? "rows" : "sum", &err);
    check(err, "clCreateKernel");

    // The sources, each big enough for every buffer's bytes.
    float* pageable = malloc(bytes * kBuffers + 16);
    float* pageableData = (float*)((char*)pageable + 16);  // as malloc'd vectors are: not page-aligned
    void* aligned = NULL;
    if (posix_memalign(&aligned, 4096, bytes * kBuffers)) return 1;
    cl_mem pinnedBuffer = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, bytes * kBuffers, NULL, &err);
    check(err, "clCreateBuffer (pinned)");
    float* pinned = clEnqueueMapBuffer(queue, pinnedBuffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                       bytes * kBuffers, 0, NULL, NULL, &err);
    check(err, "clEnqueueMapBuffer");
    for (size_t i = 0; i < bytes * kBuffers / sizeof(float); ++i)
        pageableData[i] = ((float*)aligned)[i] = pinned[i] = (float)(i % 97);

    const Mode modes[] = {{"pageable", 0, 0}, {"pinned", 0, 0}, {"aligned", 0, 0}, {"pinned", 1, 0},
                          {"pinned", 0, 1}, {"pinned", 1, 1}, {"pageable", 1, 1}, {"aligned", 1, 1},
                          {"copied", 0, 0}, {"copied", 1, 1}};
    const int modeCount = sizeof modes / sizeof modes[0];
    double* first = malloc(sizeof(double) * rounds * modeCount);
    double* second = malloc(sizeof(double) * rounds * modeCount);
    double* firstDevice = malloc(sizeof(double) * rounds * modeCount);
    double* secondDevice = malloc(sizeof(double) * rounds * modeCount);
    // --rows: n x n floats in each buffer, n rounded up to whole work-groups of 256.
    const int n = (int)sqrt((double)(bytes / sizeof(float)));
    const size_t global = rows ? (size_t)(n + 255) / 256 * 256 : bytes / sizeof(float);
    const size_t* local = NULL;
    const size_t rowsLocal = 256;
    if (rows) {
        local = &rowsLocal;
        check(clSetKernelArg(kernel, kBuffers + 1, sizeof n, &n), "clSetKernelArg");
    }
    // Rounds interleave the modes, so that the machine's drift falls on all of them alike.
    for (int r = 0; r < rounds; ++r) {
        for (int m = 0; m < modeCount; ++m) {
            const Mode* mode = &modes[m];
            const int copied = !strcmp(mode->source, "copied");
            const char* from = !strcmp(mode->source, "pinned") || copied ? (const char*)pinned
                               : !strcmp(mode->source, "aligned") ? (const char*)aligned
                                                                  : (const char*)pageableData;
            cl_mem in[kBuffers];
            cl_event written[kBuffers];
            for (int b = 0; b < kBuffers; ++b) {
                in[b] = clCreateBuffer(context, readWrite ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY, bytes, NULL, &err);
                check(err, "clCreateBuffer");
                if (copied) memcpy(pinned + b * bytes / sizeof(float), (const char*)pageableData + b * bytes, bytes);
                check(clEnqueueWriteBuffer(queue, in[b], CL_FALSE, 0, bytes, from + b * bytes, 0, NULL, &written[b]),
                      "clEnqueueWriteBuffer");
            }
            cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
            check(err, "clCreateBuffer");
            for (int b = 0; b < kBuffers; ++b) check(clSetKernelArg(kernel, b, sizeof(cl_mem), &in[b]), "clSetKernelArg");
            check(clSetKernelArg(kernel, kBuffers, sizeof(cl_mem), &out), "clSetKernelArg");
            if (mode->events) {
                check(clFlush(queue), "clFlush");
                check(clWaitForEvents(kBuffers, written), "clWaitForEvents");
            } else {
                check(clFinish(queue), "clFinish");
            }
            if (!mode->kept)
                for (int b = 0; b < kBuffers; ++b) clReleaseEvent(written[b]);
            cl_event launched[2] = {NULL, NULL};
            double t0 = now();
            check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, local, 0, NULL, profile ? &launched[0] : NULL), "launch");
            if (untilDone) check(clFinish(queue), "clFinish");
            double t1 = now();
            check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, local, 0, NULL, profile ? &launched[1] : NULL), "launch");
            if (untilDone) check(clFinish(queue), "clFinish");
            double t2 = now();
            check(clFinish(queue), "clFinish");
            first[m * rounds + r] = (t1 - t0) * 1e6;
            second[m * rounds + r] = (t2 - t1) * 1e6;
            for (int l = 0; profile && l < 2; ++l) {
                cl_ulong start = 0, end = 0;
                check(clGetEventProfilingInfo(launched[l], CL_PROFILING_COMMAND_START, sizeof start, &start, NULL), "profiling");
                check(clGetEventProfilingInfo(launched[l], CL_PROFILING_COMMAND_END, sizeof end, &end, NULL), "profiling");
                (l ? secondDevice : firstDevice)[m * rounds + r] = (double)(end - start) * 1e-3;
                clReleaseEvent(launched[l]);
            }
            if (mode->kept)
                for (int b = 0; b < kBuffers; ++b) clReleaseEvent(written[b]);
            for (int b = 0; b < kBuffers; ++b) clReleaseMemObject(in[b]);
            clReleaseMemObject(out);
        }
    }
    printf("%s, %d writes of %zu bytes (%s%s), %d rounds: median %s time in us\n", name, kBuffers, bytes,
           readWrite ? "CL_MEM_READ_WRITE" : "CL_MEM_READ_ONLY", rows ? ", read by rows" : "", rounds,
           untilDone ? "enqueue-to-finished" : "enqueue");
    printf("%-10s %-8s %-9s %10s %10s%s\n", "source", "wait", "events", "1st launch", "2nd launch",
           profile ? " 1st device 2nd device" : "");
    for (int m = 0; m < modeCount; ++m) {
        printf("%-10s %-8s %-9s %10.1f %10.1f", modes[m].source, modes[m].events ? "events" : "finish",
               modes[m].kept ? "kept" : "released", median(first + m * rounds, rounds), median(second + m * rounds, rounds));
        if (profile)
            printf(" %10.1f %10.1f", median(firstDevice + m * rounds, rounds), median(secondDevice + m * rounds, rounds));
        printf("\n");
    }
    check(clEnqueueUnmapMemObject(queue, pinnedBuffer, pinned, 0, NULL, NULL), "unmap");
    clFinish(queue);
    clReleaseMemObject(pinnedBuffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    free(pageable), free(aligned), free(first), free(second), free(firstDevice), free(secondDevice);
    return 0;
}
