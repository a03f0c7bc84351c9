// What an application's OpenCL calls cost it, from inside an unmodified program (LD_PRELOAD), on
// any platform: a native run and a run through Hetero side by side. Through Hetero on an H100,
// PolyBench's adi paid 8.5 us per launch against 4.9 natively while Hetero's own part was about
// 0.9 us (docs/results/h100-session19): NVIDIA's own call had got slower inside Hetero. This tool
// times the program's calls and can do to a native run, one thing at a time, what Hetero does
// besides the launches, to find which of them slows NVIDIA's later launches:
//
//   CALL_CLOCK_FLUSH_EVERY=N     clFlush after every Nth launch on a queue (Hetero: 16)
//   CALL_CLOCK_PINNED_MB=N       at the first launch, a mapped CL_MEM_ALLOC_HOST_PTR buffer of N MiB
//                                in the queue's context (Hetero's pinned host copies and staging)
//   CALL_CLOCK_EXTRA_QUEUES=N    at the first launch, N more queues on the queue's device, with
//                                profiling, each given a marker and finished (Hetero's timing and
//                                transfer queues, the clock calibration's queue)
//   CALL_CLOCK_PROFILING=1       every queue the program creates has profiling on
//   CALL_CLOCK_EVENT=1           every launch asks for an event, released at once
//   CALL_CLOCK_WAIT_PREVIOUS=1   every launch names the previous launch's event (implies EVENT)
//   CALL_CLOCK_ASYNC=1           the program's clSetKernelArg and plain launches go through a ring to
//                                one submitting thread, which makes the calls (every other timed
//                                call waits for the ring to empty first): whether a launch-bound
//                                program keeps NVIDIA's pace when another thread makes its calls.
//                                For one application thread (PolyBench's); the times counted for
//                                those two are the submitting thread's.
//
// At exit, on stderr, one line per timed entry point, and for clEnqueueNDRangeKernel the mean of each
// tenth of the launches in order (whether the cost grows over the run):
//   call_clock: clEnqueueNDRangeKernel calls=200050 mean_us=4.93 median_us=4.71 tenths_us=4.8,4.9,...
// CALL_CLOCK_PERIOD=N adds for the launches the median of each position in a period of N launches,
// CALL_CLOCK_FINISH_PERIOD=M the same for clFinish (3mm: three launches and two clFinish per
// repetition, so the first launch after the repetition's writes apart from the two after it):
// positions_us=291.0,186.2,185.9.
// Build: part of the CMake build (build/bench/libcall_clock.so), or
// gcc -O2 -shared -fPIC -Iplatform/include bench/tools/call_clock.c -o libcall_clock.so -ldl -lpthread
// Use: LD_PRELOAD=build/bench/libcall_clock.so ./program
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kLaunchSamples = 1 << 22, kFunctions = 7 };

static const char* kNames[kFunctions] = {"clEnqueueNDRangeKernel", "clSetKernelArg", "clFlush", "clFinish",
                                        "clEnqueueWriteBuffer", "clEnqueueReadBuffer", "clWaitForEvents"};
enum { kLaunch, kSetArg, kFlush, kFinish, kWrite, kRead, kWait };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long calls[kFunctions];
static double seconds[kFunctions];
static float* launchUs;  // every launch's time, in order (up to kLaunchSamples)
static size_t launchCount;
static float* finishUs;  // every clFinish's time, in order (up to kLaunchSamples)
static size_t finishCount;
static long period, finishPeriod;  // CALL_CLOCK_PERIOD, CALL_CLOCK_FINISH_PERIOD
static long flushEvery, pinnedMiB, extraQueues;
static int profiling, withEvent, waitPrevious, perturbed;
static cl_event previous;

// CALL_CLOCK_ASYNC: the ring from the application's thread to the submitting one.
enum { kRing = 4096, kValueBytes = 32 };
typedef struct {
    int launch;  // else clSetKernelArg
    cl_kernel kernel;
    cl_uint index;
    size_t size;
    int hasValue;
    unsigned char value[kValueBytes];
    cl_command_queue queue;
    cl_uint dims;
    int hasOffset, hasLocal;
    size_t offset[3], global[3], local[3];
} Call;
static Call ring[kRing];
static volatile unsigned long long ringHead, ringTail;  // written by the application's / submitting thread
static int async;
static cl_int(CL_API_CALL* realSetArg)(cl_kernel, cl_uint, size_t, const void*);
static cl_int(CL_API_CALL* realLaunch)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                                       cl_uint, const cl_event*, cl_event*);
static void count(int function, double took);
static double now(void);

static void spinOnce(void) { __builtin_ia32_pause(); }

static void* submitting(void* unused) {
    (void)unused;
    for (;;) {
        unsigned long long tail = ringTail;
        while (__atomic_load_n(&ringHead, __ATOMIC_ACQUIRE) == tail) spinOnce();
        Call* c = &ring[tail % kRing];
        double t0 = now();
        if (c->launch) {
            realLaunch(c->queue, c->kernel, c->dims, c->hasOffset ? c->offset : NULL, c->global, c->hasLocal ? c->local : NULL,
                       0, NULL, NULL);
            count(0, now() - t0);
        } else {
            realSetArg(c->kernel, c->index, c->size, c->hasValue ? c->value : NULL);
            count(1, now() - t0);
        }
        __atomic_store_n(&ringTail, tail + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

static Call* ringSlot(void) {
    while (ringHead - __atomic_load_n(&ringTail, __ATOMIC_ACQUIRE) >= kRing) spinOnce();
    return &ring[ringHead % kRing];
}
static void ringPush(void) { __atomic_store_n(&ringHead, ringHead + 1, __ATOMIC_RELEASE); }
static void drain(void) {
    if (!async) return;
    while (__atomic_load_n(&ringTail, __ATOMIC_ACQUIRE) != ringHead) spinOnce();
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void* next(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "call_clock: %s not found after this library\n", name);
        abort();
    }
    return f;
}

static long envLong(const char* name) {
    const char* v = getenv(name);
    return v ? strtol(v, NULL, 10) : 0;
}

static void count(int function, double took) {
    pthread_mutex_lock(&lock);
    ++calls[function];
    seconds[function] += took;
    if (function == kLaunch && launchUs && launchCount < kLaunchSamples) launchUs[launchCount++] = (float)(took * 1e6);
    if (function == kFinish && finishUs && finishCount < kLaunchSamples) finishUs[finishCount++] = (float)(took * 1e6);
    pthread_mutex_unlock(&lock);
}

static int byValue(const void* a, const void* b) {
    float x = *(const float*)a, y = *(const float*)b;
    return x < y ? -1 : x > y;
}

__attribute__((constructor)) static void start(void) {
    flushEvery = envLong("CALL_CLOCK_FLUSH_EVERY");
    pinnedMiB = envLong("CALL_CLOCK_PINNED_MB");
    extraQueues = envLong("CALL_CLOCK_EXTRA_QUEUES");
    profiling = envLong("CALL_CLOCK_PROFILING") != 0;
    waitPrevious = envLong("CALL_CLOCK_WAIT_PREVIOUS") != 0;
    withEvent = waitPrevious || envLong("CALL_CLOCK_EVENT") != 0;
    launchUs = malloc(sizeof(float) * kLaunchSamples);
    finishUs = malloc(sizeof(float) * kLaunchSamples);
    period = envLong("CALL_CLOCK_PERIOD");
    finishPeriod = envLong("CALL_CLOCK_FINISH_PERIOD");
    async = envLong("CALL_CLOCK_ASYNC") != 0;
    if (async) {
        realSetArg = next("clSetKernelArg");
        realLaunch = next("clEnqueueNDRangeKernel");
        pthread_t t;
        pthread_create(&t, NULL, submitting, NULL);
        pthread_detach(t);
    }
}

// The median of the samples at each position of a period of `period` calls.
static void printPositions(const float* samples, size_t n, long period) {
    if (period < 1 || (size_t)period > n) return;
    float* at = malloc(sizeof(float) * (n / (size_t)period + 1));
    fprintf(stderr, " positions_us=");
    for (long p = 0; p < period; ++p) {
        size_t k = 0;
        for (size_t i = (size_t)p; i < n; i += (size_t)period) at[k++] = samples[i];
        qsort(at, k, sizeof(float), byValue);
        fprintf(stderr, "%s%.1f", p ? "," : "", at[k / 2]);
    }
    free(at);
}

__attribute__((destructor)) static void report(void) {
    pthread_mutex_lock(&lock);
    for (int f = 0; f < kFunctions; ++f) {
        if (!calls[f]) continue;
        fprintf(stderr, "call_clock: %s calls=%llu mean_us=%.3f", kNames[f], calls[f], seconds[f] * 1e6 / (double)calls[f]);
        if (f == kFinish) printPositions(finishUs, finishCount, finishPeriod);
        if (f == kLaunch && launchCount) {
            printPositions(launchUs, launchCount, period);
            fprintf(stderr, " tenths_us=");
            for (int t = 0; t < 10; ++t) {
                size_t from = launchCount * t / 10, to = launchCount * (t + 1) / 10;
                double sum = 0;
                for (size_t i = from; i < to; ++i) sum += launchUs[i];
                fprintf(stderr, "%s%.2f", t ? "," : "", to > from ? sum / (double)(to - from) : 0.0);
            }
            qsort(launchUs, launchCount, sizeof(float), byValue);
            fprintf(stderr, " median_us=%.3f p90_us=%.3f", launchUs[launchCount / 2], launchUs[launchCount * 9 / 10]);
        }
        fprintf(stderr, "\n");
    }
    pthread_mutex_unlock(&lock);
}

// What Hetero does besides the launches, done once before the program's first launch.
static void perturb(cl_command_queue queue) {
    cl_context context;
    cl_device_id device;
    clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, NULL);
    clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, NULL);
    cl_int err = CL_SUCCESS;
    if (pinnedMiB > 0) {
        size_t bytes = (size_t)pinnedMiB << 20;
        cl_mem pinned = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
        void* p = pinned ? clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err) : NULL;
        if (p) memset(p, 0, bytes);  // kept mapped to the end, as Hetero's are
        fprintf(stderr, "call_clock: %ld MiB pinned: %s\n", pinnedMiB, p ? "mapped" : "failed");
    }
    for (long q = 0; q < extraQueues; ++q) {
        cl_command_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue extra = clCreateCommandQueueWithProperties(context, device, props, &err);
        if (!extra) continue;
        clEnqueueMarkerWithWaitList(extra, 0, NULL, NULL);
        clFinish(extra);  // kept to the end, as Hetero's are
    }
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                 const cl_queue_properties* properties, cl_int* err) {
    static cl_command_queue(CL_API_CALL * real)(cl_context, cl_device_id, const cl_queue_properties*, cl_int*);
    if (!real) real = next("clCreateCommandQueueWithProperties");
    cl_queue_properties props[16] = {0};
    int n = 0, sawProperties = 0;
    for (const cl_queue_properties* p = properties; p && *p && n < 12; p += 2) {
        props[n] = p[0];
        props[n + 1] = p[1];
        if (p[0] == CL_QUEUE_PROPERTIES && profiling) props[n + 1] |= CL_QUEUE_PROFILING_ENABLE, sawProperties = 1;
        n += 2;
    }
    if (profiling && !sawProperties) props[n++] = CL_QUEUE_PROPERTIES, props[n++] = CL_QUEUE_PROFILING_ENABLE;
    props[n] = 0;
    return real(context, device, props, err);
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties, cl_int* err) {
    static cl_command_queue(CL_API_CALL * real)(cl_context, cl_device_id, cl_command_queue_properties, cl_int*);
    if (!real) real = next("clCreateCommandQueue");
    return real(context, device, properties | (profiling ? CL_QUEUE_PROFILING_ENABLE : 0), err);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* offset,
                                          const size_t* global, const size_t* local, cl_uint waits,
                                          const cl_event* waitList, cl_event* event) {
    static cl_int(CL_API_CALL * real)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                                      cl_uint, const cl_event*, cl_event*);
    static cl_int(CL_API_CALL * flush)(cl_command_queue);
    static unsigned long long launches;
    if (!real) real = next("clEnqueueNDRangeKernel"), flush = next("clFlush");
    if (!perturbed) {
        perturbed = 1;
        drain();
        perturb(queue);
    }
    if (async && waits == 0 && !event && dims <= 3) {
        Call* c = ringSlot();
        c->launch = 1;
        c->queue = queue;
        c->kernel = kernel;
        c->dims = dims;
        c->hasOffset = offset != NULL;
        c->hasLocal = local != NULL;
        for (cl_uint d = 0; d < dims; ++d) {
            c->offset[d] = offset ? offset[d] : 0;
            c->global[d] = global[d];
            c->local[d] = local ? local[d] : 0;
        }
        ringPush();
        return CL_SUCCESS;  // an experiment: errors are not reported
    }
    drain();
    cl_event own = NULL;
    cl_event wait[1];
    if (waitPrevious && previous && waits == 0) wait[0] = previous, waits = 1, waitList = wait;
    double t0 = now();
    cl_int r = real(queue, kernel, dims, offset, global, local, waits, waitList, event ? event : withEvent ? &own : NULL);
    if (flushEvery > 0 && ++launches % (unsigned long long)flushEvery == 0) flush(queue);
    count(kLaunch, now() - t0);
    if (waitPrevious) {
        if (previous) clReleaseEvent(previous);
        previous = own;
    } else if (own) {
        clReleaseEvent(own);
    }
    return r;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint index, size_t size, const void* value) {
    static cl_int(CL_API_CALL * real)(cl_kernel, cl_uint, size_t, const void*);
    if (!real) real = next("clSetKernelArg");
    if (async && size <= kValueBytes) {
        Call* c = ringSlot();
        c->launch = 0;
        c->kernel = kernel;
        c->index = index;
        c->size = size;
        c->hasValue = value != NULL;
        if (value) memcpy(c->value, value, size);
        ringPush();
        return CL_SUCCESS;
    }
    drain();
    double t0 = now();
    cl_int r = real(kernel, index, size, value);
    count(kSetArg, now() - t0);
    return r;
}

cl_int CL_API_CALL clFlush(cl_command_queue queue) {
    static cl_int(CL_API_CALL * real)(cl_command_queue);
    if (!real) real = next("clFlush");
    drain();
    double t0 = now();
    cl_int r = real(queue);
    count(kFlush, now() - t0);
    return r;
}

cl_int CL_API_CALL clFinish(cl_command_queue queue) {
    static cl_int(CL_API_CALL * real)(cl_command_queue);
    if (!real) real = next("clFinish");
    drain();
    double t0 = now();
    cl_int r = real(queue);
    count(kFinish, now() - t0);
    return r;
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                        const void* ptr, cl_uint waits, const cl_event* waitList, cl_event* event) {
    static cl_int(CL_API_CALL * real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void*, cl_uint,
                                      const cl_event*, cl_event*);
    if (!real) real = next("clEnqueueWriteBuffer");
    drain();
    double t0 = now();
    cl_int r = real(queue, buffer, blocking, offset, size, ptr, waits, waitList, event);
    count(kWrite, now() - t0);
    return r;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                       void* ptr, cl_uint waits, const cl_event* waitList, cl_event* event) {
    static cl_int(CL_API_CALL * real)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, void*, cl_uint, const cl_event*,
                                      cl_event*);
    if (!real) real = next("clEnqueueReadBuffer");
    drain();
    double t0 = now();
    cl_int r = real(queue, buffer, blocking, offset, size, ptr, waits, waitList, event);
    count(kRead, now() - t0);
    return r;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event* events) {
    static cl_int(CL_API_CALL * real)(cl_uint, const cl_event*);
    if (!real) real = next("clWaitForEvents");
    drain();
    double t0 = now();
    cl_int r = real(n, events);
    count(kWait, now() - t0);
    return r;
}
