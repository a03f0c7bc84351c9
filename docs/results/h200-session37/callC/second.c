// What between two launches of gesummv's row pattern on freshly written buffers makes NVIDIA's
// second kernel slower (device time)? Native. Each round: 4 fresh 6.8 MB inputs written from
// pinned memory, a fresh output, launch 1 + finish, [mode], launch 2 + finish; both profiled.
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
static double dev(cl_event e) { cl_ulong s, t; C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, 8, &s, 0)); C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 8, &t, 0)); return (t - s) * 1e-3; }
static void spin(double us) { double t = now(); while ((now() - t) * 1e6 < us) {} }
int main(int argc, char** argv) {
    size_t bytes = 6760000; int rounds = argc > 1 ? atoi(argv[1]) : 15;
    cl_platform_id ps[8]; cl_uint np; C(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, argc > 2 ? argv[2] : "NVIDIA")) p = ps[i]; }
    if (!p) return 1;
    cl_device_id dv; C(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dv, 0));
    cl_int err; cl_context ctx = clCreateContext(0, 1, &dv, 0, 0, &err); C(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dv, CL_QUEUE_PROFILING_ENABLE, &err); C(err);
    cl_command_queue q2 = clCreateCommandQueue(ctx, dv, 0, &err); C(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, 0, &err); C(err);
    C(clBuildProgram(prog, 1, &dv, "", 0, 0));
    cl_kernel k = clCreateKernel(prog, "rows", &err); C(err);
    int n = (int)sqrt((double)(bytes / 4)); size_t g = (n + 255) / 256 * 256, l = 256;
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes * 4, 0, &err); C(err);
    float* host = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes * 4, 0, 0, 0, &err); C(err);
    for (size_t i = 0; i < bytes; ++i) host[i] = (float)(i % 97);
    cl_mem keep = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1 << 20, 0, &err); C(err);
    C(clEnqueueWriteBuffer(q, keep, CL_TRUE, 0, 4, host, 0, 0, 0));
    const char* modes[] = {"nothing", "create-release-unused", "create-write-release", "create-write-keep", "marker-flush-wait",
                           "read-4-bytes", "new-queue-marker", "spin-200us", "spin-2ms", "other-queue-marker", "alloc-64MiB-write", "finish-twice"};
    int M = sizeof modes / sizeof *modes;
    double* t1 = malloc(sizeof(double) * M * rounds); double* t2 = malloc(sizeof(double) * M * rounds); double* tt = malloc(sizeof(double) * M * rounds);
    cl_mem kept[1024]; int nk = 0;
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < M; ++m) {
            cl_mem in[4], out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, 0, &err); C(err);
            for (int b = 0; b < 4; ++b) { in[b] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, 0, &err); C(err); C(clEnqueueWriteBuffer(q, in[b], CL_FALSE, 0, bytes, (char*)host + b * bytes, 0, 0, 0)); C(clSetKernelArg(k, b, sizeof(cl_mem), &in[b])); }
            C(clSetKernelArg(k, 4, sizeof(cl_mem), &out)); C(clSetKernelArg(k, 5, sizeof n, &n));
            C(clFinish(q));
            cl_event e1, e2;
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e1));
            if (m == 4) { cl_event mk; C(clEnqueueMarkerWithWaitList(q, 0, 0, &mk)); C(clFlush(q)); C(clWaitForEvents(1, &mk)); clReleaseEvent(mk); } else C(clFinish(q));
            float tiny;
            switch (m) {
            case 1: { cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, 0, &err); C(err); clReleaseMemObject(x); } break;
            case 2: { cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, 0, &err); C(err); C(clEnqueueWriteBuffer(q, x, CL_TRUE, 0, 4, &tiny, 0, 0, 0)); clReleaseMemObject(x); } break;
            case 3: { cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, 0, &err); C(err); C(clEnqueueWriteBuffer(q, x, CL_TRUE, 0, 4, &tiny, 0, 0, 0)); if (nk < 1024) kept[nk++] = x; else clReleaseMemObject(x); } break;
            case 5: C(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &tiny, 0, 0, 0)); break;
            case 6: { cl_command_queue nq = clCreateCommandQueue(ctx, dv, CL_QUEUE_PROFILING_ENABLE, &err); C(err); cl_event mk; C(clEnqueueMarkerWithWaitList(nq, 0, 0, &mk)); C(clWaitForEvents(1, &mk)); clReleaseEvent(mk); clReleaseCommandQueue(nq); } break;
            case 7: spin(200); break;
            case 8: spin(2000); break;
            case 9: { cl_event mk; C(clEnqueueMarkerWithWaitList(q2, 0, 0, &mk)); C(clFlush(q2)); C(clWaitForEvents(1, &mk)); clReleaseEvent(mk); } break;
            case 10: { cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 << 20, 0, &err); C(err); C(clEnqueueWriteBuffer(q, x, CL_TRUE, 0, 4, &tiny, 0, 0, 0)); clReleaseMemObject(x); } break;
            case 11: C(clFinish(q)); break;
            }
            double t0 = now();
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e2));
            C(clFinish(q));
            tt[m * rounds + r] = (now() - t0) * 1e6;
            t1[m * rounds + r] = dev(e1); t2[m * rounds + r] = dev(e2);
            clReleaseEvent(e1); clReleaseEvent(e2);
            for (int b = 0; b < 4; ++b) clReleaseMemObject(in[b]);
            clReleaseMemObject(out);
        }
    printf("%s, %d rounds, median us: 1st device, 2nd device, 2nd enqueue-to-finished\n", name, rounds);
    for (int m = 0; m < M; ++m) {
        qsort(t1 + m * rounds, rounds, 8, cmp); qsort(t2 + m * rounds, rounds, 8, cmp); qsort(tt + m * rounds, rounds, 8, cmp);
        printf("%-24s %8.1f %8.1f %8.1f\n", modes[m], t1[m * rounds + rounds / 2], t2[m * rounds + rounds / 2], tt[m * rounds + rounds / 2]);
    }
    return 0;
}
