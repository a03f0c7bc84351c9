// Scratch: which launch geometries make PoCL compile the kernel again (first run slow, second fast).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <time.h>
static const char* src =
"__kernel void syr2k(__global const float* A, __global const float* B, __global float* C, float alpha, float beta, int m, int n) {\n"
"  const int j = get_global_id(0); const int i = get_global_id(1);\n"
"  if (i < n && j < n) { C[i * n + j] *= beta; for (int k = 0; k < m; ++k)\n"
"   C[i * n + j] += alpha * A[i * m + k] * B[j * m + k] + alpha * B[i * m + k] * A[j * m + k]; } }\n";
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(void) {
  cl_platform_id p; clGetPlatformIDs(1, &p, NULL); cl_device_id d; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e); cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &e); clBuildProgram(pr, 1, &d, "", NULL, NULL);
  cl_kernel k = clCreateKernel(pr, "syr2k", &e);
  int n = 64, m = 64; float al = 1, be = 1;
  cl_mem a = clCreateBuffer(c, 0, 4 * n * m, NULL, &e), b = clCreateBuffer(c, 0, 4 * n * m, NULL, &e), cc = clCreateBuffer(c, 0, 4 * n * n, NULL, &e);
  clSetKernelArg(k, 0, 8, &a); clSetKernelArg(k, 1, 8, &b); clSetKernelArg(k, 2, 8, &cc);
  clSetKernelArg(k, 3, 4, &al); clSetKernelArg(k, 4, 4, &be); clSetKernelArg(k, 5, 4, &m); clSetKernelArg(k, 6, 4, &n);
  struct { const char* what; size_t off[2], g[2], l[2]; } v[] = {
    {"32x8 offset 0", {0, 0}, {64, 64}, {32, 8}},
    {"32x8 offset 0 again", {0, 0}, {64, 64}, {32, 8}},
    {"32x8 offset 0, smaller global", {0, 0}, {32, 16}, {32, 8}},
    {"32x8 offset (32,8)", {32, 8}, {32, 16}, {32, 8}},
    {"32x8 offset (0,16)", {0, 16}, {64, 16}, {32, 8}},
    {"16x8 offset (0,16)", {0, 16}, {64, 16}, {16, 8}},
    {"8x8 offset (0,16)", {0, 16}, {64, 16}, {8, 8}},
    {"8x8 offset (0,16) again", {0, 16}, {64, 16}, {8, 8}},
    {"32x8 non-uniform global 48x16", {0, 0}, {48, 16}, {32, 8}},
  };
  for (unsigned i = 0; i < sizeof v / sizeof v[0]; ++i) {
    double t0 = now();
    e = clEnqueueNDRangeKernel(q, k, 2, v[i].off, v[i].g, v[i].l, 0, NULL, NULL); clFinish(q);
    printf("%-34s %8.2f ms (err %d)\n", v[i].what, (now() - t0) * 1e3, e);
  }
  return 0;
}
