// Scratch (session 29): gesummv LARGE's timed phase natively (fresh buffers every repeat, one launch,
// clFinish), with what Hetero does inside the window moved there: the backend arguments set at the
// launch (B), and the two buffers nobody wrote created there too (C).
//   fresh_launch PLATFORM [REPEATS]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include "tool_support.h"  // bench/tools
#include <stdio.h>
#include <stdlib.h>

static const char* src =
    "__kernel void gesummv(__global const float* A, __global const float* B, __global const float* x,\n"
    "  __global float* tmp, __global float* y, float alpha, float beta, int n) {\n"
    "  const int i = get_global_id(0);\n"
    "  if (i < n) { tmp[i] = 0.0f; y[i] = 0.0f;\n"
    "    for (int j = 0; j < n; ++j) { tmp[i] += A[i * n + j] * x[j]; y[i] += B[i * n + j] * x[j]; }\n"
    "    y[i] = alpha * tmp[i] + beta * y[i]; } }\n";

int main(int argc, char** argv) {
    toolName = "fresh_launch";
    char name[256];
    cl_platform_id p = findPlatform(argc > 1 ? argv[1] : NULL, 0, name, sizeof name);
    if (!p) return 1;
    int repeats = argc > 2 ? atoi(argv[2]) : 20;
    cl_device_id d = firstDevice(p);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    check(clBuildProgram(prog, 1, &d, "", NULL, NULL), "build");
    cl_kernel k = clCreateKernel(prog, "gesummv", &err);
    const int n = 1300;
    float* A = malloc(sizeof(float) * n * n);
    for (int i = 0; i < n * n; ++i) A[i] = (float)(i % 7) / 7.0f;
    double t[3][64];
    for (int r = 0; r < repeats && r < 64; ++r)
        for (int v = 0; v < 3; ++v) {
            cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(float) * n * n, NULL, &err);
            cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(float) * n * n, NULL, &err);
            cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof(float) * n, NULL, &err);
            clEnqueueWriteBuffer(q, a, CL_FALSE, 0, sizeof(float) * n * n, A, 0, NULL, NULL);
            clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof(float) * n * n, A, 0, NULL, NULL);
            clEnqueueWriteBuffer(q, x, CL_FALSE, 0, sizeof(float) * n, A, 0, NULL, NULL);
            cl_mem tmp = NULL, y = NULL;
            float alpha = 1.5f, beta = 1.2f;
            if (v < 2) {
                tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * n, NULL, &err);
                y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * n, NULL, &err);
            }
            if (v == 0) {
                clSetKernelArg(k, 0, sizeof a, &a); clSetKernelArg(k, 1, sizeof b, &b); clSetKernelArg(k, 2, sizeof x, &x);
                clSetKernelArg(k, 3, sizeof tmp, &tmp); clSetKernelArg(k, 4, sizeof y, &y);
                clSetKernelArg(k, 5, sizeof alpha, &alpha); clSetKernelArg(k, 6, sizeof beta, &beta); clSetKernelArg(k, 7, sizeof n, &n);
            }
            clFinish(q);
            double t0 = now();
            if (v == 2) {
                tmp = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * n, NULL, &err);
                y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(float) * n, NULL, &err);
            }
            if (v > 0) {
                clSetKernelArg(k, 0, sizeof a, &a); clSetKernelArg(k, 1, sizeof b, &b); clSetKernelArg(k, 2, sizeof x, &x);
                clSetKernelArg(k, 3, sizeof tmp, &tmp); clSetKernelArg(k, 4, sizeof y, &y);
                clSetKernelArg(k, 5, sizeof alpha, &alpha); clSetKernelArg(k, 6, sizeof beta, &beta); clSetKernelArg(k, 7, sizeof n, &n);
            }
            size_t g = 1536, l = 256;
            check(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), "launch");
            clFinish(q);
            t[v][r] = (now() - t0) * 1e6;
            clReleaseMemObject(a); clReleaseMemObject(b); clReleaseMemObject(x); clReleaseMemObject(tmp); clReleaseMemObject(y);
        }
    const char* names[3] = {"A: args set before the window", "B: args set in the window", "C: tmp, y created and args set in the window"};
    for (int v = 0; v < 3; ++v) printf("fresh_launch platform=\"%s\" %s: median %.1f us\n", name, names[v], median(t[v], repeats));
    return 0;
}
