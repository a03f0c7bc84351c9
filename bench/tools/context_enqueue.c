// What it costs the host to start work on several contexts at once, as an N-way split launch does
// (platform/split/nway_split.cpp: each GPU slot has a context of its own; per part a snapshot copy
// kernel, a small kernel and the part's kernel, then a flush). Each round, every context gets that
// group of commands, enqueued either
//   one       from one thread, one context after another (what the N-way launch's thread does), or
//   threads   from one persistent thread per context, all released at once;
// and, as the reference, `alone`: the same group enqueued onto the first context only.
//
//   context_enqueue [--platform NAME] [--devices I,J,...] [--rounds R] [--bytes B]
//
// --devices lists the platform's devices, one context each; a device may be named again
// (0,0,0,0: four contexts on one GPU). One line per pattern, the median over R rounds after two
// warm-ups, of the time from the start of the round to the last flush returned, and of the slowest
// context's own enqueue time:
//   context_enqueue platform="..." contexts=4 mode=one us=812.3 per_context_us=201.1
// Build: part of the CMake build (build/bench/context_enqueue), or
// gcc -O2 -pthread bench/tools/context_enqueue.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <pthread.h>

enum { kMaxContexts = 16 };

static const char* kSource =
    "kernel void copy(global const uint* from, global uint* to) { size_t i = get_global_id(0); to[i] = from[i]; }\n"
    "kernel void reset(global uint* pairs) { pairs[2 * get_global_id(0)] = 0xffffffffu; pairs[2 * get_global_id(0) + 1] = 0; }\n"
    "kernel void work(global uint* a, uint rounds) {\n"
    "  size_t i = get_global_id(0); uint v = a[i];\n"
    "  for (uint r = 0; r < rounds; ++r) v = v * 1664525u + 1013904223u;\n"
    "  a[i] = v;\n"
    "}\n";

struct Slot {
    cl_context context;
    cl_command_queue queue;
    cl_program program;
    cl_kernel copy, reset, work;
    cl_mem data, before, pairs;
    size_t words;
    double enqueueSeconds;  // this round's
    pthread_t thread;
};

static struct Slot slots[kMaxContexts];
static int contexts = 0;
static char platformName[256];

// Synchronization of the persistent threads: `round` goes up to release them, `finished` counts.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int round_ = 0, finished = 0, quitting = 0;

static void setup(struct Slot* s, cl_device_id device, size_t bytes) {
    cl_int err = CL_SUCCESS;
    s->context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    s->queue = clCreateCommandQueueWithProperties(s->context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    s->program = clCreateProgramWithSource(s->context, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(s->program, 1, &device, "", NULL, NULL), "clBuildProgram");
    s->copy = clCreateKernel(s->program, "copy", &err);
    check(err, "clCreateKernel copy");
    s->reset = clCreateKernel(s->program, "reset", &err);
    check(err, "clCreateKernel reset");
    s->work = clCreateKernel(s->program, "work", &err);
    check(err, "clCreateKernel work");
    s->words = bytes / sizeof(cl_uint);
    s->data = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    s->before = clCreateBuffer(s->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    s->pairs = clCreateBuffer(s->context, CL_MEM_READ_WRITE, 64, NULL, &err);
    check(err, "clCreateBuffer");
    cl_uint pattern = 1;
    check(clEnqueueFillBuffer(s->queue, s->data, &pattern, sizeof pattern, 0, bytes, 0, NULL, NULL), "fill");
    check(clFinish(s->queue), "clFinish");
}

// One part's commands, as the N-way launch enqueues them: snapshot, span reset, the kernel, a flush.
static void enqueueGroup(struct Slot* s) {
    const double t0 = now();
    const size_t one = 1;
    const cl_uint rounds = 2000;
    check(clSetKernelArg(s->copy, 0, sizeof(cl_mem), &s->data), "arg");
    check(clSetKernelArg(s->copy, 1, sizeof(cl_mem), &s->before), "arg");
    check(clEnqueueNDRangeKernel(s->queue, s->copy, 1, NULL, &s->words, NULL, 0, NULL, NULL), "copy");
    check(clSetKernelArg(s->reset, 0, sizeof(cl_mem), &s->pairs), "arg");
    check(clEnqueueNDRangeKernel(s->queue, s->reset, 1, NULL, &one, NULL, 0, NULL, NULL), "reset");
    check(clSetKernelArg(s->work, 0, sizeof(cl_mem), &s->data), "arg");
    check(clSetKernelArg(s->work, 1, sizeof rounds, &rounds), "arg");
    check(clEnqueueNDRangeKernel(s->queue, s->work, 1, NULL, &s->words, NULL, 0, NULL, NULL), "work");
    check(clFlush(s->queue), "clFlush");
    s->enqueueSeconds = now() - t0;
}

static void* slotThread(void* arg) {
    struct Slot* s = arg;
    int seen = 0;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (round_ == seen && !quitting) pthread_cond_wait(&changed, &lock);
        if (quitting) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        seen = round_;
        pthread_mutex_unlock(&lock);
        enqueueGroup(s);
        pthread_mutex_lock(&lock);
        ++finished;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
}

static void finishAll(void) {
    for (int i = 0; i < contexts; ++i) check(clFinish(slots[i].queue), "clFinish");
}

// One round of `mode`: its wall time, and the slowest context's own enqueue time in *slowest.
static double runRound(const char* mode, double* slowest) {
    const double t0 = now();
    int used = contexts;
    if (!strcmp(mode, "alone")) {
        used = 1;
        enqueueGroup(&slots[0]);
    } else if (!strcmp(mode, "one")) {
        for (int i = 0; i < contexts; ++i) enqueueGroup(&slots[i]);
    } else {
        pthread_mutex_lock(&lock);
        finished = 0;
        ++round_;
        pthread_cond_broadcast(&changed);
        while (finished < contexts) pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
    }
    const double seconds = now() - t0;
    *slowest = 0;
    for (int i = 0; i < used; ++i)
        if (slots[i].enqueueSeconds > *slowest) *slowest = slots[i].enqueueSeconds;
    finishAll();
    return seconds;
}

int main(int argc, char** argv) {
    toolName = "context_enqueue";
    const char* platformWant = "NVIDIA";
    const char* deviceList = "0,0";
    int rounds = 50;
    size_t bytes = (size_t)1 << 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--platform")) platformWant = argv[i + 1];
        else if (!strcmp(argv[i], "--devices")) deviceList = argv[i + 1];
        else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--bytes")) bytes = (size_t)strtoull(argv[i + 1], NULL, 10);
        else {
            fprintf(stderr, "usage: context_enqueue [--platform NAME] [--devices I,J,...] [--rounds R] [--bytes B]\n");
            return 2;
        }
    }
    if (rounds < 1 || bytes < 64) {
        fprintf(stderr, "context_enqueue: --rounds must be at least 1, --bytes at least 64\n");
        return 2;
    }
    cl_platform_id platform = findPlatform(platformWant, 0, platformName, sizeof platformName);
    if (!platform) {
        fprintf(stderr, "context_enqueue: no platform named like \"%s\"\n", platformWant);
        return 1;
    }
    cl_device_id all[16];
    cl_uint count = 0;
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 16, all, &count), "clGetDeviceIDs");
    for (const char* p = deviceList; *p && contexts < kMaxContexts;) {
        char* end = NULL;
        long index = strtol(p, &end, 10);
        if (end == p || index < 0 || index >= (long)count) {
            fprintf(stderr, "context_enqueue: no device %s (the platform has %u)\n", p, count);
            return 1;
        }
        setup(&slots[contexts++], all[index], bytes);
        p = *end == ',' ? end + 1 : end;
    }
    for (int i = 0; i < contexts; ++i) check(pthread_create(&slots[i].thread, NULL, slotThread, &slots[i]) ? -1 : 0, "pthread_create");

    const char* modes[] = {"alone", "one", "threads"};
    double* wall[3];
    double* slow[3];
    for (int m = 0; m < 3; ++m) {
        wall[m] = malloc(sizeof(double) * rounds);
        slow[m] = malloc(sizeof(double) * rounds);
    }
    double ignored;
    for (int m = 0; m < 3; ++m)
        for (int w = 0; w < 2; ++w) runRound(modes[m], &ignored);
    for (int r = 0; r < rounds; ++r)  // interleaved, so that the machine's moods hit every pattern
        for (int m = 0; m < 3; ++m) wall[m][r] = runRound(modes[m], &slow[m][r]);
    for (int m = 0; m < 3; ++m)
        printf("context_enqueue platform=\"%s\" contexts=%d mode=%s us=%.1f per_context_us=%.1f\n", platformName,
               m == 0 ? 1 : contexts, modes[m], median(wall[m], rounds) * 1e6, median(slow[m], rounds) * 1e6);

    pthread_mutex_lock(&lock);
    quitting = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < contexts; ++i) pthread_join(slots[i].thread, NULL);
    for (int i = 0; i < contexts; ++i) {
        struct Slot* s = &slots[i];
        clReleaseMemObject(s->data), clReleaseMemObject(s->before), clReleaseMemObject(s->pairs);
        clReleaseKernel(s->copy), clReleaseKernel(s->reset), clReleaseKernel(s->work);
        clReleaseProgram(s->program), clReleaseCommandQueue(s->queue), clReleaseContext(s->context);
    }
    for (int m = 0; m < 3; ++m) free(wall[m]), free(slow[m]);
    return 0;
}
