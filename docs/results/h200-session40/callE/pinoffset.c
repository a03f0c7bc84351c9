// Session 40 call E (scratch, native NVIDIA): what a 1 MiB host-to-GPU write adds to a launch after
// it, by where the pinned source lies and whether the write is flushed alone first (as Hetero's
// sendHostCopy does). Wall time of write + launch + clFinish, less launch + clFinish, median of 41.
//   gcc -O2 pinoffset.c -lOpenCL -o pinoffset
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
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err); check(err, "queue");
    const char* src = "__kernel void touch(__global int* b) { b[0] += 1; }";
    cl_program prog = clCreateProgramWithSource(c, 1, &src, NULL, &err); check(clBuildProgram(prog, 1, &d, "", NULL, NULL), "build");
    cl_kernel k = clCreateKernel(prog, "touch", &err);
    const size_t MB = 1 << 20, slabBytes = 32 * MB;
    cl_mem dev = clCreateBuffer(c, CL_MEM_READ_WRITE, MB, NULL, &err);
    cl_mem own = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, MB, NULL, &err);
    cl_mem slab = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, slabBytes, NULL, &err);
    char* ownp = clEnqueueMapBuffer(q, own, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, MB, 0, NULL, NULL, &err); check(err, "map own");
    char* slabp = clEnqueueMapBuffer(q, slab, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, slabBytes, 0, NULL, NULL, &err); check(err, "map slab");
    char* ordinary; if (posix_memalign((void**)&ordinary, 4096, MB)) return 1;
    memset(ownp, 1, MB); memset(slabp, 1, slabBytes); memset(ordinary, 1, MB);
    clSetKernelArg(k, 0, sizeof dev, &dev);
    size_t one = 1;
    const char* names[] = {"own-pinned", "slab-offset-0", "slab-offset-5MiB+4KiB", "slab-offset-0-flushed", "ordinary", "blocking-own"};
    char* srcs[] = {ownp, slabp, slabp + 5 * MB + 4096, slabp, ordinary, ownp};
    enum { N = 6, R = 41 };
    double add[N][R], wall[N][R];
    for (int r = -3; r < R; ++r)
        for (int m = 0; m < N; ++m) {
            double t0 = now();
            if (m == 5) {
                check(clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, MB, srcs[m], 0, NULL, NULL), "write");
            } else {
                check(clEnqueueWriteBuffer(q, dev, CL_FALSE, 0, MB, srcs[m], 0, NULL, NULL), "write");
                if (m == 3) clFlush(q);
            }
            check(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), "launch");
            check(clFinish(q), "finish");
            double t1 = now();
            check(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), "launch");
            check(clFinish(q), "finish");
            double t2 = now();
            if (r >= 0) { add[m][r] = (t1 - t0) - (t2 - t1); wall[m][r] = t1 - t0; }
        }
    for (int m = 0; m < N; ++m)
        printf("pinoffset %-24s adds_us %.1f wall_us %.1f\n", names[m], med(add[m], R) * 1e6, med(wall[m], R) * 1e6);
    return 0;
}
