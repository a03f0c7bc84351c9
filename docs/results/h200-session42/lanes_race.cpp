// Session 42: several host threads, each with a queue of its own in one context, launch one kernel
// (each a buffer of its own) `rounds` times, then read and check. Through Hetero with every launch
// split, the split's own kernels (the chunk variant, the merge kernels) run from every queue at
// once with offsets and sizes that change: PoCL 3.1-5.0 abort on that ("pocl_release_dlhandle_cache:
// Assertion `found->ref_count > 0'") unless each queue's commands have a build of their own
// (devices/kernel_lanes.hpp). Prints "bad=N" (results or calls that were wrong); exits 1 if any.
//   lanes_race [threads] [rounds]
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <atomic>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
static const char* src = "__kernel void add(__global int* a, int by) { a[get_global_id(0)] += by; }\n";
int main(int argc, char** argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 4, rounds = argc > 2 ? atoi(argv[2]) : 100;
    cl_platform_id ps[8]; cl_uint np; clGetPlatformIDs(8, ps, &np);
    cl_platform_id p = nullptr;
    for (cl_uint i = 0; i < np; ++i) { char n[64]; clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, 64, n, nullptr); if (std::string(n).find("Hetero") != std::string::npos) p = ps[i]; }
    cl_device_id d; clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, nullptr);
    cl_int err; cl_context c = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
    cl_program pr = clCreateProgramWithSource(c, 1, &src, nullptr, &err); clBuildProgram(pr, 1, &d, "", nullptr, nullptr);
    std::atomic<int> bad{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] {
        cl_int e; cl_command_queue q = clCreateCommandQueueWithProperties(c, d, nullptr, &e);
        cl_kernel k = clCreateKernel(pr, "add", &e);
        size_t n = 1024 * (1 + t % 3);
        std::vector<cl_int> init(n, t);
        cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, init.data(), &e);
        cl_int by = t + 1; clSetKernelArg(k, 0, sizeof b, &b); clSetKernelArg(k, 1, sizeof by, &by);
        for (int r = 0; r < rounds; ++r) if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr)) ++bad;
        std::vector<cl_int> out(n); clEnqueueReadBuffer(q, b, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr);
        for (auto v : out) if (v != t + rounds * (t + 1)) { ++bad; break; }
        clReleaseMemObject(b); clReleaseKernel(k); clReleaseCommandQueue(q);
    });
    for (auto& th : pool) th.join();
    printf("bad=%d\n", bad.load());
    return bad != 0;
}
