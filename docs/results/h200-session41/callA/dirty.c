// Session 41 call A (scratch, native NVIDIA): what a 1 MiB pinned host-to-GPU write adds to a launch
// after it when the host has just written the source (as bench/tools/bandwidth's Hetero mode does
// before each migration: a map, a memset, an unmap) against a source written long before (its
// native modes). The memset is outside the timed part. Wall time of write + launch + clFinish, less
// launch + clFinish, median of 41.
//   gcc -O2 dirty.c -lOpenCL -o dirty
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
    memset(ownp, 1, MB); memset(slabp, 1, slabBytes);
    clSetKernelArg(k, 0, sizeof dev, &dev);
    size_t one = 1;
    const char* names[] = {"written-long-before", "written-just-before", "written-just-before+event+flush"};
    enum { N = 3, R = 41 };
    double add[N][R], wall[N][R];
    char* source = slabp + 5 * MB;
    for (int r = -3; r < R; ++r)
        for (int m = 0; m < N; ++m) {
            if (m >= 1) memset(source, r & 0xff, MB);
            double t[3];
            for (int pass = 0; pass < 2; ++pass) {  // pass 0: with the write; pass 1: the launch alone
                t[pass] = now();
                cl_event sent = NULL;
                if (pass == 0) {
                    check(clEnqueueWriteBuffer(q, dev, CL_FALSE, 0, MB, source, 0, NULL, m == 2 ? &sent : NULL), "write");
                    if (m == 2) clFlush(q);
                }
                check(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL), "launch");
                check(clFinish(q), "finish");
                if (sent) clReleaseEvent(sent);
            }
            t[2] = now();
            if (r >= 0) { add[m][r] = (t[1] - t[0]) - (t[2] - t[1]); wall[m][r] = t[1] - t[0]; }
        }
    for (int m = 0; m < N; ++m)
        printf("dirty %-32s adds_us %.1f wall_us %.1f\n", names[m], med(add[m], R) * 1e6, med(wall[m], R) * 1e6);
    return 0;
}
