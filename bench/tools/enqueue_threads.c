// Whether commands enqueued from threads other than the launching one change what a launch costs
// afterwards, natively. Through Hetero on an H100, whole writes whose pieces were enqueued by the
// copying threads made every later launch of the process slower (adi 10.9-12.4 ms against
// 14.9-17.0: docs/results/h100-session19); this asks NVIDIA (or any platform) directly.
//
// The main thread times L launches of a small kernel (three buffers and two ints set before each,
// as PolyBench's adi does), R rounds; then comes the interlude; then it times R rounds of L launches
// again. Interludes:
//   none      nothing
//   main      the main thread enqueues the writes itself (the same commands as below)
//   other     one other thread enqueues them, alone, and ends
//   other-queue  the same on a second queue of the context (as a split launch's thread sends the
//             CPU's results on a transfer queue of the GPU's: platform/split/discrete_split.cpp)
//   threads   T threads enqueue their share of them at once, each write followed by a flush (what
//             Hetero's pieces did until ba82640)
//   copies    T threads only copy memory (no OpenCL call) while the main thread enqueues the writes
// The writes: W writes of 1 MiB from ordinary memory into one buffer, on the launches' queue. An
// effect may last for the rest of the process: run each interlude in a process of its own.
//
//   enqueue_threads [--platform NAME] [--interlude NAME] [--launches L] [--rounds R] [--threads T] [--writes W]
//
// One line, the medians over the rounds of the time per launch on the enqueuing thread:
//   enqueue_threads platform="..." interlude=threads threads=8 before_us=4.81 after_us=7.90
// Build: part of the CMake build (build/bench/enqueue_threads), or
// gcc -O2 -pthread -Iplatform/include bench/tools/enqueue_threads.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <pthread.h>

static const char* kSource =
    "kernel void advance(global const float* a, global float* b, global float* x, int i1, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) x[i] = x[i] + a[i] * b[i] + (float)i1;\n"
    "}\n";

enum { kItems = 1024, kPiece = 1 << 20, kMaxThreads = 64 };

static cl_command_queue queue;     // the launches'
static cl_command_queue writesOn;  // the writes' (the launches' queue but for other-queue)
static cl_kernel kernel;
static cl_mem a, b, x, target;
static unsigned char* source;  // W pieces of application memory to write
static unsigned char* scratch;  // where the copying threads copy to
static int writes = 32, threads = 8;

// Per launch, seconds, over `launches` launches (then waits for them).
static double timeLaunches(int launches) {
    const size_t global = kItems, local = 256;
    const cl_int n = kItems;
    double t0 = now();
    for (cl_int i = 0; i < launches; ++i) {
        clSetKernelArg(kernel, 0, sizeof a, &a);
        clSetKernelArg(kernel, 1, sizeof b, &b);
        clSetKernelArg(kernel, 2, sizeof x, &x);
        clSetKernelArg(kernel, 3, sizeof i, &i);
        clSetKernelArg(kernel, 4, sizeof n, &n);
        check(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL), "clEnqueueNDRangeKernel");
    }
    double t = (now() - t0) / launches;
    check(clFinish(queue), "clFinish");
    return t;
}

// Writes pieces first, first + step, ... of `source` into `target`, each with a flush.
static void enqueueWrites(int first, int step) {
    for (int k = first; k < writes; k += step) {
        cl_event e = NULL;
        const size_t at = (size_t)k * kPiece;
        check(clEnqueueWriteBuffer(writesOn, target, CL_FALSE, at, kPiece, source + at, 0, NULL, &e), "clEnqueueWriteBuffer");
        clFlush(writesOn);
        clReleaseEvent(e);
    }
}

struct Share {
    int index, count;  // this thread's pieces: index, index + count, ...
    int enqueue;       // else copy
    pthread_t thread;
};

static void* share(void* p) {
    struct Share* s = p;
    if (s->enqueue) {
        enqueueWrites(s->index, s->count);
    } else {
        for (int k = s->index; k < writes; k += s->count)
            memcpy(scratch + (size_t)k * kPiece, source + (size_t)k * kPiece, kPiece);
    }
    return NULL;
}

static void inThreads(int count, int enqueue) {
    struct Share shares[kMaxThreads];
    for (int i = 0; i < count; ++i) {
        shares[i].index = i;
        shares[i].count = count;
        shares[i].enqueue = enqueue;
        if (pthread_create(&shares[i].thread, NULL, share, &shares[i]) != 0) {
            fprintf(stderr, "%s: pthread_create failed\n", toolName);
            exit(1);
        }
    }
    for (int i = 0; i < count; ++i) pthread_join(shares[i].thread, NULL);
}

int main(int argc, char** argv) {
    toolName = "enqueue_threads";
    const char* want = NULL;
    const char* interlude = "none";
    int launches = 2000, rounds = 7;
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) {
            fprintf(stderr, "%s: %s needs a value\n", toolName, arg);
            return 2;
        }
        if (!strcmp(arg, "--platform")) want = value;
        else if (!strcmp(arg, "--interlude")) interlude = value;
        else if (!strcmp(arg, "--launches")) launches = atoi(value);
        else if (!strcmp(arg, "--rounds")) rounds = atoi(value);
        else if (!strcmp(arg, "--threads")) threads = atoi(value);
        else if (!strcmp(arg, "--writes")) writes = atoi(value);
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--interlude none|main|other|other-queue|threads|copies] "
                            "[--launches L] [--rounds R] [--threads T] [--writes W]\n", toolName);
            return 2;
        }
        ++i;
    }
    const int otherQueue = !strcmp(interlude, "other-queue");
    const int known = !strcmp(interlude, "none") || !strcmp(interlude, "main") || !strcmp(interlude, "other") ||
                      otherQueue || !strcmp(interlude, "threads") || !strcmp(interlude, "copies");
    if (!known || launches < 1 || rounds < 1 || rounds > 1000 || threads < 1 || threads > kMaxThreads || writes < 1) {
        fprintf(stderr, "%s: bad arguments (interludes: none, main, other, other-queue, threads, copies; 1-%d threads)\n",
                toolName, kMaxThreads);
        return 2;
    }

    char name[256] = "";
    cl_platform_id platform = findPlatform(want, 0, name, sizeof name);
    if (!platform) {
        fprintf(stderr, "%s: no platform %s\n", toolName, want ? want : "");
        return 1;
    }
    cl_device_id device = firstDevice(platform);
    if (!device) {
        fprintf(stderr, "%s: the platform has no device\n", toolName);
        return 1;
    }
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    queue = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    writesOn = queue;
    if (otherQueue) {
        writesOn = clCreateCommandQueueWithProperties(context, device, NULL, &err);
        check(err, "clCreateCommandQueueWithProperties");
    }
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
    kernel = clCreateKernel(program, "advance", &err);
    check(err, "clCreateKernel");
    cl_mem* buffers[] = {&a, &b, &x};
    for (int i = 0; i < 3; ++i) {
        *buffers[i] = clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(float), NULL, &err);
        check(err, "clCreateBuffer");
        const float zero = 0;
        check(clEnqueueFillBuffer(queue, *buffers[i], &zero, sizeof zero, 0, kItems * sizeof(float), 0, NULL, NULL),
              "clEnqueueFillBuffer");
    }
    target = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)writes * kPiece, NULL, &err);
    check(err, "clCreateBuffer");
    source = malloc((size_t)writes * kPiece);
    scratch = malloc((size_t)writes * kPiece);
    if (!source || !scratch) {
        fprintf(stderr, "%s: out of memory\n", toolName);
        return 1;
    }
    for (size_t i = 0; i < (size_t)writes * kPiece; ++i) source[i] = (unsigned char)i;
    check(clFinish(queue), "clFinish");

    timeLaunches(launches);  // warm-up: the kernel's first launches
    double* before = malloc(sizeof(double) * rounds);
    double* after = malloc(sizeof(double) * rounds);
    for (int r = 0; r < rounds; ++r) before[r] = timeLaunches(launches);

    if (!strcmp(interlude, "main")) {
        enqueueWrites(0, 1);
    } else if (!strcmp(interlude, "other") || otherQueue) {
        inThreads(1, 1);
    } else if (!strcmp(interlude, "threads")) {
        inThreads(threads, 1);
    } else if (!strcmp(interlude, "copies")) {
        inThreads(threads, 0);
        enqueueWrites(0, 1);
    }
    check(clFinish(writesOn), "clFinish");
    check(clFinish(queue), "clFinish");

    for (int r = 0; r < rounds; ++r) after[r] = timeLaunches(launches);
    // How many threads other than the main one took part.
    const int others = !strcmp(interlude, "threads") || !strcmp(interlude, "copies") ? threads
                       : !strcmp(interlude, "other") || otherQueue                    ? 1
                                                                                      : 0;
    printf("enqueue_threads platform=\"%s\" interlude=%s threads=%d before_us=%.3f after_us=%.3f\n", name, interlude,
           others, median(before, rounds) * 1e6, median(after, rounds) * 1e6);

    free(before);
    free(after);
    free(source);
    free(scratch);
    clReleaseMemObject(target);
    for (int i = 0; i < 3; ++i) clReleaseMemObject(*buffers[i]);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    if (writesOn != queue) clReleaseCommandQueue(writesOn);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}
