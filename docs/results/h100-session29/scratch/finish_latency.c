// Scratch (session 29): how long after a short kernel each way of waiting for it returns, natively.
//   finish_latency PLATFORM [MS] [ROUNDS]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"  // bench/tools
#include <stdio.h>
#include <stdlib.h>

enum { kModes = 5 };
static const char* names[kModes] = {"clFinish", "marker+clWaitForEvents", "kernel event+clWaitForEvents",
                                    "marker+flush+clWaitForEvents", "kernel event+clFinish"};

int main(int argc, char** argv) {
    toolName = "finish_latency";
    char name[256];
    cl_platform_id p = findPlatform(argc > 1 ? argv[1] : NULL, 0, name, sizeof name);
    if (!p) return 1;
    double ms = argc > 2 ? atof(argv[2]) : 0.3;
    int rounds = argc > 3 ? atoi(argv[3]) : 200;
    SpinKernel s = spinKernel(firstDevice(p), ms);
    double* t[kModes];
    for (int m = 0; m < kModes; ++m) t[m] = calloc(rounds, sizeof(double));
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < kModes; ++m) {
            cl_event e = NULL;
            double t0 = now();
            enqueueSpin(&s, (m == 2 || m == 4) ? &e : NULL);
            if (m == 0) check(clFinish(s.queue), "clFinish");
            if (m == 1 || m == 3) {
                check(clEnqueueMarkerWithWaitList(s.queue, 0, NULL, &e), "marker");
                if (m == 3) clFlush(s.queue);
            }
            if (m == 4) check(clFinish(s.queue), "clFinish");
            else if (e) check(clWaitForEvents(1, &e), "wait");
            t[m][r] = (now() - t0) * 1e6;
            if (e) clReleaseEvent(e);
        }
    for (int m = 0; m < kModes; ++m) printf("finish_latency platform=\"%s\" mode=\"%s\" median_us=%.1f\n", name, names[m], median(t[m], rounds));
    releaseSpinKernel(&s);
    return 0;
}
