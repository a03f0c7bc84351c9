// Where do pinned host blocks made between an application's GPU buffers put those buffers, and does
// that slow gesummv (PolyBench's kernel: two 6.76 MB matrices read a row per work-item, tmp and y
// accumulated in global memory, 6 work-groups)? Each round makes fresh buffers in one of these
// orders, writes them, makes tmp and y, launches the kernel three times (device times from
// profiling events) and reads the buffers' device addresses (a kernel reports them). Modes:
//   plain       A, B, x, y made and written from one pinned source made at the start (as natively)
//   pin-each    before A and before B, a fresh 7 MiB CL_MEM_ALLOC_HOST_PTR buffer of the same
//               context, mapped, which their writes come from (as Hetero's default mode does)
//   pin-other   the same blocks from a second context on the same device (is a DMA from them still
//               fast? the write's GB/s says)
//   slab        one 64 MiB block of the same context made and mapped first, both writes from it
// Arguments: [rounds] [platform name part, default NVIDIA] [mode: all (interleaved by round) or one]
//            [the slab's MiB, default 64; also the size of pin-each's blocks when given there]
#define _POSIX_C_SOURCE 200112L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define C(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static const char* src =
    "__kernel void gesummv(__global const float* A, __global const float* B, __global const float* x,\n"
    "                      __global float* tmp, __global float* y, int n) {\n"
    "  int i = get_global_id(0);\n  if (i >= n) return;\n  tmp[i] = 0.0f; y[i] = 0.0f;\n"
    "  for (int j = 0; j < n; ++j) { tmp[i] += A[i * n + j] * x[j]; y[i] += B[i * n + j] * x[j]; }\n"
    "  y[i] = 1.5f * tmp[i] + 1.2f * y[i];\n}\n"
    "__kernel void where(__global const float* a, __global const float* b, __global const float* x,\n"
    "                    __global ulong* o) { o[0] = (ulong)a; o[1] = (ulong)b; o[2] = (ulong)x; }\n";
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static double us(cl_event e) { cl_ulong s, t; C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, 8, &s, 0)); C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 8, &t, 0)); return (t - s) * 1e-3; }
static cl_mem pinned(cl_context c, cl_command_queue q, size_t bytes, void** p) {
    cl_int err; cl_mem m = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, bytes, 0, &err); C(err);
    *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, 0, 0, &err); C(err);
    return m;
}
int main(int argc, char** argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    const int n = 1300; const size_t bytes = (size_t)n * n * 4;
    const size_t slabBytes = (size_t)(argc > 4 ? atoi(argv[4]) : 64) << 20, pinBytes = argc > 4 ? slabBytes : 7 << 20;
    cl_platform_id ps[8]; cl_uint np; C(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np && !p; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, argc > 2 ? argv[2] : "NVIDIA")) p = ps[i]; }
    if (!p) return 1;
    cl_device_id dv; C(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dv, 0));
    cl_int err; cl_context ctx = clCreateContext(0, 1, &dv, 0, 0, &err); C(err);
    cl_context ctx2 = clCreateContext(0, 1, &dv, 0, 0, &err); C(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dv, CL_QUEUE_PROFILING_ENABLE, &err); C(err);
    cl_command_queue q2 = clCreateCommandQueue(ctx2, dv, 0, &err); C(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, 0, &err); C(err);
    C(clBuildProgram(prog, 1, &dv, "", 0, 0));
    cl_kernel k = clCreateKernel(prog, "gesummv", &err); C(err);
    cl_kernel w = clCreateKernel(prog, "where", &err); C(err);
    void* source; cl_mem sourceMem = pinned(ctx, q, 2 * bytes, &source);
    for (size_t i = 0; i < 2 * bytes / 4; ++i) ((float*)source)[i] = (float)(i % 97) * 0.01f;
    float xs[1300]; for (int i = 0; i < n; ++i) xs[i] = 1.0f / (i + 1);
    cl_mem addr = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, 0, &err); C(err);
    size_t g = (n + 255) / 256 * 256, l = 256, one = 1;
    const char* names[] = {"plain", "pin-each", "pin-other", "slab"};
    printf("# mode launch1_us launch2_us launch3_us writeA_GBps writeB_GBps B-A_MiB x-B_MiB slab_pin_ms\n");
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < 4; ++m) {
            if (argc > 3 && strcmp(argv[3], "all") && strcmp(argv[3], names[m])) continue;
            double pinMs = 0;
            cl_mem pins[2] = {0}, slab = 0, mats[2]; void* from[2] = {source, (char*)source + bytes};
            if (m == 3) { void* s; double t0 = now(); slab = pinned(ctx, q, slabBytes, &s); pinMs = (now() - t0) * 1e3; from[0] = s; from[1] = (char*)s + (7 << 20); }
            cl_event we[2];
            for (int b = 0; b < 2; ++b) {
                if (m == 1 || m == 2) { pins[b] = pinned(m == 1 ? ctx : ctx2, m == 1 ? q : q2, pinBytes, &from[b]); }
                if (m != 0) memcpy(from[b], (char*)source + b * bytes, bytes);
                mats[b] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, 0, &err); C(err);
                C(clEnqueueWriteBuffer(q, mats[b], CL_FALSE, 0, bytes, from[b], 0, 0, &we[b]));
            }
            cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_ONLY, n * 4, 0, &err); C(err);
            C(clEnqueueWriteBuffer(q, x, CL_FALSE, 0, n * 4, xs, 0, 0, 0));
            C(clFinish(q));
            cl_mem tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, 0, &err); C(err);
            cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, 0, &err); C(err);
            C(clSetKernelArg(k, 0, sizeof(cl_mem), &mats[0])); C(clSetKernelArg(k, 1, sizeof(cl_mem), &mats[1]));
            C(clSetKernelArg(k, 2, sizeof(cl_mem), &x)); C(clSetKernelArg(k, 3, sizeof(cl_mem), &tmp));
            C(clSetKernelArg(k, 4, sizeof(cl_mem), &y)); C(clSetKernelArg(k, 5, sizeof n, &n));
            cl_event e[3];
            for (int i = 0; i < 3; ++i) { C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e[i])); C(clFinish(q)); }
            C(clSetKernelArg(w, 0, sizeof(cl_mem), &mats[0])); C(clSetKernelArg(w, 1, sizeof(cl_mem), &mats[1]));
            C(clSetKernelArg(w, 2, sizeof(cl_mem), &x)); C(clSetKernelArg(w, 3, sizeof(cl_mem), &addr));
            C(clEnqueueNDRangeKernel(q, w, 1, 0, &one, &one, 0, 0, 0));
            cl_ulong a[3]; C(clEnqueueReadBuffer(q, addr, CL_TRUE, 0, sizeof a, a, 0, 0, 0));
            printf("%s %.1f %.1f %.1f %.1f %.1f %.2f %.2f %.2f\n", names[m], us(e[0]), us(e[1]), us(e[2]),
                   bytes / us(we[0]) * 1e-3, bytes / us(we[1]) * 1e-3, ((double)a[1] - a[0]) / (1 << 20), ((double)a[2] - a[1]) / (1 << 20), pinMs);
            for (int i = 0; i < 3; ++i) clReleaseEvent(e[i]);
            clReleaseEvent(we[0]); clReleaseEvent(we[1]);
            clReleaseMemObject(mats[0]); clReleaseMemObject(mats[1]); clReleaseMemObject(x); clReleaseMemObject(tmp); clReleaseMemObject(y);
            for (int b = 0; b < 2; ++b) if (pins[b]) { C(clEnqueueUnmapMemObject(m == 1 ? q : q2, pins[b], from[b], 0, 0, 0)); C(clFinish(m == 1 ? q : q2)); clReleaseMemObject(pins[b]); }
            if (slab) { C(clEnqueueUnmapMemObject(q, slab, from[0], 0, 0, 0)); C(clFinish(q)); clReleaseMemObject(slab); }
        }
    clReleaseMemObject(sourceMem);
    return 0;
}
