// Per-launch cost of OpenCL command patterns on one platform (argv[1]: part of its name; default
// NVIDIA): which per-command habits (an event, a completion callback, a flush) cost how much.
// Build: gcc -O2 -o launch_cost bench/tools/launch_cost.c -lOpenCL. Results: docs/results/h100-session3.md.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static void CL_CALLBACK noop(cl_event e, cl_int s, void* u) { (void)e; (void)s; __atomic_add_fetch((long*)u, 1, __ATOMIC_RELAXED); }
int main(int argc, char** argv) {
  const char* want = argc > 1 ? argv[1] : "NVIDIA";
  cl_platform_id ps[16]; cl_uint np = 0; clGetPlatformIDs(16, ps, &np);
  cl_platform_id p = 0; cl_device_id d = 0;
  for (cl_uint i = 0; i < np; ++i) { char n[256]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, n, NULL); if (strstr(n, want)) { p = ps[i]; break; } }
  if (!p) { printf("no platform %s\n", want); return 1; }
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
  cl_int err; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err);
  cl_queue_properties prof[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue qp = clCreateCommandQueueWithProperties(c, d, prof, &err);
  const char* src = "__kernel void k(__global float* a, int i) { a[get_global_id(0)] += (float)i; }";
  cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err); clBuildProgram(pr, 1, &d, "", NULL, NULL);
  cl_kernel k = clCreateKernel(pr, "k", &err);
  cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, 4096 * 4, NULL, &err);
  clSetKernelArg(k, 0, sizeof a, &a);
  size_t g = 1024, l = 256; const int N = 4096; long calls = 0;
  const char* names[] = {"plain", "event", "event+callback", "flush", "event+callback+flush", "event+getinfo+callback+flush",
                         "flush/16+event+callback", "profiling queue", "profiling queue+event", "marker+2 callbacks/16"};
  for (int v = 0; v < 10; ++v) {
    cl_command_queue q0 = q;
    if (v == 7 || v == 8) q = qp;
    for (int rep = 0; rep < 2; ++rep) {
      clFinish(q); double t0 = now(), te;
      for (int i = 0; i < N; ++i) {
        clSetKernelArg(k, 1, sizeof i, &i);
        cl_event e = NULL, m = NULL;
        cl_event* pe = (v >= 1 && v != 3 && v != 7 && v != 9) || (v == 9 && i % 16 == 0) ? &e : NULL;
        if (v == 9 && i % 16 == 0) {  /* how Hetero times one launch in 16: a marker before it, both heard */
          clEnqueueMarkerWithWaitList(q, 0, NULL, &m);
          clSetEventCallback(m, CL_COMPLETE, noop, &calls);
          clReleaseEvent(m);
        }
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, pe);
        if (v == 5) { cl_command_queue of; clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof of, &of, NULL); }
        if (v == 2 || (v >= 4 && v <= 6) || (v == 9 && e)) clSetEventCallback(e, CL_COMPLETE, noop, &calls);
        if (v == 3 || v == 4 || v == 5 || (v == 6 && i % 16 == 15)) clFlush(q);
        if (e) clReleaseEvent(e);
      }
      te = now(); clFinish(q); double t1 = now();
      if (rep) printf("%-30s enqueue %6.2f us/launch, total %6.2f us/launch\n", names[v], (te - t0) / N * 1e6, (t1 - t0) / N * 1e6);
    }
    q = q0;
  }
  return 0;
}
