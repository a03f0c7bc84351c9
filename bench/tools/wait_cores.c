// The backend alone (no Hetero): how many cores a process keeps busy while one long kernel runs on
// the device, by how the host waits for it. NVIDIA's waits spin (sched_yield), which takes a core
// from a CPU device computing beside the GPU (devices/backend_commands.hpp, QuietWaits). Modes:
//   wait        clWaitForEvents on the kernel's event
//   finish      clFinish
//   callback    a completion callback on the kernel's event, the thread asleep until it comes
//   poll        the event's status asked every 100 us, the thread asleep between
//   sleep       no wait at all: the thread sleeps the kernel's time (what the backend does alone)
//   user-marker as sleep, with a marker queued behind a user event the host completes after it
//   user-callback as sleep, with a completion callback pending on a user event
//   user-event  as sleep, with a user event nothing waits for (a split's launch event is one)
//   user-poll   as sleep, asking that user event's status every 100 us (a quiet wait on it)
//   mapped      as sleep, with a pinned buffer (CL_MEM_ALLOC_HOST_PTR) mapped meanwhile, as
//               Hetero keeps its pinned host copies
//   idle-user-event, idle-mapped   as user-event and mapped, with no kernel running
//   after-user-event  as sleep, no kernel, after a user event was made, completed and released
// Prints, per mode, the median over rounds of the process's CPU time over the wall time
// (1.0 = one core busy the whole while) and the wait's wall time.
//   wait_cores [--platform NAME] [--rounds N] [--ms MS] [--mode NAME]
// --mode runs that mode alone: NVIDIA's spinning thread, once woken, may go on spinning into the
// modes after (run each in a process of its own to tell them apart).
#define CL_TARGET_OPENCL_VERSION 300
#include "tool_support.h"

#include <pthread.h>
#include <sys/resource.h>

static double processCpu(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t heard = PTHREAD_COND_INITIALIZER;
static int done = 0;
static void CL_CALLBACK onDone(cl_event e, cl_int status, void* data) {
    (void)e, (void)status, (void)data;
    pthread_mutex_lock(&mutex);
    done = 1;
    pthread_cond_signal(&heard);
    pthread_mutex_unlock(&mutex);
}
static void sleepSeconds(double s) {
    struct timespec t = {(time_t)s, (long)((s - (time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

int main(int argc, char** argv) {
    toolName = "wait_cores";
    const char* want = NULL;
    const char* only = NULL;  // --mode
    int rounds = 5;
    double ms = 50;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--platform")) want = argv[i + 1];
        else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ms")) ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--mode")) only = argv[i + 1];
    }
    char name[256] = "";
    cl_platform_id platform = findPlatform(want, 0, name, sizeof name);
    if (!platform) { fprintf(stderr, "wait_cores: no platform\n"); return 1; }
    cl_device_id device = firstDevice(platform);
    cl_int err;
    SpinKernel spin = spinKernel(device, ms);
    cl_context context = spin.context;
    cl_command_queue queue = spin.queue;
    printf("platform %s, one kernel of about %.0f ms, median of %d rounds\n", name, ms, rounds);
    enum { WAIT, FINISH, CALLBACK, POLL, SLEEP, USER_MARKER, USER_CALLBACK, USER_EVENT, USER_POLL, MAPPED,
           IDLE_USER_EVENT, IDLE_MAPPED, AFTER_USER_EVENT, MODE_COUNT };
    // Per mode: its name; no kernel (a marker instead); a pinned buffer mapped meanwhile; a user event meanwhile.
    static const struct { const char* name; int idle, pinned, user; } kModes[MODE_COUNT] = {
        {"wait", 0, 0, 0},          {"finish", 0, 0, 0},          {"callback", 0, 0, 0},
        {"poll", 0, 0, 0},          {"sleep", 0, 0, 0},           {"user-marker", 0, 0, 1},
        {"user-callback", 0, 0, 1}, {"user-event", 0, 0, 1},      {"user-poll", 0, 0, 1},
        {"mapped", 0, 1, 0},        {"idle-user-event", 1, 0, 1}, {"idle-mapped", 1, 1, 0},
        {"after-user-event", 1, 0, 0}};
    const int modeCount = MODE_COUNT;
    int known = only == NULL;
    for (int m = 0; m < modeCount && !known; ++m) known = !strcmp(only, kModes[m].name);
    if (!known) {
        fprintf(stderr, "wait_cores: no mode %s\n", only);
        return 2;
    }
    for (int m = 0; m < modeCount; ++m) {
        if (only && strcmp(only, kModes[m].name)) continue;
        double cores[64], walls[64];
        for (int r = 0; r < rounds && r < 64; ++r) {
            cl_event e = NULL, user = NULL, marker = NULL;
            cl_mem pinned = NULL;
            void* mapped = NULL;
            const int idle = kModes[m].idle;
            if (kModes[m].pinned) {
                pinned = clCreateBuffer(context, CL_MEM_ALLOC_HOST_PTR, 16 << 20, NULL, &err);
                check(err, "clCreateBuffer");
                mapped = clEnqueueMapBuffer(queue, pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 16 << 20, 0, NULL, NULL, &err);
                check(err, "clEnqueueMapBuffer");
            }
            if (m == AFTER_USER_EVENT) {
                cl_event gone = clCreateUserEvent(context, &err);
                check(err, "clCreateUserEvent");
                check(clSetUserEventStatus(gone, CL_COMPLETE), "clSetUserEventStatus");
                clReleaseEvent(gone);
            }
            if (idle)
                check(clEnqueueMarkerWithWaitList(queue, 0, NULL, &e), "marker");
            else
                enqueueSpin(&spin, &e);
            check(clFlush(queue), "clFlush");
            if (kModes[m].user) {
                user = clCreateUserEvent(context, &err);
                check(err, "clCreateUserEvent");
                if (m == USER_MARKER) check(clEnqueueMarkerWithWaitList(queue, 1, &user, &marker), "marker");
                if (m == USER_CALLBACK) check(clSetEventCallback(user, CL_COMPLETE, onDone, NULL), "clSetEventCallback");
                check(clFlush(queue), "clFlush");
            }
            done = 0;
            double c0 = processCpu(), t0 = now();
            switch (m) {
            case WAIT: check(clWaitForEvents(1, &e), "clWaitForEvents"); break;
            case FINISH: check(clFinish(queue), "clFinish"); break;
            case CALLBACK:
                check(clSetEventCallback(e, CL_COMPLETE, onDone, NULL), "clSetEventCallback");
                pthread_mutex_lock(&mutex);
                while (!done) pthread_cond_wait(&heard, &mutex);
                pthread_mutex_unlock(&mutex);
                break;
            case POLL:
                for (cl_int st = CL_QUEUED; st > CL_COMPLETE; sleepSeconds(100e-6))
                    check(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), "clGetEventInfo");
                break;
            case USER_POLL:
                for (double until = now() + ms * 1e-3; now() < until; sleepSeconds(100e-6)) {
                    cl_int st = CL_QUEUED;
                    check(clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), "clGetEventInfo");
                }
                break;
            default: sleepSeconds(ms * 1e-3); break;
            }
            double wall = now() - t0, cpu = processCpu() - c0;
            if (user) check(clSetUserEventStatus(user, CL_COMPLETE), "clSetUserEventStatus");
            check(clFinish(queue), "clFinish");
            cores[r] = cpu / wall;
            walls[r] = wall * 1e3;
            clReleaseEvent(e);
            if (marker) clReleaseEvent(marker);
            if (user) clReleaseEvent(user);
            if (mapped) {
                check(clEnqueueUnmapMemObject(queue, pinned, mapped, 0, NULL, NULL), "clEnqueueUnmapMemObject");
                check(clFinish(queue), "clFinish");
            }
            if (pinned) clReleaseMemObject(pinned);
        }
        int n = rounds < 64 ? rounds : 64;
        printf("%-16s cores busy %.2f  wall %.2f ms\n", kModes[m].name, median(cores, n), median(walls, n));
    }
    releaseSpinKernel(&spin);
    return 0;
}
