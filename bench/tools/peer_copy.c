// How fast data moves from one GPU to another on one OpenCL platform, by each path OpenCL offers, so
// that Hetero's slots over several GPUs can use the fastest that exists:
//   migrate   one context holding both devices: a kernel on device 0 writes the buffer, then a kernel
//             on device 1 that reads it; the driver moves it (peer to peer or through the host).
//             Timed: the second kernel minus the same kernel on a buffer already there.
//   copy      one context: clEnqueueCopyBuffer on device 1's queue from a buffer device 0 wrote.
//   host      a context per device (as Hetero's slots have): a blocking read from device 0 into
//             pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped), then a blocking write to device 1.
//   pipelined the same through host memory in 8 MiB pieces, the read of piece i+1 overlapping the
//             write of piece i (two queues, chained by events).
//
//   peer_copy [--platform NAME] [--sizes MB,MB,...] [--reps R] [--modes LIST] [--devices I,J]
//
// One line per mode and size, the median of R repetitions after one warm-up:
//   peer_copy platform="..." mode=copy bytes=67108864 ms=2.1 gbps=31.9
// Build: part of the CMake build (build/bench/peer_copy), or gcc -O2 bench/tools/peer_copy.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>





static char platformName[256];

static void report(const char* mode, size_t bytes, double seconds) {
    printf("peer_copy platform=\"%s\" mode=%s bytes=%zu ms=%.3f gbps=%.2f\n", platformName, mode, bytes, seconds * 1e3,
           seconds > 0 ? bytes / seconds / 1e9 : 0.0);
    fflush(stdout);
}

static cl_mem buffer(cl_context c, cl_mem_flags flags, size_t bytes) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(c, flags, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    return m;
}

static cl_command_queue queueOf(cl_context c, cl_device_id d) {
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    return q;
}

// One context over both devices: the driver's own paths.
struct Shared {
    cl_context context;
    cl_command_queue q[2];
    cl_kernel fill, peek;  // fill: every element; peek: reads one (makes the buffer present there)
    cl_program program;
};

static void sharedInit(struct Shared* s, const cl_device_id* d) {
    cl_int err = CL_SUCCESS;
    s->context = clCreateContext(NULL, 2, d, NULL, NULL, &err);
    check(err, "clCreateContext(two devices)");
    s->q[0] = queueOf(s->context, d[0]);
    s->q[1] = queueOf(s->context, d[1]);
    static const char* source =
        "__kernel void fill(__global uint* b, uint v) { b[get_global_id(0)] = v; }\n"
        "__kernel void peek(__global const uint* b, __global uint* out) { out[0] = b[0]; }\n";
    s->program = clCreateProgramWithSource(s->context, 1, &source, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(s->program, 2, d, "", NULL, NULL), "clBuildProgram");
    s->fill = clCreateKernel(s->program, "fill", &err);
    check(err, "clCreateKernel(fill)");
    s->peek = clCreateKernel(s->program, "peek", &err);
    check(err, "clCreateKernel(peek)");
}

static void sharedRelease(struct Shared* s) {
    clReleaseKernel(s->fill), clReleaseKernel(s->peek), clReleaseProgram(s->program);
    clReleaseCommandQueue(s->q[0]), clReleaseCommandQueue(s->q[1]), clReleaseContext(s->context);
}

static void fillOn(struct Shared* s, int dev, cl_mem m, size_t bytes, cl_uint v) {
    size_t n = bytes / 4;
    check(clSetKernelArg(s->fill, 0, sizeof m, &m), "clSetKernelArg");
    check(clSetKernelArg(s->fill, 1, sizeof v, &v), "clSetKernelArg");
    check(clEnqueueNDRangeKernel(s->q[dev], s->fill, 1, NULL, &n, NULL, 0, NULL, NULL), "fill");
    check(clFinish(s->q[dev]), "clFinish");
}

static double peekOn(struct Shared* s, int dev, cl_mem m, cl_mem out) {
    size_t one = 1;
    check(clSetKernelArg(s->peek, 0, sizeof m, &m), "clSetKernelArg");
    check(clSetKernelArg(s->peek, 1, sizeof out, &out), "clSetKernelArg");
    double t0 = now();
    check(clEnqueueNDRangeKernel(s->q[dev], s->peek, 1, NULL, &one, &one, 0, NULL, NULL), "peek");
    check(clFinish(s->q[dev]), "clFinish");
    return now() - t0;
}

static void checkFirst(cl_command_queue q, cl_mem m, cl_uint want, const char* mode) {
    cl_uint got = 0;
    check(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL), "clEnqueueReadBuffer");
    if (got != want) {
        fprintf(stderr, "peer_copy: mode %s moved wrong data (%u, not %u)\n", mode, got, want);
        exit(1);
    }
}

static void migrate(struct Shared* s, size_t bytes, int reps) {
    cl_mem m = buffer(s->context, CL_MEM_READ_WRITE, bytes), out = buffer(s->context, CL_MEM_READ_WRITE, 4);
    double* t = malloc(sizeof(double) * (reps + 1));
    for (int r = 0; r <= reps; ++r) {
        fillOn(s, 0, m, bytes, (cl_uint)r + 1);
        double moved = peekOn(s, 1, m, out);  // the buffer comes over first
        double present = peekOn(s, 1, m, out);
        if (r) t[r - 1] = moved > present ? moved - present : 0;
        checkFirst(s->q[1], out, (cl_uint)r + 1, "migrate");
    }
    report("migrate", bytes, median(t, reps));
    free(t);
    clReleaseMemObject(m), clReleaseMemObject(out);
}

static void copy(struct Shared* s, size_t bytes, int reps) {
    cl_mem a = buffer(s->context, CL_MEM_READ_WRITE, bytes), b = buffer(s->context, CL_MEM_READ_WRITE, bytes);
    cl_mem out = buffer(s->context, CL_MEM_READ_WRITE, 4);
    peekOn(s, 1, b, out);  // b lives on device 1
    double* t = malloc(sizeof(double) * (reps + 1));
    for (int r = 0; r <= reps; ++r) {
        fillOn(s, 0, a, bytes, (cl_uint)r + 7);
        double t0 = now();
        check(clEnqueueCopyBuffer(s->q[1], a, b, 0, 0, bytes, 0, NULL, NULL), "clEnqueueCopyBuffer");
        check(clFinish(s->q[1]), "clFinish");
        if (r) t[r - 1] = now() - t0;
        checkFirst(s->q[1], b, (cl_uint)r + 7, "copy");
    }
    report("copy", bytes, median(t, reps));
    free(t);
    clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(out);
}

// A context per device, as Hetero's slots: through pinned host memory.
static void throughHost(const cl_device_id* d, size_t bytes, int reps, int pipelined) {
    cl_int err = CL_SUCCESS;
    cl_context c[2];
    cl_command_queue q[2];
    cl_mem dev[2];
    for (int i = 0; i < 2; ++i) {
        c[i] = clCreateContext(NULL, 1, &d[i], NULL, NULL, &err);
        check(err, "clCreateContext");
        q[i] = queueOf(c[i], d[i]);
        dev[i] = buffer(c[i], CL_MEM_READ_WRITE, bytes);
    }
    cl_mem pinned = buffer(c[0], CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes);
    unsigned char* host =
        clEnqueueMapBuffer(q[0], pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
    check(err, "clEnqueueMapBuffer");
    const size_t piece = pipelined ? (size_t)8 << 20 : bytes;
    double* t = malloc(sizeof(double) * (reps + 1));
    for (int r = 0; r <= reps; ++r) {
        cl_uint v = (cl_uint)r + 11;
        check(clEnqueueFillBuffer(q[0], dev[0], &v, sizeof v, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
        check(clFinish(q[0]), "clFinish");
        double t0 = now();
        cl_event prevWrite = NULL;
        for (size_t off = 0; off < bytes; off += piece) {
            size_t len = bytes - off < piece ? bytes - off : piece;
            cl_event read = NULL, write = NULL;
            check(clEnqueueReadBuffer(q[0], dev[0], CL_FALSE, off, len, host + off, 0, NULL, &read), "clEnqueueReadBuffer");
            // The write waits for its read on the host (the queues are of different contexts).
            check(clWaitForEvents(1, &read), "clWaitForEvents");
            check(clEnqueueWriteBuffer(q[1], dev[1], CL_FALSE, off, len, host + off, 0, NULL, &write), "clEnqueueWriteBuffer");
            clFlush(q[1]);
            clReleaseEvent(read);
            if (prevWrite) clReleaseEvent(prevWrite);
            prevWrite = write;
        }
        check(clFinish(q[1]), "clFinish");
        if (prevWrite) clReleaseEvent(prevWrite);
        if (r) t[r - 1] = now() - t0;
        checkFirst(q[1], dev[1], v, pipelined ? "pipelined" : "host");
    }
    report(pipelined ? "pipelined" : "host", bytes, median(t, reps));
    free(t);
    check(clEnqueueUnmapMemObject(q[0], pinned, host, 0, NULL, NULL), "clEnqueueUnmapMemObject");
    clFinish(q[0]);
    clReleaseMemObject(pinned);
    for (int i = 0; i < 2; ++i) clReleaseMemObject(dev[i]), clReleaseCommandQueue(q[i]), clReleaseContext(c[i]);
}

int main(int argc, char** argv) {
    toolName = "peer_copy";
    const char* want = NULL;
    const char* sizes = "1,4,16,64,256";
    const char* modes = "migrate,copy,host,pipelined";
    int reps = 5, first = 0, second = 1;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc) want = argv[++i];
        else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) sizes = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--modes") == 0 && i + 1 < argc) modes = argv[++i];
        else if (strcmp(argv[i], "--devices") == 0 && i + 1 < argc && sscanf(argv[i + 1], "%d,%d", &first, &second) == 2) ++i;
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--sizes MB,...] [--reps R] [--modes migrate,copy,host,pipelined] "
                            "[--devices I,J]\n", argv[0]);
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    cl_platform_id platform = findPlatform(want, 0, platformName, sizeof platformName);
    if (!platform) {
        printf("peer_copy: no platform %s\n", want ? want : "at all");
        return 1;
    }
    cl_device_id all[16];
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, all, &count) != CL_SUCCESS || first < 0 || second < 0 ||
        (cl_uint)first >= count || (cl_uint)second >= count || first == second) {
        printf("peer_copy: platform \"%s\" has %u devices; two different ones are needed\n", platformName, count);
        return 1;
    }
    cl_device_id d[2] = {all[first], all[second]};
    for (int i = 0; i < 2; ++i) {
        char name[256] = "";
        clGetDeviceInfo(d[i], CL_DEVICE_NAME, sizeof name, name, NULL);
        printf("peer_copy device%d=\"%s\"\n", i, name);
    }
    struct Shared shared;
    const int needShared = strstr(modes, "migrate") || strstr(modes, "copy");
    if (needShared) sharedInit(&shared, d);
    for (const char* p = sizes; *p;) {
        size_t bytes = (size_t)(strtod(p, NULL) * 1024 * 1024) & ~(size_t)3;
        if (bytes) {
            if (strstr(modes, "migrate")) migrate(&shared, bytes, reps);
            if (strstr(modes, "copy")) copy(&shared, bytes, reps);
            if (strstr(modes, "host")) throughHost(d, bytes, reps, 0);
            if (strstr(modes, "pipelined")) throughHost(d, bytes, reps, 1);
        }
        p = strchr(p, ',');
        if (!p) break;
        ++p;
    }
    if (needShared) sharedRelease(&shared);
    return 0;
}
