// Native NVIDIA: what a merge after a long kernel costs the host, by how it is enqueued and waited.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define CK(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s:%d %d\n", __FILE__, __LINE__, e_); exit(1); } } while (0)
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
static const char* src =
"__kernel void spin(__global float* o, int n) { float x = get_global_id(0); for (int i = 0; i < n; ++i) x = x * 0.999999f + 1e-6f; o[get_global_id(0)] = x; }\n"
"__kernel void merge(__global uint* g, __global const uint* c, __global const uint* o) { size_t i = get_global_id(0); uint v = c[i]; if (v != o[i]) g[i] = v; }\n";
static cl_int waitPoll(cl_event e) { cl_int s; do { CK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, 0)); } while (s > 0); return s; }
int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 20, n = argc > 2 ? atoi(argv[2]) : 200000;
  cl_platform_id ps[8]; cl_uint np; CK(clGetPlatformIDs(8, ps, &np));
  cl_device_id d = 0; for (cl_uint i = 0; i < np && !d; ++i) if (clGetDeviceIDs(ps[i], getenv("ANYDEV") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &d, 0)) d = 0;
  cl_int err; cl_context c = clCreateContext(0, 1, &d, 0, 0, &err); CK(err);
  cl_command_queue q1 = clCreateCommandQueueWithProperties(c, d, 0, &err), q2 = clCreateCommandQueueWithProperties(c, d, 0, &err), q3 = clCreateCommandQueueWithProperties(c, d, 0, &err);
  cl_program p = clCreateProgramWithSource(c, 1, &src, 0, &err); CK(clBuildProgram(p, 1, &d, "", 0, 0));
  cl_kernel ks = clCreateKernel(p, "spin", &err), km = clCreateKernel(p, "merge", &err);
  size_t words = 1 << 20, gs = 132 * 2048;
  cl_mem o = clCreateBuffer(c, 0, gs * 4, 0, &err), bg = clCreateBuffer(c, 0, words * 4, 0, &err), bc = clCreateBuffer(c, 0, words * 4, 0, &err), bo = clCreateBuffer(c, 0, words * 4, 0, &err);
  unsigned z = 0, one = 1; CK(clEnqueueFillBuffer(q1, bg, &z, 4, 0, words * 4, 0, 0, 0)); CK(clEnqueueFillBuffer(q1, bo, &z, 4, 0, words * 4, 0, 0, 0));
  CK(clEnqueueFillBuffer(q1, bc, &one, 4, 0, (words / 20) * 4, 0, 0, 0)); CK(clEnqueueFillBuffer(q1, bc, &z, 4, (words / 20) * 4, words * 4 - (words / 20) * 4, 0, 0, 0)); CK(clFinish(q1));
  CK(clSetKernelArg(ks, 0, sizeof o, &o)); CK(clSetKernelArg(ks, 1, sizeof n, &n));
  CK(clSetKernelArg(km, 0, sizeof bg, &bg)); CK(clSetKernelArg(km, 1, sizeof bc, &bc)); CK(clSetKernelArg(km, 2, sizeof bo, &bo));
  const char* names[] = {"reactive+finish", "reactive+wait", "reactive+poll", "ahead-other-queue", "ahead-same-queue", "kernel-alone"};
  enum { M = 6 }; double tail[M][256], total[M][256];
  for (int r = -2; r < rounds; ++r)
    for (int m = 0; m < M; ++m) {
      cl_event k, e = 0; double t0 = now(), t1, t2;
      CK(clEnqueueNDRangeKernel(q1, ks, 1, 0, &gs, 0, 0, 0, &k));
      if (m == 3) CK(clEnqueueNDRangeKernel(q2, km, 1, 0, &words, 0, 1, &k, &e));
      if (m == 4) CK(clEnqueueNDRangeKernel(q1, km, 1, 0, &words, 0, 0, 0, &e));
      CK(clFlush(q1)); if (m == 3) CK(clFlush(q2));
      if (m == 2) waitPoll(k); else CK(clWaitForEvents(1, &k));
      t1 = now();
      if (m <= 2) CK(clEnqueueNDRangeKernel(q2, km, 1, 0, &words, 0, 0, 0, m == 0 ? 0 : &e));
      if (m == 0) CK(clFinish(q2));
      else if (m == 2) { CK(clFlush(q2)); waitPoll(e); }
      else if (m != 5) CK(clWaitForEvents(1, &e));
      t2 = now();
      if (e) clReleaseEvent(e);
      clReleaseEvent(k);
      if (r >= 0) { tail[m][r] = t2 - t1; total[m][r] = t2 - t0; }
      CK(clFinish(q1)); CK(clFinish(q2));
    }
  for (int m = 0; m < M; ++m) {
    // medians
    for (int a = 0; a < rounds; ++a) for (int b = a + 1; b < rounds; ++b) { if (tail[m][b] < tail[m][a]) { double t = tail[m][a]; tail[m][a] = tail[m][b]; tail[m][b] = t; } if (total[m][b] < total[m][a]) { double t = total[m][a]; total[m][a] = total[m][b]; total[m][b] = t; } }
    printf("%-20s after host saw the kernel: median %7.1f us (min %6.1f, max %7.1f); from the kernel's enqueue: median %8.1f us (min %8.1f)\n", names[m], tail[m][rounds / 2], tail[m][0], tail[m][rounds - 1], total[m][rounds / 2], total[m][0]);
  }
  return 0;
}
