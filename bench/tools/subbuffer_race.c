// Does a backend survive sub-buffers being released while other threads use their parent? The API
// fuzzer crashed inside NVIDIA's clReleaseMemObject of a sub-buffer (docs/results/h100-session8/);
// this asks the backend alone, without Hetero, which pattern crashes it.
//
//   subbuffer_race [--platform NAME] [--seconds S] --mode MODE
//
// One thread creates sub-buffers of a shared parent buffer and releases them; two others read,
// write and map the parent on their own queues and finish them. Each thread keeps to its own
// third of the parent (overlapping maps and writes are undefined in OpenCL). MODE says what the first thread does
// with each sub-buffer before releasing it:
//   idle      nothing (created, released)
//   pending   a non-blocking write to it, released while the write may still be queued
//   finished  a write to it, clFinish, then released
//   alone     as pending, with the two other threads not running
//   kernel    a kernel launched on it (a kernel argument), released while the launch may be queued;
//             the kernel object keeps it as its argument until the next launch sets another
//   kernel-finished  the same, with clFinish before the release
//   unrelated as pending, the two other threads using another buffer instead of the parent
//   locked    as pending, every call of every thread under one process-wide lock, exclusive for
//             the sub-buffer's creation and release (no two calls at once; commands still run
//             concurrently on the device)
//   locked-idle  as idle, under that lock
//   create    sub-buffers created and kept (released only once the other threads stopped)
//   kernel-each  as kernel-finished, with a kernel created for each sub-buffer and released before it
//   kernel-each-early  the same, the kernel released right after its argument was set (no launch)
//   overlap   two overlapping sub-buffers alive at once: both written, finished, the first released
//             first (overlap-reverse: the second first; overlap-idle: neither written;
//             overlap-disjoint: the two do not overlap, for comparison)
// --users N: how many threads use the parent beside (default 2; 0: the sub-buffer thread alone).
// --odd: sub-buffers of 1 to 4096 bytes (any size) rather than 64 KiB.
// Prints "subbuffer_race mode=... subbuffers=N parent_ops=M" and exits 0 when it ran S seconds.
#define _GNU_SOURCE  // pthread_rwlockattr_setkind_np
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kZoneBytes = 4 << 20, kParentBytes = 3 * kZoneBytes, kPiece = 64 << 10 };

static cl_context context;
static cl_device_id device;
static cl_mem parent;
static cl_uint align = 4096;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes
static atomic_int stop;
static atomic_long parentOps, subBuffers;
static const char* mode = "pending";
static int oddSizes;
static cl_mem other;  // mode unrelated: what the two other threads use
static pthread_rwlock_t callLock;  // locked modes (writers first, or the sub-buffer thread starves)
static int locked;
#define SHARED(call) (locked ? pthread_rwlock_rdlock(&callLock) : 0, call_result = (call), locked ? pthread_rwlock_unlock(&callLock) : 0, call_result)
#define EXCLUSIVE(call) (locked ? pthread_rwlock_wrlock(&callLock) : 0, call_result = (call), locked ? pthread_rwlock_unlock(&callLock) : 0, call_result)
static __thread cl_int call_result;
enum { kKeptMax = 1 << 16 };
static cl_mem kept[kKeptMax];  // mode create
static long keptCount;
static cl_program touchProgram;  // kernel-each modes: a kernel per sub-buffer
static cl_kernel touch;  // kernel modes: adds 1 to each int of its argument

static const char* kTouchSource = "__kernel void touch(__global int* p) { p[get_global_id(0)] += 1; }";



static void* useParent(void* arg) {
    const unsigned seed0 = (unsigned)(size_t)arg;  // 2 or 3: its zone
    unsigned seed = seed0;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    static char host[2][kPiece];
    char* mine = host[seed0 & 1];
    cl_mem target = other ? other : parent;
    while (!atomic_load(&stop)) {
        size_t offset = (size_t)(seed0 - 1) * kZoneBytes + (size_t)(rand_r(&seed) % (kZoneBytes / kPiece)) * kPiece;
        switch (rand_r(&seed) % 4) {
        case 0: check(SHARED(clEnqueueWriteBuffer(q, target, CL_FALSE, offset, kPiece, mine, 0, NULL, NULL)), "write"); break;
        case 1: check(SHARED(clEnqueueReadBuffer(q, target, CL_TRUE, offset, kPiece, mine, 0, NULL, NULL)), "read"); break;
        case 2: {
            if (locked) pthread_rwlock_rdlock(&callLock);
            void* p = clEnqueueMapBuffer(q, target, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, offset, kPiece, 0, NULL, NULL, &err);
            if (locked) pthread_rwlock_unlock(&callLock);
            check(err, "map");
            check(SHARED(clEnqueueUnmapMemObject(q, target, p, 0, NULL, NULL)), "unmap");
            break;
        }
        default: check(SHARED(clFinish(q)), "finish");
        }
        atomic_fetch_add(&parentOps, 1);
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void* churnPairs(void* arg) {
    unsigned seed = (unsigned)(size_t)arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    static char data[kPiece];
    const int disjoint = strstr(mode, "disjoint") != NULL;
    while (!atomic_load(&stop)) {
        size_t first = (size_t)(rand_r(&seed) % ((kZoneBytes - 3 * kPiece) / align)) * align;
        size_t second = first + (disjoint ? kPiece : (kPiece / 2 / align) * align);
        cl_buffer_region ra = {first, kPiece}, rb = {second, kPiece};
        cl_mem a = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &ra, &err);
        check(err, "clCreateSubBuffer");
        cl_mem b = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &rb, &err);
        check(err, "clCreateSubBuffer");
        if (!strstr(mode, "idle")) {
            check(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, kPiece, data, 0, NULL, NULL), "write to the first");
            check(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, kPiece, data, 0, NULL, NULL), "write to the second");
            check(clFinish(q), "finish");
        }
        if (strstr(mode, "reverse")) {
            check(clReleaseMemObject(b), "release the second");
            check(clReleaseMemObject(a), "release the first");
        } else {
            check(clReleaseMemObject(a), "release the first");
            check(clReleaseMemObject(b), "release the second");
        }
        atomic_fetch_add(&subBuffers, 2);
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

static void* churnSubBuffers(void* arg) {
    unsigned seed = (unsigned)(size_t)arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, NULL, &err);
    check(err, "clCreateCommandQueueWithProperties");
    static char data[kPiece];
    while (!atomic_load(&stop)) {
        cl_buffer_region region = {(size_t)(rand_r(&seed) % ((kZoneBytes - kPiece) / align)) * align, kPiece};
        if (oddSizes) region.size = 1 + (size_t)(rand_r(&seed) % 4096);
        if (locked) pthread_rwlock_wrlock(&callLock);
        cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        if (locked) pthread_rwlock_unlock(&callLock);
        check(err, "clCreateSubBuffer");
        cl_kernel own = NULL;
        if (touchProgram) {
            own = clCreateKernel(touchProgram, "touch", &err);
            check(err, "clCreateKernel");
            check(clSetKernelArg(own, 0, sizeof sub, &sub), "clSetKernelArg");
            if (strstr(mode, "early")) {
                check(clReleaseKernel(own), "clReleaseKernel");
            } else {
                size_t items = region.size / sizeof(cl_int) ? region.size / sizeof(cl_int) : 1;
                check(clEnqueueNDRangeKernel(q, own, 1, NULL, &items, NULL, 0, NULL, NULL), "clEnqueueNDRangeKernel");
                check(clFinish(q), "finish");
                check(clReleaseKernel(own), "clReleaseKernel");
            }
        } else if (touch) {
            size_t items = region.size / sizeof(cl_int) ? region.size / sizeof(cl_int) : 1;
            check(SHARED(clSetKernelArg(touch, 0, sizeof sub, &sub)), "clSetKernelArg");
            check(SHARED(clEnqueueNDRangeKernel(q, touch, 1, NULL, &items, NULL, 0, NULL, NULL)), "clEnqueueNDRangeKernel");
        } else if (!strstr(mode, "idle")) {
            check(SHARED(clEnqueueWriteBuffer(q, sub, CL_FALSE, 0, region.size, data, 0, NULL, NULL)), "write to the sub-buffer");
        }
        if (!strcmp(mode, "create") && keptCount >= kKeptMax) break;
        if (strstr(mode, "finished")) check(SHARED(clFinish(q)), "finish");
        if (!strcmp(mode, "create") && keptCount < kKeptMax) kept[keptCount++] = sub;
        else check(EXCLUSIVE(clReleaseMemObject(sub)), "clReleaseMemObject(sub-buffer)");
        atomic_fetch_add(&subBuffers, 1);
    }
    clFinish(q);
    clReleaseCommandQueue(q);
    return NULL;
}

int main(int argc, char** argv) {
    toolName = "subbuffer_race";
    const char* want = "NVIDIA";
    double seconds = 10;
    int usersArg = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--platform")) want = argv[i + 1];
        else if (!strcmp(argv[i], "--seconds")) seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--mode")) mode = argv[i + 1];
        else if (!strcmp(argv[i], "--users")) usersArg = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--odd")) oddSizes = atoi(argv[i + 1]);
    }
    char name[256];
    cl_platform_id platform = findPlatform(want, 0, name, sizeof name);
    if (!platform) {
        fprintf(stderr, "subbuffer_race: no platform named like '%s'\n", want);
        return 2;
    }
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), "clGetDeviceIDs");
    cl_uint bits = 0;
    clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL);
    if (bits / 8 > align) align = bits / 8;
    cl_int err;
    context = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    check(err, "clCreateContext");
    parent = clCreateBuffer(context, CL_MEM_READ_WRITE, kParentBytes, NULL, &err);
    check(err, "clCreateBuffer");

    if (!strncmp(mode, "kernel", 6)) {
        cl_program program = clCreateProgramWithSource(context, 1, &kTouchSource, NULL, &err);
        check(err, "clCreateProgramWithSource");
        check(clBuildProgram(program, 1, &device, "", NULL, NULL), "clBuildProgram");
        if (!strncmp(mode, "kernel-each", 11)) {
            touchProgram = program;
        } else {
            touch = clCreateKernel(program, "touch", &err);
            check(err, "clCreateKernel");
            clReleaseProgram(program);
        }
    }
    locked = strncmp(mode, "locked", 6) == 0;
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&callLock, &attr);
    if (!strcmp(mode, "unrelated")) {
        other = clCreateBuffer(context, CL_MEM_READ_WRITE, kParentBytes, NULL, &err);
        check(err, "clCreateBuffer");
    }
    pthread_t threads[3];
    int users = strcmp(mode, "alone") == 0 ? 0 : 2;
    if (usersArg >= 0) users = usersArg < 2 ? usersArg : 2;
    pthread_create(&threads[0], NULL, strncmp(mode, "overlap", 7) ? churnSubBuffers : churnPairs, (void*)1);
    for (int t = 0; t < users; ++t) pthread_create(&threads[1 + t], NULL, useParent, (void*)(size_t)(2 + t));
    double end = now() + seconds;
    while (now() < end) {
        struct timespec s = {0, 50 * 1000 * 1000};
        nanosleep(&s, NULL);
    }
    atomic_store(&stop, 1);
    for (int t = 0; t < 1 + users; ++t) pthread_join(threads[t], NULL);
    for (long i = 0; i < keptCount; ++i) clReleaseMemObject(kept[i]);
    if (touch) clReleaseKernel(touch);
    if (touchProgram) clReleaseProgram(touchProgram);
    if (other) clReleaseMemObject(other);
    clReleaseMemObject(parent);
    clReleaseContext(context);
    printf("subbuffer_race mode=%s subbuffers=%ld parent_ops=%ld\n", mode, atomic_load(&subBuffers),
           atomic_load(&parentOps));
    return 0;
}
