// What before them makes the second of two launches of gesummv's row pattern slower on the GPU?
// Per round: four fresh 6.8 MB inputs written from pinned memory, a fresh output, three launches
// (device times) and the device addresses of the buffers (a kernel reports them). Modes:
//   plain         inputs made and written one after another
//   padded        before each input a fresh 1-4 MiB buffer, 4 bytes written into it, kept to the end
//   made-only     those buffers made, never written
//   small-writes  before each input 4 bytes written into one long-lived buffer (nothing made)
//   pads-after    the padded mode's buffers made and written after all inputs
//   blocking      plain, each input written blocking
//   out-late      the output made after the inputs' writes finished, right before the first launch
//                 (as Hetero makes its backend buffer: at first use)
//   out-mid       the output made after the inputs' writes were enqueued, before they finished
//   evict         plain, and between the first and second launch a fill of a 256 MiB buffer (more
//                 than the L2 holds): the second launch reads its inputs from memory, not the L2
// Arguments: [rounds] [platform] [build options] [queues]: queues = kept:N (N more queues made at
// the start and kept) or released:N (made, a marker waited on each, released: backend_clock's way).
#define _POSIX_C_SOURCE 200112L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define C(x) do { cl_int e_ = (x); if (e_) { fprintf(stderr, "%s: %d\n", #x, e_); exit(1); } } while (0)
static const char* src =
    "__kernel void rows(__global const float* a, __global const float* b, __global const float* c,\n"
    "                   __global const float* d, __global float* out, int n) {\n"
    "  int i = get_global_id(0);\n  if (i >= n) return;\n  float s = 0.0f;\n"
    "  for (int j = 0; j < n; ++j) s += a[i * n + j] + b[i * n + j] + c[i * n + j] + d[i * n + j];\n"
    "  out[i] = s;\n}\n"
    "__kernel void where(__global const float* a, __global const float* b, __global const float* c,\n"
    "                    __global const float* d, __global float* out, __global ulong* o) {\n"
    "  o[0] = (ulong)a; o[1] = (ulong)b; o[2] = (ulong)c; o[3] = (ulong)d; o[4] = (ulong)out;\n}\n";
static double dev(cl_event e) { cl_ulong s, t; C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, 8, &s, 0)); C(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, 8, &t, 0)); return (t - s) * 1e-3; }
int main(int argc, char** argv) {
    size_t bytes = 6760000; int rounds = argc > 1 ? atoi(argv[1]) : 40;
    const char* want = argc > 2 ? argv[2] : "NVIDIA";
    cl_platform_id ps[8]; cl_uint np; C(clGetPlatformIDs(8, ps, &np));
    cl_platform_id p = 0; char name[256];
    for (cl_uint i = 0; i < np && !p; ++i) { clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, 0); if (strstr(name, want)) p = ps[i]; }
    if (!p) return 1;
    cl_device_id dv; C(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dv, 0));
    cl_int err; cl_context ctx = clCreateContext(0, 1, &dv, 0, 0, &err); C(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dv, CL_QUEUE_PROFILING_ENABLE, &err); C(err);
    cl_command_queue extra[8];
    int extraCount = 0, extraKept = 0;
    const char* colon = argc > 4 ? strchr(argv[4], ':') : NULL;  // "none": no more queues
    if (colon) { extraKept = !strncmp(argv[4], "kept:", 5); extraCount = atoi(colon + 1); }
    for (int i = 0; i < extraCount && i < 8; ++i) {
        extra[i] = clCreateCommandQueue(ctx, dv, CL_QUEUE_PROFILING_ENABLE, &err); C(err);
        cl_event mk; C(clEnqueueMarkerWithWaitList(extra[i], 0, 0, &mk)); C(clWaitForEvents(1, &mk)); clReleaseEvent(mk);
        if (!extraKept) clReleaseCommandQueue(extra[i]);
    }
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, 0, &err); C(err);
    C(clBuildProgram(prog, 1, &dv, argc > 3 ? argv[3] : "", 0, 0));  // argv[3]: build options
    cl_kernel k = clCreateKernel(prog, "rows", &err); C(err);
    cl_kernel w = clCreateKernel(prog, "where", &err); C(err);
    int n = (int)sqrt((double)(bytes / 4)); size_t g = (n + 255) / 256 * 256, l = 256, one = 1;
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, bytes * 4, 0, &err); C(err);
    float* host = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes * 4, 0, 0, 0, &err); C(err);
    for (size_t i = 0; i < bytes; ++i) host[i] = (float)(i % 97);
    cl_mem addr = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, 0, &err); C(err);
    cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 << 20, 0, &err); C(err);
    printf("# %s %s\n# mode t1_us t2_us t3_us a b c d out (hex)\n", name, argc > 4 ? argv[4] : "");
    for (int r = 0; r < rounds; ++r)
        for (int m = 0; m < 9; ++m) {
            cl_mem in[4], pad[4] = {0}, out = NULL;
            if (m < 6 || m == 8) { out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, 0, &err); C(err); }
            for (int b = 0; b < 4; ++b) {
                if (m == 1 || m == 2) { pad[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (1 << 20) * (b + 1), 0, &err); C(err); }
                if (m == 1) C(clEnqueueWriteBuffer(q, pad[b], CL_FALSE, 0, 4, host, 0, 0, 0));
                if (m == 3) C(clEnqueueWriteBuffer(q, addr, CL_FALSE, 32, 4, host, 0, 0, 0));
                in[b] = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, 0, &err); C(err);
                C(clEnqueueWriteBuffer(q, in[b], m == 5, 0, bytes, (char*)host + b * bytes, 0, 0, 0));
                C(clSetKernelArg(k, b, sizeof(cl_mem), &in[b])); C(clSetKernelArg(w, b, sizeof(cl_mem), &in[b]));
            }
            for (int b = 0; m == 4 && b < 4; ++b) { pad[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (1 << 20) * (b + 1), 0, &err); C(err); C(clEnqueueWriteBuffer(q, pad[b], CL_FALSE, 0, 4, host, 0, 0, 0)); }
            if (m == 7) { out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, 0, &err); C(err); }
            C(clFinish(q));
            if (m == 6) { out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, 0, &err); C(err); }
            C(clSetKernelArg(k, 4, sizeof(cl_mem), &out)); C(clSetKernelArg(k, 5, sizeof n, &n));
            C(clSetKernelArg(w, 4, sizeof(cl_mem), &out)); C(clSetKernelArg(w, 5, sizeof(cl_mem), &addr));
            cl_event e1, e2, e3;
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e1)); C(clFinish(q));
            if (m == 8) { float zero = 0; C(clEnqueueFillBuffer(q, big, &zero, 4, 0, 256 << 20, 0, 0, 0)); C(clFinish(q)); }
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e2)); C(clFinish(q));
            C(clEnqueueNDRangeKernel(q, k, 1, 0, &g, &l, 0, 0, &e3)); C(clFinish(q));
            cl_ulong a[5];
            C(clEnqueueNDRangeKernel(q, w, 1, 0, &one, &one, 0, 0, 0));
            C(clEnqueueReadBuffer(q, addr, CL_TRUE, 0, sizeof a, a, 0, 0, 0));
            static const char* names[] = {"plain", "padded", "made-only", "small-writes", "pads-after", "blocking", "out-late", "out-mid", "evict"};
            printf("%s %.1f %.1f %.1f %lx %lx %lx %lx %lx\n", names[m], dev(e1), dev(e2), dev(e3), a[0], a[1], a[2], a[3], a[4]);
            clReleaseEvent(e1); clReleaseEvent(e2); clReleaseEvent(e3);
            for (int b = 0; b < 4; ++b) { clReleaseMemObject(in[b]); if (pad[b]) clReleaseMemObject(pad[b]); }
            clReleaseMemObject(out);
        }
    return 0;
}
