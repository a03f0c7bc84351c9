// What waiting for one launch costs, by how the host waits. PolyBench's convolution-2d times one
// launch on fresh buffers and a clFinish per phase; through Hetero held to the GPU it took
// 1.10-1.15x native on the H200 (docs/results/h200-session34), where Hetero's clFinish after a launch
// without an event is a marker, a flush and clWaitForEvents on the marker (deferred_event.hpp).
// Each round makes two fresh buffers of --bytes, writes both from ordinary memory (blocking) and
// finishes, then times one launch (each work-item reads one float of the first and writes the
// second) and the wait. The modes take turns round by round, so that all see the same process:
//   finish        clFinish
//   marker        a marker, clFlush, clWaitForEvents on the marker (Hetero's clFinish)
//   flush-marker  clFlush first, then as marker
//   event         the launch asks for an event; clWaitForEvents on it
// --read: each round ends (untimed) with a blocking read of the second buffer into ordinary
// memory, as convolution-2d's phases do, so that every timed launch follows a read.
// Prints per mode the median, 10th and 90th percentile of the round's time in us.
//   finish_after_launch [--platform NAME] [--bytes N] [--rounds N] [--read]
#define _POSIX_C_SOURCE 200112L
#include "tool_support.h"

static const char* kSource =
    "__kernel void twice(__global const float* a, __global float* b) {\n"
    "  size_t i = get_global_id(0);\n"
    "  b[i] = 2.0f * a[i];\n"
    "}\n";

enum Mode { Finish, Marker, FlushMarker, Event, kModeCount };
static const char* kModes[kModeCount] = {"finish", "marker", "flush-marker", "event"};
enum { kMostRounds = 1000 };

// One round of `mode`: fresh buffers written, then the timed launch and wait (seconds).
static double round_(cl_context c, cl_command_queue q, cl_kernel k, const float* host, float* out, size_t bytes, enum Mode mode) {
    cl_int err;
    cl_mem a = clCreateBuffer(c, CL_MEM_READ_ONLY, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    check(clEnqueueWriteBuffer(q, a, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
    check(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
    check(clSetKernelArg(k, 0, sizeof a, &a), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof b, &b), "clSetKernelArg");
    check(clFinish(q), "clFinish");
    size_t global = bytes / sizeof(float), local = 256;
    cl_event done = NULL;
    const double t0 = now();
    check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, mode == Event ? &done : NULL), "launch");
    switch (mode) {
    case Finish: check(clFinish(q), "clFinish"); break;
    case FlushMarker: check(clFlush(q), "clFlush"); /* fall through */
    case Marker:
        check(clEnqueueMarkerWithWaitList(q, 0, NULL, &done), "marker");
        check(clFlush(q), "clFlush");
        /* fall through */
    case Event: check(clWaitForEvents(1, &done), "clWaitForEvents"); break;
    case kModeCount: break;
    }
    const double t1 = now();
    if (done) clReleaseEvent(done);
    if (out) check(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, out, 0, NULL, NULL), "clEnqueueReadBuffer");
    clReleaseMemObject(a), clReleaseMemObject(b);
    return t1 - t0;
}

int main(int argc, char** argv) {
    toolName = "finish_after_launch";
    const char* want = NULL;
    size_t bytes = (size_t)64 << 20;
    int rounds = 30, read = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc) want = argv[++i];
        else if (strcmp(argv[i], "--bytes") == 0 && i + 1 < argc) bytes = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--read") == 0) read = 1;
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--bytes N] [--rounds N] [--read]\n", argv[0]);
            return 2;
        }
    }
    if (rounds < 1 || rounds > kMostRounds || bytes < 1024 || bytes % 1024) {
        fprintf(stderr, "%s: 1-%d rounds, bytes a multiple of 1024\n", toolName, kMostRounds);
        return 2;
    }
    char name[256] = "";
    cl_platform_id p = findPlatform(want, 0, name, sizeof name);
    cl_device_id d = p ? firstDevice(p) : NULL;
    if (!d) {
        printf("%s: no platform or device %s\n", toolName, want ? want : "at all");
        return 1;
    }
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    cl_program pr = clCreateProgramWithSource(c, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(pr, 1, &d, "", NULL, NULL), "clBuildProgram");
    cl_kernel k = clCreateKernel(pr, "twice", &err);
    check(err, "clCreateKernel");
    float* host = malloc(bytes);
    float* out = read ? malloc(bytes) : NULL;
    if (!host || (read && !out)) return 1;
    for (size_t i = 0; i < bytes / sizeof(float); ++i) host[i] = (float)(i % 1021);
    static double times[kModeCount][kMostRounds];
    for (int m = 0; m < kModeCount; ++m) round_(c, q, k, host, out, bytes, (enum Mode)m);  // warm-up: the first build and use
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i < kModeCount; ++i) {
            const enum Mode m = (enum Mode)((r + i) % kModeCount);  // each mode first in turn
            times[m][r] = round_(c, q, k, host, out, bytes, m) * 1e6;
        }
    for (int m = 0; m < kModeCount; ++m) {
        double* t = times[m];
        const double mid = median(t, rounds);  // sorts
        printf("finish_after_launch platform=\"%s\" bytes=%zu%s mode=%s rounds=%d median_us=%.1f p10_us=%.1f p90_us=%.1f\n",
               name, bytes, read ? " read" : "", kModes[m], rounds, mid, t[rounds / 10], t[rounds - 1 - rounds / 10]);
    }
    free(host), free(out);
    clReleaseKernel(k), clReleaseProgram(pr), clReleaseCommandQueue(q), clReleaseContext(c);
    return 0;
}
