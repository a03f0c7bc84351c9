// Does a backend survive one kernel running from several threads at once, with different global
// offsets and sizes? PoCL 4.0 to 5.0 does not (on the GPU machine, PoCL 5.0 aborted Hetero's
// unified-memory split tests on two PoCL slots): its CPU drivers keep each loaded work-group function
// in a cache entry per kernel hash, local size, zero-or-not global offset and grid width, take a
// reference on the entry a command looks up when the command starts, and give it back when it
// ends by looking up the first entry with the same kernel hash and local size only
// (pocl_release_dlhandle_cache, lib/CL/devices/common.c:922-944 in 5.0). Two commands of one kernel
// in flight at once with different offsets or widths then give back each other's reference, and
// the second one aborts: "Assertion `found->ref_count > 0' failed". PoCL 6.0 gives back the
// entry it took (9184812d6 "fix dlhandle cache"); 3.1 took two references per command and gave
// back one, which hid it. The kernel hash is the program's source and build options with the
// device: two contexts that build the same source share entries.
//
//   pocl_dlhandle_race [--platform NAME] [--threads N] [--launches L] [--mode same|distinct|one-context]
//
// Each thread has a context of its own on the platform's first device (not in mode one-context),
// builds the same source and launches its kernel L times on its own in-order queue, each launch
// finished before the next, with a global offset of 0 or a multiple of 64 and a global size of 64
// to 4096 (local size 64): what the two sides of a split launch do with the chunk variant on two
// slots of one device.
//   same         every context builds with the same options (one kernel hash)
//   distinct     each context adds a -D of its own (a kernel hash of its own: Hetero's workaround,
//                platform/split/variants.cpp)
//   one-context  one context and program for all, a queue and kernel object per thread: what an
//                application with several queues does (Hetero's API fuzzer, or PoCL's own CTS
//                run in the fix's message); nothing Hetero could change
// Prints the platform's version, then "pocl_dlhandle_race mode=M threads=N launches=L ok" and exits
// 0 when every launch ran and every result is right.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <pthread.h>

enum { kItems = 8192, kLocal = 64 };

static const char* kSource = "__kernel void bump(__global int* v) { v[get_global_id(0)] += 1; }\n";
static cl_device_id device;
static const char* mode = "same";
static int launches = 2000;
static cl_context sharedContext;  // mode one-context
static cl_program sharedProgram;

struct Worker {
    int index;
    int bad;  // results that were not right
};

static void* work(void* arg) {
    struct Worker* w = arg;
    cl_int err;
    cl_context context = sharedContext;
    cl_program program = sharedProgram;
    if (!context) {
        context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        check(err, "clCreateContext");
        program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
        check(err, "clCreateProgramWithSource");
        char options[64] = "";
        if (strcmp(mode, "distinct") == 0) snprintf(options, sizeof options, "-DCONTEXT_%d", w->index);
        check(clBuildProgram(program, 1, &device, options, NULL, NULL), "clBuildProgram");
    }
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    cl_kernel kernel = clCreateKernel(program, "bump", &err);
    check(err, "clCreateKernel");
    static int zeros[kItems];
    cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zeros, zeros, &err);
    check(err, "clCreateBuffer");
    check(clSetKernelArg(kernel, 0, sizeof buf, &buf), "clSetKernelArg");
    int* expected = calloc(kItems, sizeof *expected);
    unsigned seed = 12345u + (unsigned)w->index;
    for (int i = 0; i < launches; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const size_t groups = 1 + (seed >> 8) % 64;                          // 64 .. 4096 items
        const size_t first = (seed >> 20) % 2 ? (seed >> 24) % (kItems / kLocal - groups + 1) : 0;
        const size_t offset = first * kLocal, global = groups * kLocal, local = kLocal;
        check(clEnqueueNDRangeKernel(queue, kernel, 1, &offset, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
        check(clFinish(queue), "clFinish");
        for (size_t j = offset; j < offset + global; ++j) ++expected[j];
    }
    int* back = malloc(sizeof zeros);
    check(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof zeros, back, 0, NULL, NULL), "clEnqueueReadBuffer");
    for (int j = 0; j < kItems; ++j) w->bad += back[j] != expected[j];
    free(back), free(expected);
    clReleaseMemObject(buf), clReleaseKernel(kernel), clReleaseCommandQueue(queue);
    if (!sharedContext) clReleaseProgram(program), clReleaseContext(context);
    return NULL;
}

int main(int argc, char** argv) {
    toolName = "pocl_dlhandle_race";
    const char* platformName = "Portable Computing Language";
    int threads = 2;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--platform") == 0) platformName = argv[i + 1];
        else if (strcmp(argv[i], "--threads") == 0) threads = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--launches") == 0) launches = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0) mode = argv[i + 1];
        else {
            fprintf(stderr, "usage: pocl_dlhandle_race [--platform NAME] [--threads N] [--launches L] [--mode same|distinct|one-context]\n");
            return 2;
        }
    }
    if (threads < 1 || threads > 64 || launches < 1 ||
        (strcmp(mode, "same") && strcmp(mode, "distinct") && strcmp(mode, "one-context"))) {
        fprintf(stderr, "pocl_dlhandle_race: bad --threads, --launches or --mode\n");
        return 2;
    }
    char name[256] = "", version[256] = "";
    cl_platform_id platform = findPlatform(platformName, 0, name, sizeof name);
    if (!platform || !(device = firstDevice(platform))) {
        fprintf(stderr, "pocl_dlhandle_race: no device on a platform named '%s'\n", platformName);
        return 1;
    }
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof version, version, NULL);
    printf("pocl_dlhandle_race: %s\n", version);
    fflush(stdout);  // before an abort
    if (strcmp(mode, "one-context") == 0) {
        cl_int err;
        sharedContext = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
        check(err, "clCreateContext");
        sharedProgram = clCreateProgramWithSource(sharedContext, 1, &kSource, NULL, &err);
        check(err, "clCreateProgramWithSource");
        check(clBuildProgram(sharedProgram, 1, &device, "", NULL, NULL), "clBuildProgram");
    }
    pthread_t ids[64];
    struct Worker workers[64];
    for (int t = 0; t < threads; ++t) {
        workers[t].index = t, workers[t].bad = 0;
        if (pthread_create(&ids[t], NULL, work, &workers[t]) != 0) return 1;
    }
    int bad = 0;
    for (int t = 0; t < threads; ++t) pthread_join(ids[t], NULL), bad += workers[t].bad;
    if (bad) {
        printf("pocl_dlhandle_race mode=%s threads=%d launches=%d: %d wrong results\n", mode, threads, launches, bad);
        return 1;
    }
    printf("pocl_dlhandle_race mode=%s threads=%d launches=%d ok\n", mode, threads, launches);
    return 0;
}
