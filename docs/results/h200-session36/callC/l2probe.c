// What between two launches of a row-reading kernel makes NVIDIA's second launch cold?
#define _POSIX_C_SOURCE 200112L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
#define C(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static const char* src =
    "__kernel void rows(__global const float* a, __global const float* b, __global const float* c,\n"
    "                   __global const float* d, __global float* out, int n) {\n"
    "  int i = get_global_id(0);\n  if (i >= n) return;\n  float s = 0.0f;\n"
    "  for (int j = 0; j < n; ++j) s += a[i * n + j] + b[i * n + j] + c[i * n + j] + d[i * n + j];\n"
    "  out[i] = s;\n}\n";
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
int main(int argc, char** argv) {
    size_t bytes = 6760000; int rounds = 30;
    cl_platform_id ps[8]; cl_uint np; C(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, argc > 1 ? argv[1] : "NVIDIA")) p = ps[i]; }
    if (!p) return 1;
    cl_device_id dev; C(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, 0));
    cl_int err; cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &err); C(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); C(err);
    cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &err); C(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, 0, &err); C(err);
    C(clBuildProgram(prog, 1, &dev, "", 0, 0));
    cl_kernel k = clCreateKernel(prog, "rows", &err); C(err);
    int n = (int)sqrt((double)(bytes / 4)); size_t g = (n + 255) / 256 * 256, l = 256;
    float* host = malloc(bytes); for (size_t i = 0; i < bytes / 4; ++i) host[i] = (float)(i % 97);
    cl_mem in[4], out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, 0, &err);
    for (int b = 0; b < 4; ++b) { in[b] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, 0, &err); C(err); C(clEnqueueWriteBuffer(q, in[b], CL_TRUE, 0, bytes, host, 0, 0, 0)); C(clSetKernelArg(k, b, sizeof(cl_mem), &in[b])); }
    C(clSetKernelArg(k, 4, sizeof(cl_mem), &out)); C(clSetKernelArg(k, 5, sizeof n, &n));
    const char* modes[] = {"nothing", "wait-on-first-event", "marker-between", "marker-waits-first", "waitforevents-not-finish",
                           "event-of-other-queue", "user-event-completed", "read-4-bytes", "barrier-between", "launch-with-event", "flush-only-then-launch"};
    int M = sizeof modes / sizeof *modes;
    double* t = malloc(sizeof(double) * M * rounds);
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < M; ++m) {
            // cold start: write every buffer again from the host (evicts nothing useful: same for all modes)
            cl_event first;
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &first));
            if (m == 4) { C(clFlush(q)); C(clWaitForEvents(1, &first)); } else C(clFinish(q));
            cl_event w = 0; int nw = 0; cl_event ev2 = 0, *evp = 0;
            float tiny;
            switch (m) {
            case 1: w = first; nw = 1; break;
            case 2: { cl_event mk; C(clEnqueueMarkerWithWaitList(q, 0, 0, &mk)); C(clFinish(q)); clReleaseEvent(mk); } break;
            case 3: { cl_event mk; C(clEnqueueMarkerWithWaitList(q, 1, &first, &mk)); C(clFinish(q)); clReleaseEvent(mk); } break;
            case 5: { cl_event mk; C(clEnqueueMarkerWithWaitList(q2, 0, 0, &mk)); C(clFinish(q2)); w = mk; nw = 1; } break;
            case 6: { cl_event u = clCreateUserEvent(ctx, &err); C(clSetUserEventStatus(u, CL_COMPLETE)); w = u; nw = 1; } break;
            case 7: C(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &tiny, 0, 0, 0)); break;
            case 8: C(clEnqueueBarrierWithWaitList(q, 0, 0, 0)); C(clFinish(q)); break;
            case 9: evp = &ev2; break;
            case 10: C(clFlush(q)); break;
            }
            double t0 = now();
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, nw, nw ? &w : 0, evp));
            C(clFinish(q));
            t[m * rounds + r] = (now() - t0) * 1e6;
            clReleaseEvent(first);
            if (ev2) clReleaseEvent(ev2);
            if (w && w != first) clReleaseEvent(w);
        }
    for (int m = 0; m < M; ++m) { qsort(t + m * rounds, rounds, sizeof(double), cmp); printf("%-28s median %.1f us  (p10 %.1f p90 %.1f)\n", modes[m], t[m * rounds + rounds / 2], t[m * rounds + rounds / 10], t[m * rounds + rounds * 9 / 10]); }
    return 0;
}
