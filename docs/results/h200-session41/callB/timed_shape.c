// Session 41 call B (scratch, native NVIDIA): what the shape of a launch Hetero's auto mode times
// costs natively, against a plain launch: a ~0.1 ms kernel after clFinish, launch + wait, wall time,
// median of 41 after 3 warm-ups. Shapes: plain (no event, clFinish); event (clWaitForEvents);
// side (a second queue with profiling, an event); side+wait (the same, waiting on the first
// queue's complete event); after-side (the first queue again, waiting on the side queue's complete
// event); create (clCreateCommandQueueWithProperties with profiling alone, released after).
//   gcc -O2 timed_shape.c -lOpenCL -o timed_shape
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void check(cl_int e, const char* w) { if (e) { fprintf(stderr, "%s: %d\n", w, e); exit(1); } }
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
static double med(double* v, int n) { qsort(v, n, sizeof *v, cmp); return v[n / 2]; }
int main(void) {
    cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np);
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL); if (strstr(name, "NVIDIA")) p = ps[i]; }
    cl_device_id d; check(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL), "device");
    cl_int err; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err); check(err, "context");
    cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err); check(err, "queue");
    cl_command_queue side = clCreateCommandQueueWithProperties(c, d, prof, &err); check(err, "side");
    const char* src = "__kernel void work(__global float* b, int n) { size_t i = get_global_id(0); float x = b[i];"
                      " for (int r = 0; r < n; ++r) x = x * 0.999f + 0.5f; b[i] = x; }";
    cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &err); check(clBuildProgram(prog, 1, &d, "", NULL, NULL), "build");
    cl_kernel k = clCreateKernel(prog, "work", &err); check(err, "kernel");
    const size_t n = 1 << 20, local = 256;
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err); check(err, "buffer");
    int rounds = 400;
    clSetKernelArg(k, 0, sizeof buf, &buf); clSetKernelArg(k, 1, sizeof rounds, &rounds);
    const char* names[] = {"plain", "event", "side", "side+wait", "after-side", "create"};
    enum { N = 6, R = 41 };
    double t[N][R];
    cl_event lastMain = NULL, lastSide = NULL;
    for (int r = -3; r < R; ++r)
        for (int m = 0; m < N; ++m) {
            // The state before: a launch on the main queue, finished (as after PolyBench's clFinish).
            if (lastMain) clReleaseEvent(lastMain);
            check(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, &lastMain), "before");
            check(clFinish(q), "finish");
            if (m == 4) {  // after-side: the side queue ran the last launch
                if (lastSide) clReleaseEvent(lastSide);
                check(clEnqueueNDRangeKernel(side, k, 1, NULL, &n, &local, 0, NULL, &lastSide), "side before");
                check(clFinish(side), "finish side");
            }
            double t0 = now();
            cl_event e = NULL;
            cl_command_queue made = NULL;
            switch (m) {
            case 0: check(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL), "plain"); check(clFinish(q), "f"); break;
            case 1: check(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, &e), "event"); check(clWaitForEvents(1, &e), "w"); break;
            case 2: check(clEnqueueNDRangeKernel(side, k, 1, NULL, &n, &local, 0, NULL, &e), "side"); check(clWaitForEvents(1, &e), "w"); break;
            case 3: check(clEnqueueNDRangeKernel(side, k, 1, NULL, &n, &local, 1, &lastMain, &e), "side+wait"); check(clWaitForEvents(1, &e), "w"); break;
            case 4: check(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 1, &lastSide, NULL), "after-side"); check(clFinish(q), "f"); break;
            case 5: made = clCreateCommandQueueWithProperties(c, d, prof, &err); check(err, "create"); break;
            }
            if (r >= 0) t[m][r] = now() - t0;
            if (e) clReleaseEvent(e);
            if (made) clReleaseCommandQueue(made);
        }
    for (int m = 0; m < N; ++m) printf("timed_shape %-12s us %.1f\n", names[m], med(t[m], R) * 1e6);
    return 0;
}
