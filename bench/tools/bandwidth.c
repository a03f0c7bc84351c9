// GPU <-> host bandwidth on one OpenCL platform: natively, from ordinary memory and from pinned
// memory (a CL_MEM_ALLOC_HOST_PTR buffer, mapped), and through Hetero's migrations (a host write
// brought to the GPU slot by a launch there, a GPU write brought to the host, which is the CPU
// slot's copy, by a map). bench/tools/bandwidth.py runs it natively and through Hetero side by side.
//
//   bandwidth [--platform NAME] [--sizes MB,MB,...] [--reps R] [--modes LIST] [--list]
//
// --platform: part of the platform's name (default: the first platform); its first GPU device, else
// its first device. --sizes in MiB (default 1,2,4,8,16,32,64,128,256). --modes: comma separated among
// "ordinary,pinned" (native transfers, blocking clEnqueueWrite/ReadBuffer), "launch" (native, host to
// GPU only: a non-blocking write from pinned memory, then a launch reading the buffer, until
// clFinish, less the launch alone: what an application pays to bring the data before a kernel, the
// shape of Hetero's migration) and "hetero" (the
// platform must be Hetero: migrations, timed by Hetero's own counters, cl_ext_hetero.h; launches
// should run on the GPU slot, HETERO_RUN_ON=gpu, and unsplit). Default: ordinary,pinned, or hetero
// on Hetero. One line per mode, direction and size (the median of R repetitions after one warm-up):
//   bandwidth platform="..." mode=pinned direction=h2d bytes=1048576 ms=0.031 gbps=33.8
// (gbps=n/a where the time came out at or below zero: see report).
// For mode=hetero, wall_ms is the whole command that caused the migration (launch or map included,
// until clFinish), and ms and gbps the migration's own time: for d2h Hetero's counter
// ns_device_to_host (the map waits for the transfer); for h2d, which Hetero sends from the pinned host
// copy without waiting, wall_ms less the same launch's when it moves nothing (run right after).
// Every mode's host-to-GPU repetition sends data the host wrote just before (outside the timed
// part), as an application's and Hetero's are: on the H200 a 1 MiB pinned write of a source written
// just before adds 54 us to the launch after it, of one written long before 30 us
// (docs/results/h200-session41, call A).
// Build: part of the CMake build (build/bench/bandwidth), or gcc -O2 -Iplatform/include
// bench/tools/bandwidth.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext_hetero.h>
#include "tool_support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>





static void report(const char* platform, const char* mode, const char* direction, size_t bytes, double seconds,
                   double wallSeconds) {
    printf("bandwidth platform=\"%s\" mode=%s direction=%s bytes=%zu ms=%.3f", platform, mode, direction, bytes,
           seconds * 1e3);
    // A difference of two wall times (the h2d launch modes) at or below zero is a transfer lost in
    // the noise: no bandwidth can be given for it.
    if (seconds > 0)
        printf(" gbps=%.2f", bytes / seconds / 1e9);
    else
        printf(" gbps=n/a");
    if (wallSeconds >= 0) printf(" wall_ms=%.3f", wallSeconds * 1e3);
    printf("\n");
    fflush(stdout);
}

struct Setup {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    char name[256];
};

// Pinned host memory as an application gets it: a CL_MEM_ALLOC_HOST_PTR buffer, mapped.
static void* mapPinned(struct Setup* s, size_t bytes, cl_mem* pinned) {
    cl_int err = CL_SUCCESS;
    *pinned = clCreateBuffer(s->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    check(err, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)");
    void* host = clEnqueueMapBuffer(s->queue, *pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    check(err, "clEnqueueMapBuffer");
    return host;
}

static void unmapPinned(struct Setup* s, cl_mem pinned, void* host) {
    check(clEnqueueUnmapMemObject(s->queue, pinned, host, 0, NULL, NULL), "clEnqueueUnmapMemObject");
    clFinish(s->queue);
    clReleaseMemObject(pinned);
}

// Native transfers between a device buffer and `host` (ordinary or pinned memory).
static void native(struct Setup* s, const char* mode, size_t bytes, int reps) {
    cl_int err = CL_SUCCESS;
    cl_mem device = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    cl_mem pinned = NULL;
    void* host = NULL;
    if (strcmp(mode, "pinned") == 0) {
        host = mapPinned(s, bytes, &pinned);
    } else if (posix_memalign(&host, 4096, bytes) != 0) {
        check(CL_OUT_OF_HOST_MEMORY, "posix_memalign");
    }
    memset(host, 1, bytes);
    double* t = malloc(sizeof(double) * (reps + 1));
    for (int direction = 0; direction < 2; ++direction) {
        for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up
            if (direction == 0) memset(host, r & 0xff, bytes);
            double t0 = now();
            if (direction == 0)
                check(clEnqueueWriteBuffer(s->queue, device, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
            else
                check(clEnqueueReadBuffer(s->queue, device, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "clEnqueueReadBuffer");
            if (r) t[r - 1] = now() - t0;
        }
        report(s->name, mode, direction == 0 ? "h2d" : "d2h", bytes, median(t, reps), -1);
    }
    free(t);
    if (pinned) {
        unmapPinned(s, pinned, host);
    } else {
        free(host);
    }
    clReleaseMemObject(device);
}

// A one-work-item kernel that touches its buffer: the launch that needs the data.
static cl_kernel touchKernel(struct Setup* s, cl_program* program) {
    static const char* source = "__kernel void touch(__global int* b) { b[0] += 1; }";
    cl_int err = CL_SUCCESS;
    *program = clCreateProgramWithSource(s->context, 1, &source, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(*program, 1, &s->device, "", NULL, NULL), "clBuildProgram");
    cl_kernel touch = clCreateKernel(*program, "touch", &err);
    check(err, "clCreateKernel");
    return touch;
}

// Natively, host to GPU before a launch: a non-blocking write from pinned memory and the launch,
// until clFinish, less the same launch alone right after.
static void nativeLaunch(struct Setup* s, size_t bytes, int reps) {
    cl_int err = CL_SUCCESS;
    cl_mem device = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    cl_mem pinned;
    void* host = mapPinned(s, bytes, &pinned);
    cl_program program;
    cl_kernel touch = touchKernel(s, &program);
    check(clSetKernelArg(touch, 0, sizeof device, &device), "clSetKernelArg");
    size_t one = 1;
    double* wall = malloc(sizeof(double) * (reps + 1));
    double* idle = malloc(sizeof(double) * (reps + 1));
    for (int r = 0; r <= reps; ++r) {  // r == 0: warm-up
        memset(host, r & 0xff, bytes);
        double t0 = now();
        check(clEnqueueWriteBuffer(s->queue, device, CL_FALSE, 0, bytes, host, 0, NULL, NULL), "clEnqueueWriteBuffer");
        check(clEnqueueNDRangeKernel(s->queue, touch, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
        check(clFinish(s->queue), "clFinish");
        double t1 = now();
        check(clEnqueueNDRangeKernel(s->queue, touch, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
        check(clFinish(s->queue), "clFinish");
        if (r) wall[r - 1] = t1 - t0, idle[r - 1] = now() - t1;
    }
    double w = median(wall, reps);
    report(s->name, "launch", "h2d", bytes, w - median(idle, reps), w);
    free(wall);
    free(idle);
    clReleaseKernel(touch);
    clReleaseProgram(program);
    unmapPinned(s, pinned, host);
    clReleaseMemObject(device);
}

// Through Hetero: h2d = the host writes the whole buffer (a map), then a launch on the GPU slot
// brings it there; d2h = a launch there writes it, then a map for reading brings it to the host
// copy (which is also the CPU slot's copy). The launch is timed again with nothing to move: the
// host-to-GPU migration is what it adds.
static void hetero(struct Setup* s, size_t bytes, int reps) {
    clGetHeteroCountersEXT_fn counters =
        (clGetHeteroCountersEXT_fn)clGetExtensionFunctionAddressForPlatform(s->platform, "clGetHeteroCountersEXT");
    if (!counters) {
        fprintf(stderr, "bandwidth: mode hetero needs the Hetero platform\n");
        exit(1);
    }
    cl_int err = CL_SUCCESS;
    cl_program program;
    cl_kernel touch = touchKernel(s, &program);
    cl_mem buffer = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(touch, 0, sizeof buffer, &buffer), "clSetKernelArg");
    size_t one = 1;
    double* t = malloc(sizeof(double) * (reps + 1));
    double* wall = malloc(sizeof(double) * (reps + 1));
    double* idle = malloc(sizeof(double) * (reps + 1));  // h2d: the launch that moves nothing
    cl_ulong before[CL_HETERO_COUNTER_COUNT], after[CL_HETERO_COUNTER_COUNT];
    for (int direction = 0; direction < 2; ++direction) {
        const int bytesCounter = direction == 0 ? CL_HETERO_BYTES_HOST_TO_DEVICE : CL_HETERO_BYTES_DEVICE_TO_HOST;
        const int nsCounter = direction == 0 ? CL_HETERO_NS_HOST_TO_DEVICE : CL_HETERO_NS_DEVICE_TO_HOST;
        int measured = 0;
        for (int r = 0; r <= reps; ++r) {
            // The setup of this repetition: the host writes (h2d) or the GPU slot writes (d2h).
            if (direction == 0) {
                void* p = clEnqueueMapBuffer(s->queue, buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes, 0, NULL,
                                             NULL, &err);
                check(err, "clEnqueueMapBuffer");
                memset(p, r & 0xff, bytes);
                check(clEnqueueUnmapMemObject(s->queue, buffer, p, 0, NULL, NULL), "clEnqueueUnmapMemObject");
            } else {
                check(clEnqueueNDRangeKernel(s->queue, touch, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
            }
            check(clFinish(s->queue), "clFinish");
            counters(s->platform, CL_HETERO_COUNTER_COUNT, before, NULL);
            double t0 = now();
            if (direction == 0) {
                check(clEnqueueNDRangeKernel(s->queue, touch, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
                check(clFinish(s->queue), "clFinish");
            } else {
                void* p = clEnqueueMapBuffer(s->queue, buffer, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
                check(err, "clEnqueueMapBuffer");
                check(clEnqueueUnmapMemObject(s->queue, buffer, p, 0, NULL, NULL), "clEnqueueUnmapMemObject");
                check(clFinish(s->queue), "clFinish");
            }
            double elapsed = now() - t0;
            counters(s->platform, CL_HETERO_COUNTER_COUNT, after, NULL);
            if (after[bytesCounter] - before[bytesCounter] != bytes) {
                fprintf(stderr, "bandwidth: hetero %s moved %llu bytes, not %zu (is the launch on the GPU slot?)\n",
                        direction == 0 ? "h2d" : "d2h", (unsigned long long)(after[bytesCounter] - before[bytesCounter]),
                        bytes);
                continue;
            }
            double idleElapsed = 0;
            if (direction == 0) {  // the same launch again: its buffer is current on the GPU slot now
                double t1 = now();
                check(clEnqueueNDRangeKernel(s->queue, touch, 1, NULL, &one, &one, 0, NULL, NULL), "clEnqueueNDRangeKernel");
                check(clFinish(s->queue), "clFinish");
                idleElapsed = now() - t1;
            }
            if (r == 0) continue;  // warm-up
            t[measured] = (after[nsCounter] - before[nsCounter]) * 1e-9;
            wall[measured] = elapsed;
            idle[measured] = idleElapsed;
            ++measured;
        }
        if (!measured) continue;
        double seconds = median(t, measured);
        if (direction == 0) seconds = median(wall, measured) - median(idle, measured);
        report(s->name, "hetero", direction == 0 ? "h2d" : "d2h", bytes, seconds, median(wall, measured));
    }
    free(t);
    free(wall);
    free(idle);
    clReleaseMemObject(buffer);
    clReleaseKernel(touch);
    clReleaseProgram(program);
}

// `name` is one of the comma-separated `modes`.
static int hasMode(const char* modes, const char* name) {
    size_t n = strlen(name);
    for (const char* p = modes; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == 0)) return 1;
    return 0;
}

int main(int argc, char** argv) {
    toolName = "bandwidth";
    const char* want = NULL;
    const char* sizes = "1,2,4,8,16,32,64,128,256";
    const char* modes = NULL;
    int reps = 5, listOnly = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc) want = argv[++i];
        else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) sizes = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc) modes = argv[++i];
        else if (strcmp(argv[i], "--list") == 0) listOnly = 1;
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--sizes MB,...] [--reps R] [--modes ordinary,pinned,launch,hetero] [--list]\n",
                    argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    struct Setup s = {0};
    s.platform = findPlatform(want, listOnly, s.name, sizeof s.name);
    if (listOnly) return 0;
    if (!s.platform) {
        printf("bandwidth: no platform %s\n", want ? want : "at all");
        return 1;
    }
    if (!(s.device = firstDevice(s.platform))) {
        printf("bandwidth: platform \"%s\" has no device\n", s.name);
        return 1;
    }
    cl_int err = CL_SUCCESS;
    s.context = clCreateContext(NULL, 1, &s.device, NULL, NULL, &err);
    check(err, "clCreateContext");
    s.queue = clCreateCommandQueueWithProperties(s.context, s.device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    const int isHetero = strcmp(s.name, "Hetero") == 0;
    if (!modes) modes = isHetero ? "hetero" : "ordinary,pinned";
    for (const char* p = sizes; *p;) {
        size_t bytes = (size_t)(strtod(p, NULL) * 1024 * 1024);
        if (bytes) {
            if (hasMode(modes, "ordinary")) native(&s, "ordinary", bytes, reps);
            if (hasMode(modes, "pinned")) native(&s, "pinned", bytes, reps);
            if (hasMode(modes, "launch")) nativeLaunch(&s, bytes, reps);
            if (hasMode(modes, "hetero")) hetero(&s, bytes, reps);
        }
        p = strchr(p, ',');
        if (!p) break;
        ++p;
    }
    clReleaseCommandQueue(s.queue);
    clReleaseContext(s.context);
    return 0;
}
