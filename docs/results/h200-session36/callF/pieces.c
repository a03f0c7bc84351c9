// Does a kernel run slower after its inputs were written in pieces (Hetero's staged writes) than
// after one write each? Native NVIDIA, fresh buffers each round, gesummv-like row kernel.
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
    "__kernel void rows(__global const float* a, __global const float* b, __global float* out, int n) {\n"
    "  int i = get_global_id(0);\n  if (i >= n) return;\n  float s = 0.0f;\n"
    "  for (int j = 0; j < n; ++j) s += a[i * n + j] + b[i * n + j];\n  out[i] = s;\n}\n";
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
int main(void) {
    const int n = 1300; const size_t bytes = (size_t)n * n * 4; const int rounds = 40;
    cl_platform_id ps[8]; cl_uint np; C(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, "NVIDIA")) p = ps[i]; }
    if (!p) return 1;
    cl_device_id dev; C(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, 0));
    cl_int err; cl_context ctx = clCreateContext(0, 1, &dev, 0, 0, &err); C(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); C(err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, 0, &err); C(err);
    C(clBuildProgram(prog, 1, &dev, "", 0, 0));
    cl_kernel k = clCreateKernel(prog, "rows", &err); C(err);
    size_t g = (n + 255) / 256 * 256, l = 256;
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 2 * bytes, 0, &err); C(err);
    float* pinned = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 2 * bytes, 0, 0, 0, &err); C(err);
    float* page = malloc(2 * bytes + 64);
    for (size_t i = 0; i < 2 * bytes / 4; ++i) pinned[i] = page[i] = (float)(i % 97) / 97;
    const char* modes[] = {"pinned 1 piece", "pinned 4 pieces+flush", "pinned 4 pieces", "pageable 1 piece", "pinned 8 pieces+flush"};
    const int M = 5, pieces[] = {1, 4, 4, 1, 8}, flush[] = {0, 1, 0, 0, 1};
    double* t1 = malloc(sizeof(double) * M * rounds); double* t2 = malloc(sizeof(double) * M * rounds);
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < M; ++m) {
            cl_mem in[2], out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * 4, 0, &err);
            const char* from = m == 3 ? (const char*)page : (const char*)pinned;
            for (int b = 0; b < 2; ++b) {
                in[b] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, 0, &err); C(err);
                size_t piece = (bytes + pieces[m] - 1) / pieces[m];
                for (size_t off = 0; off < bytes; off += piece) {
                    size_t len = off + piece > bytes ? bytes - off : piece;
                    C(clEnqueueWriteBuffer(q, in[b], CL_FALSE, off, len, from + b * bytes + off, 0, 0, 0));
                    if (flush[m]) C(clFlush(q));
                }
                C(clSetKernelArg(k, b, sizeof(cl_mem), &in[b]));
            }
            C(clSetKernelArg(k, 2, sizeof(cl_mem), &out)); C(clSetKernelArg(k, 3, sizeof n, &n));
            C(clFinish(q));
            double a = now();
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, 0)); C(clFinish(q));
            double b2 = now();
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, 0)); C(clFinish(q));
            double c = now();
            t1[m * rounds + r] = (b2 - a) * 1e6; t2[m * rounds + r] = (c - b2) * 1e6;
            clReleaseMemObject(in[0]); clReleaseMemObject(in[1]); clReleaseMemObject(out);
        }
    printf("two %zu-byte inputs, %d rounds: median us, launch to finished\n", bytes, rounds);
    for (int m = 0; m < M; ++m) {
        qsort(t1 + m * rounds, rounds, sizeof(double), cmp); qsort(t2 + m * rounds, rounds, sizeof(double), cmp);
        printf("%-24s first %.1f (p10 %.1f p90 %.1f)  second %.1f\n", modes[m], t1[m * rounds + rounds / 2], t1[m * rounds + rounds / 10],
               t1[m * rounds + rounds * 9 / 10], t2[m * rounds + rounds / 2]);
    }
    return 0;
}
