// Probe: does a launch over half of a kernel's work-group rows (through a global offset) take half
// the time of the whole launch, natively? mm3_product/gemm-like kernel, profiling events.
#include "../bench/tools/tool_support.h"
static const char* src =
"__kernel void mm3_product(__global const float* left, __global const float* right,\n"
"                          __global float* out, int rows, int cols, int inner) {\n"
"  const int j = get_global_id(0);\n  const int i = get_global_id(1);\n"
"  if (i < rows && j < cols) {\n    out[i * cols + j] = 0.0f;\n"
"    for (int k = 0; k < inner; ++k)\n      out[i * cols + j] += left[i * inner + k] * right[k * cols + j];\n  }\n}\n";
static double run(cl_command_queue q, cl_kernel k, size_t off1, size_t g0, size_t g1) {
    size_t off[2] = {0, off1}, global[2] = {g0, g1}, local[2] = {32, 8};
    double best = 1e9;
    for (int r = 0; r < 5; ++r) {
        cl_event e;
        check(clEnqueueNDRangeKernel(q, k, 2, off, global, local, 0, NULL, &e), "enqueue");
        clWaitForEvents(1, &e);
        cl_ulong a, b;
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
        clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
        clReleaseEvent(e);
        if ((b - a) * 1e-6 < best) best = (b - a) * 1e-6;
    }
    return best;
}
int main(int argc, char** argv) {
    toolName = "half_rows";
    char name[256];
    cl_platform_id p = findPlatform("NVIDIA", 0, name, sizeof name);
    cl_device_id ds[8]; cl_uint nd = 0;
    clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 8, ds, &nd);
    int shapes[][3] = {{1600, 1800, 2000}, {1800, 2200, 2400}, {1600, 2200, 1800}, {2000, 2300, 2600}};
    for (cl_uint dev = 0; dev < nd && dev < 2; ++dev) {
        cl_int err;
        cl_context c = clCreateContext(NULL, 1, &ds[dev], NULL, NULL, &err); check(err, "ctx");
        cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
        cl_command_queue q = clCreateCommandQueueWithProperties(c, ds[dev], props, &err); check(err, "queue");
        cl_program pr = clCreateProgramWithSource(c, 1, &src, NULL, &err);
        check(clBuildProgram(pr, 1, &ds[dev], "", NULL, NULL), "build");
        cl_kernel k = clCreateKernel(pr, "mm3_product", &err); check(err, "kernel");
        for (int s = 0; s < 4; ++s) {
            int rows = shapes[s][0], cols = shapes[s][1], inner = shapes[s][2];
            size_t bl = (size_t)rows * inner * 4, br = (size_t)inner * cols * 4, bo = (size_t)rows * cols * 4;
            cl_mem L = clCreateBuffer(c, CL_MEM_READ_WRITE, bl, NULL, &err), R = clCreateBuffer(c, CL_MEM_READ_WRITE, br, NULL, &err),
                   O = clCreateBuffer(c, CL_MEM_READ_WRITE, bo, NULL, &err);
            float one = 1.0f;
            clEnqueueFillBuffer(q, L, &one, 4, 0, bl, 0, NULL, NULL);
            clEnqueueFillBuffer(q, R, &one, 4, 0, br, 0, NULL, NULL);
            clSetKernelArg(k, 0, sizeof L, &L); clSetKernelArg(k, 1, sizeof R, &R); clSetKernelArg(k, 2, sizeof O, &O);
            clSetKernelArg(k, 3, 4, &rows); clSetKernelArg(k, 4, 4, &cols); clSetKernelArg(k, 5, 4, &inner);
            size_t g0 = (cols + 31) / 32 * 32, g1 = (rows + 7) / 8 * 8, h = g1 / 16 * 8;
            double whole = run(q, k, 0, g0, g1), lo = run(q, k, 0, g0, h), hi = run(q, k, h, g0, g1 - h);
            printf("gpu %u %dx%dx%d: whole %.3f ms, low half %.3f (%.2f), high half %.3f (%.2f)\n", dev, rows, cols, inner,
                   whole, lo, lo / whole, hi, hi / whole);
            clReleaseMemObject(L); clReleaseMemObject(R); clReleaseMemObject(O);
        }
        clReleaseKernel(k); clReleaseProgram(pr); clReleaseCommandQueue(q); clReleaseContext(c);
    }
    return 0;
}
