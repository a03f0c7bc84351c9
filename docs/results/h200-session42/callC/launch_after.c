// Session 42 call C (native NVIDIA): what in Hetero's two-slot setup makes NVIDIA's own
// clEnqueueNDRangeKernel slower than with one slot (call B: gemm 22 against 13 us inside the call,
// held to the GPU; the same run shape as PolyBench's gemm: new buffers, writes, clFinish, then
// the timed launch + clFinish, read, release). Modes, each the same run shape natively:
//   plain        writes from the application's (pageable) memory on the launch's queue
//   idle-queue   plus a second queue in the context, idle (Hetero's pinned pool has one)
//   mapped-slab  plus a mapped CL_MEM_ALLOC_HOST_PTR buffer of 64 MiB (the pinned pool's slab)
//   pinned-src   writes whose source is inside that mapped slab (Hetero's host copies)
//   other-queue  writes on the second queue, finished, then the launch on the first
//   pinned-other both: from the slab, on the second queue (what Hetero's two slots do, if so)
//   pocl-ctx     plain, with a PoCL context in the process that ran a kernel once (its threads)
// Prints per mode the median enqueue time of the launch and of launch + clFinish, in us.
//   gcc -O2 -Ibench/tools -o /tmp/la launch_after.c -lOpenCL && /tmp/la [runs]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"

enum { kN = 1024 * 1024, kBytes = kN * 4, kSlab = 64 << 20 };
static const char* kSource =
    "__kernel void k(__global const float* a, __global const float* b, __global float* c) {\n"
    "  size_t i = get_global_id(0); c[i] = c[i] * 0.5f + a[i] * b[i]; }\n";

int main(int argc, char** argv) {
    toolName = "launch_after";
    int runs = argc > 1 ? atoi(argv[1]) : 60;
    char name[256];
    cl_platform_id p = findPlatform("NVIDIA", 0, name, sizeof name);
    if (!p) { fprintf(stderr, "no NVIDIA platform\n"); return 1; }
    cl_device_id d = firstDevice(p);
    const char* modes[] = {"plain", "idle-queue", "mapped-slab", "pinned-src", "other-queue", "pinned-other", "pocl-ctx"};
    float* host = malloc(3 * (size_t)kBytes);
    for (size_t i = 0; i < 3 * (size_t)kN; ++i) host[i] = (float)(i % 97);
    for (int round = 0; round < 3; ++round)
    for (int m = 0; m < 7; ++m) {
        cl_int err;
        cl_context pctx = NULL;
        if (m == 6) {
            char pname[256];
            cl_platform_id pp = findPlatform("Portable", 0, pname, sizeof pname);
            cl_device_id pd = pp ? firstDevice(pp) : NULL;
            if (!pd) { printf("no PoCL\n"); continue; }
            pctx = clCreateContext(NULL, 1, &pd, NULL, NULL, &err); check(err, "pocl context");
            cl_command_queue pq = clCreateCommandQueueWithProperties(pctx, pd, NULL, &err); check(err, "pocl queue");
            cl_program pprog = clCreateProgramWithSource(pctx, 1, &kSource, NULL, &err);
            check(clBuildProgram(pprog, 1, &pd, "", NULL, NULL), "pocl build");
            cl_kernel pk = clCreateKernel(pprog, "k", &err); check(err, "pocl kernel");
            cl_mem pb = clCreateBuffer(pctx, CL_MEM_READ_WRITE, kBytes, NULL, &err);
            for (int b = 0; b < 3; ++b) clSetKernelArg(pk, b, sizeof pb, &pb);
            size_t g = kN, l = 256;
            check(clEnqueueNDRangeKernel(pq, pk, 1, NULL, &g, &l, 0, NULL, NULL), "pocl launch");
            clFinish(pq);
            clReleaseMemObject(pb); clReleaseKernel(pk); clReleaseProgram(pprog); clReleaseCommandQueue(pq);
        }
        cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err); check(err, "clCreateContext");
        cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err); check(err, "queue");
        cl_command_queue q2 = m >= 1 ? clCreateCommandQueueWithProperties(ctx, d, NULL, &err) : NULL;
        cl_mem slab = NULL; float* slabPtr = NULL;
        if (m >= 2) {
            slab = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, kSlab, NULL, &err); check(err, "slab");
            slabPtr = clEnqueueMapBuffer(q2, slab, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kSlab, 0, NULL, NULL, &err);
            check(err, "map");
        }
        cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err); check(err, "program");
        check(clBuildProgram(prog, 1, &d, "", NULL, NULL), "build");
        cl_kernel k = clCreateKernel(prog, "k", &err); check(err, "kernel");
        double* enq = malloc(runs * sizeof(double));
        double* all = malloc(runs * sizeof(double));
        for (int r = 0; r < runs + 3; ++r) {
            cl_mem bufs[3];
            cl_command_queue wq = (m == 4 || m == 5) ? q2 : q;
            for (int b = 0; b < 3; ++b) {
                bufs[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kBytes, NULL, &err); check(err, "buffer");
                const float* src = host + (size_t)b * kN;
                if (m == 3 || m == 5) {
                    memcpy(slabPtr + (size_t)b * kN, src, kBytes);  // the host copy, written just before
                    src = slabPtr + (size_t)b * kN;
                }
                check(clEnqueueWriteBuffer(wq, bufs[b], CL_FALSE, 0, kBytes, src, 0, NULL, NULL), "write");
            }
            for (int b = 0; b < 3; ++b) check(clSetKernelArg(k, b, sizeof(cl_mem), &bufs[b]), "arg");
            check(clFinish(wq), "finish w");
            check(clFinish(q), "finish");
            size_t global = kN, local = 256;
            double t0 = now();
            check(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), "launch");
            double t1 = now();
            check(clFinish(q), "finish");
            double t2 = now();
            if (r >= 3) { enq[r - 3] = (t1 - t0) * 1e6; all[r - 3] = (t2 - t0) * 1e6; }
            check(clEnqueueReadBuffer(q, bufs[2], CL_TRUE, 0, 4096, host + 2 * (size_t)kN, 0, NULL, NULL), "read");
            for (int b = 0; b < 3; ++b) clReleaseMemObject(bufs[b]);
        }
        printf("round %d %-13s enqueue %6.1f us  launch+finish %7.1f us\n", round, modes[m], median(enq, runs), median(all, runs));
        fflush(stdout);
        if (slab) { clEnqueueUnmapMemObject(q2, slab, slabPtr, 0, NULL, NULL); clFinish(q2); clReleaseMemObject(slab); }
        clReleaseKernel(k); clReleaseProgram(prog);
        if (q2) clReleaseCommandQueue(q2);
        clReleaseCommandQueue(q); clReleaseContext(ctx);
        if (pctx) clReleaseContext(pctx);
        free(enq); free(all);
    }
    return 0;
}
