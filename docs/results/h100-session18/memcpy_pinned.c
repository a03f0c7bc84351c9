// Scratch (session 18): memcpy from ordinary memory into pinned memory (NVIDIA CL_MEM_ALLOC_HOST_PTR,
// mapped) with 1..T threads, against NVIDIA's own write of the same bytes from ordinary and pinned memory.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
struct Job { char* d; const char* s; size_t n; };
static void* run(void* a) { struct Job* j = a; memcpy(j->d, j->s, j->n); return NULL; }
static void pcopy(char* d, const char* s, size_t n, int t) {
  pthread_t th[64]; struct Job j[64]; size_t per = (n / t + 4095) & ~(size_t)4095;
  for (int i = 0; i < t; ++i) { size_t o = per * i; size_t len = o >= n ? 0 : (n - o < per ? n - o : per); j[i] = (struct Job){d + o, s + o, len}; if (i) pthread_create(&th[i], NULL, run, &j[i]); }
  run(&j[0]);
  for (int i = 1; i < t; ++i) pthread_join(th[i], NULL);
}
int main(int argc, char** argv) {
  size_t n = (argc > 1 ? atol(argv[1]) : 20) << 20;
  cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np);
  cl_platform_id p = NULL;
  for (cl_uint i = 0; i < np; ++i) { char name[256]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 256, name, NULL); if (strstr(name, "NVIDIA")) p = ps[i]; }
  cl_device_id d; clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL);
  cl_int e; cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &e);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &e);
  cl_mem pin = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, n, NULL, &e);
  char* h = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_WRITE, 0, n, 0, NULL, NULL, &e);
  cl_mem dev = clCreateBuffer(c, CL_MEM_READ_WRITE, n, NULL, &e);
  char* src = malloc(n); memset(src, 1, n); memset(h, 2, n);
  clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, n, src, 0, NULL, NULL);
  for (int rep = 0; rep < 2; ++rep) {
    for (int t = 1; t <= 16; t *= 2) { double best = 1e9; for (int r = 0; r < 5; ++r) { double t0 = now(); pcopy(h, src, n, t); double s = now() - t0; if (s < best) best = s; } printf("memcpy MB=%zu threads=%d ms=%.3f GBps=%.1f\n", n >> 20, t, best * 1e3, n / best / 1e9); }
    double best = 1e9; for (int r = 0; r < 5; ++r) { double t0 = now(); clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, n, src, 0, NULL, NULL); double s = now() - t0; if (s < best) best = s; } printf("nvidia write from ordinary MB=%zu ms=%.3f GBps=%.1f\n", n >> 20, best * 1e3, n / best / 1e9);
    best = 1e9; for (int r = 0; r < 5; ++r) { double t0 = now(); clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, n, h, 0, NULL, NULL); double s = now() - t0; if (s < best) best = s; } printf("nvidia write from pinned MB=%zu ms=%.3f GBps=%.1f\n", n >> 20, best * 1e3, n / best / 1e9);
    best = 1e9; for (int r = 0; r < 5; ++r) { double t0 = now(); pcopy(h, src, n, 1); clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, n, h, 0, NULL, NULL); double s = now() - t0; if (s < best) best = s; } printf("memcpy then pinned write MB=%zu ms=%.3f GBps=%.1f\n", n >> 20, best * 1e3, n / best / 1e9);
  }
  return 0;
}
