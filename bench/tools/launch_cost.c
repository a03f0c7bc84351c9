// What one kernel launch costs on one OpenCL platform, by command pattern: the time per launch of
// N launches of a small kernel, enqueued back to back (the enqueuing thread's cost), and until
// they are finished. bench/tools/launch_cost.py runs it natively and through Hetero side by side.
//
//   launch_cost [--platform NAME] [--launches N] [--rounds R] [--groups G] [--patterns LIST]
//               [--callback-first] [--neighbour pause|yield] [--list]
//
// --platform: part of the platform's name (default: the first platform). --patterns: comma
// separated, default "plain,event,profiling,profiling+event,all-args"; "all" adds the patterns
// that explain a driver's costs (callbacks, flushes, markers). Every launch sets a scalar argument
// first, as a loop of launches with a changing argument does; all-args sets the buffer argument
// again too (the same buffer), as PolyBench's loops do. One line per pattern:
//   launch_cost platform="..." pattern=plain launches=4096 enqueue_us=1.23 total_us=4.56
// (the median of R rounds after one warm-up round). --callback-first: before any pattern, one
// completion callback on a marker, heard before the launches start (does a callback that has
// already run still cost every later launch? On NVIDIA: docs/results/h100-session13). --neighbour:
// one more thread busy-waits the whole time (pause instructions, or sched_yield in a loop), as a
// thread waiting for Hetero's launch pipe does: whether a spinning neighbour slows the launching
// thread (it is no OpenCL call: anything it changes is the machine's). Under callgrind, the launches of each pattern
// run inside launch_loop() (valgrind --tool=callgrind --toggle-collect=launch_loop counts them).
// Build: part of the CMake build (build/bench/launch_cost), or gcc -O2 bench/tools/launch_cost.c -lOpenCL.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>

// --neighbour: what the busy thread does until told to stop.
static int neighbourStop;
static void* neighbour(void* mode) {
    const int yield = strcmp((const char*)mode, "yield") == 0;
    while (!__atomic_load_n(&neighbourStop, __ATOMIC_ACQUIRE)) {
        if (yield) {
            sched_yield();
        } else {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
    }
    return NULL;
}


static void CL_CALLBACK noop(cl_event e, cl_int s, void* u) {
    (void)e, (void)s;
    __atomic_add_fetch((long*)u, 1, __ATOMIC_RELAXED);
}

// What a pattern does per launch.
struct Pattern {
    const char* name;
    int profiling;      // on a queue with CL_QUEUE_PROFILING_ENABLE
    int event;          // asks for the launch's event (and releases it)
    int callback;       // sets a completion callback on it
    int flush;          // clFlush after each launch (16: after every 16th)
    int getinfo;        // asks the event's queue
    int markerEvery;    // a marker with a callback before every n-th launch (how auto mode once timed)
    int allArgs;        // sets the buffer argument too before every launch, as PolyBench's loops do
};

static const struct Pattern patterns[] = {
    {"plain", 0, 0, 0, 0, 0, 0, 0},
    {"event", 0, 1, 0, 0, 0, 0, 0},
    {"profiling", 1, 0, 0, 0, 0, 0, 0},
    {"profiling+event", 1, 1, 0, 0, 0, 0, 0},
    {"all-args", 0, 0, 0, 0, 0, 0, 1},
    // "all" adds these:
    {"event+callback", 0, 1, 1, 0, 0, 0, 0},
    {"flush", 0, 0, 0, 1, 0, 0, 0},
    {"event+callback+flush", 0, 1, 1, 1, 0, 0, 0},
    {"event+getinfo+callback+flush", 0, 1, 1, 1, 1, 0, 0},
    {"flush/16+event+callback", 0, 1, 1, 16, 0, 0, 0},
    {"marker+callback/16", 0, 0, 0, 0, 0, 16, 0},
};
enum { kDefaultPatterns = 5, kPatterns = sizeof patterns / sizeof patterns[0] };

static long callbacks;
// --groups: work-groups of 256 items per launch. 4 (the default) fit any GPU at once, so Hetero
// decides at once not to split; more than the GPU has compute units (133 and up on an H200) take auto
// mode's history into every decision (platform/split/decision.cpp).
static size_t groups = 4;

// `n` launches in `pattern` on `q`.
static void launches(const struct Pattern* p, cl_command_queue q, cl_kernel k, cl_mem a, int n) {
    size_t g = groups * 256, l = 256;
    for (int i = 0; i < n; ++i) {
        if (p->allArgs) clSetKernelArg(k, 0, sizeof a, &a);
        clSetKernelArg(k, 1, sizeof i, &i);
        if (p->markerEvery && i % p->markerEvery == 0) {
            cl_event m = NULL;
            clEnqueueMarkerWithWaitList(q, 0, NULL, &m);
            clSetEventCallback(m, CL_COMPLETE, noop, &callbacks);
            clReleaseEvent(m);
        }
        cl_event e = NULL;
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, p->event ? &e : NULL);
        if (p->getinfo) {
            cl_command_queue of;
            clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof of, &of, NULL);
        }
        if (p->callback) clSetEventCallback(e, CL_COMPLETE, noop, &callbacks);
        if (p->flush == 1 || (p->flush > 1 && i % p->flush == p->flush - 1)) clFlush(q);
        if (e) clReleaseEvent(e);
    }
}

// The measured rounds and the warm-up round, apart, so that callgrind can count only the former.
__attribute__((noinline)) void launch_loop(const struct Pattern* p, cl_command_queue q, cl_kernel k, cl_mem a, int n) {
    launches(p, q, k, a, n);
}
__attribute__((noinline)) void warmup_loop(const struct Pattern* p, cl_command_queue q, cl_kernel k, cl_mem a, int n) {
    launches(p, q, k, a, n);
}


static int wanted(const char* list, const char* name, int index) {
    if (!list) return index < kDefaultPatterns;
    if (strcmp(list, "all") == 0) return 1;
    size_t n = strlen(name);
    for (const char* s = list; (s = strstr(s, name)) != NULL; s += n)
        if ((s == list || s[-1] == ',') && (s[n] == ',' || s[n] == '\0')) return 1;
    return 0;
}

int main(int argc, char** argv) {
    toolName = "launch_cost";
    const char* want = NULL;
    const char* list = NULL;
    const char* neighbourMode = NULL;
    int count = 4096, rounds = 3, listOnly = 0, callbackFirst = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--platform") == 0 && i + 1 < argc) want = argv[++i];
        else if (strcmp(argv[i], "--launches") == 0 && i + 1 < argc) count = atoi(argv[++i]);
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--groups") == 0 && i + 1 < argc) groups = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--patterns") == 0 && i + 1 < argc) list = argv[++i];
        else if (strcmp(argv[i], "--list") == 0) listOnly = 1;
        else if (strcmp(argv[i], "--callback-first") == 0) callbackFirst = 1;
        else if (strcmp(argv[i], "--neighbour") == 0 && i + 1 < argc) neighbourMode = argv[++i];
        else if (argv[i][0] != '-') want = argv[i];  // the old form: launch_cost NVIDIA
        else {
            fprintf(stderr, "usage: %s [--platform NAME] [--launches N] [--rounds R] [--groups G] [--patterns LIST|all] [--callback-first] [--neighbour pause|yield] [--list]\n", argv[0]);
            return 2;
        }
    }
    if (count < 1 || rounds < 1 || rounds > 99 || groups < 1 || groups > (1u << 20)) return 2;
    if (neighbourMode && strcmp(neighbourMode, "pause") != 0 && strcmp(neighbourMode, "yield") != 0) {
        fprintf(stderr, "%s: --neighbour is pause or yield\n", argv[0]);
        return 2;
    }
    char name[256] = "";
    cl_platform_id p = findPlatform(want, listOnly, name, sizeof name);
    if (listOnly) return 0;
    if (!p) {
        printf("launch_cost: no platform %s\n", want ? want : "at all");
        return 1;
    }
    cl_device_id d = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL) != CL_SUCCESS) {
        printf("launch_cost: platform \"%s\" has no device\n", name);
        return 1;
    }
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue plainQueue = clCreateCommandQueueWithProperties(c, d, NULL, &err);
    cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue profilingQueue = clCreateCommandQueueWithProperties(c, d, prof, &err);
    const char* src = "__kernel void k(__global float* a, int i) { a[get_global_id(0)] += (float)i; }";
    cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    if (clBuildProgram(pr, 1, &d, "", NULL, NULL) != CL_SUCCESS) {
        printf("launch_cost: the kernel did not build\n");
        return 1;
    }
    cl_kernel k = clCreateKernel(pr, "k", &err);
    cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, groups * 256 * sizeof(float), NULL, &err);
    clSetKernelArg(k, 0, sizeof a, &a);
    if (callbackFirst) {
        cl_event m = NULL;
        clEnqueueMarkerWithWaitList(plainQueue, 0, NULL, &m);
        clSetEventCallback(m, CL_COMPLETE, noop, &callbacks);
        clFinish(plainQueue);
        clReleaseEvent(m);
        for (double t0 = now(); __atomic_load_n(&callbacks, __ATOMIC_RELAXED) == 0 && now() - t0 < 5;) {}
    }
    pthread_t busy;
    if (neighbourMode && pthread_create(&busy, NULL, neighbour, (void*)neighbourMode) != 0) {
        printf("launch_cost: no neighbour thread\n");
        return 1;
    }
    for (int v = 0; v < kPatterns; ++v) {
        const struct Pattern* pat = &patterns[v];
        if (!wanted(list, pat->name, v)) continue;
        cl_command_queue q = pat->profiling ? profilingQueue : plainQueue;
        double enqueue[100], total[100];
        for (int r = -1; r < rounds; ++r) {  // round -1 warms up (kernel loading, first-use costs)
            clFinish(q);
            double t0 = now();
            if (r < 0)
                warmup_loop(pat, q, k, a, count);
            else
                launch_loop(pat, q, k, a, count);
            double te = now();
            clFinish(q);
            double t1 = now();
            if (r < 0) continue;
            enqueue[r] = (te - t0) / count * 1e6;
            total[r] = (t1 - t0) / count * 1e6;
        }
        qsort(enqueue, rounds, sizeof(double), compareDoubles);
        qsort(total, rounds, sizeof(double), compareDoubles);
        printf("launch_cost platform=\"%s\" pattern=%s launches=%d enqueue_us=%.3f total_us=%.3f%s%s\n", name, pat->name,
               count, enqueue[rounds / 2], total[rounds / 2], neighbourMode ? " neighbour=" : "",
               neighbourMode ? neighbourMode : "");
        fflush(stdout);
    }
    if (neighbourMode) {
        __atomic_store_n(&neighbourStop, 1, __ATOMIC_RELEASE);
        pthread_join(busy, NULL);
    }
    clReleaseMemObject(a), clReleaseKernel(k), clReleaseProgram(pr);
    clReleaseCommandQueue(plainQueue), clReleaseCommandQueue(profilingQueue), clReleaseContext(c);
    return 0;
}
