// hetero-abort-cost: measures what the abortable variant costs when nothing is aborted (status word
// never covers a group), against the original kernel, on a real device (the GPU by default).
// Also times the variant when every group is skipped, i.e. the price of the checks alone.
//   hetero-abort-cost [--cpu] [--repeat N]
#include "transform/transform.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace tf = hetero::transform;

namespace {

struct Case {
    const char* name;
    const char* source;
    unsigned dims;
    size_t global[2], local[2];
    std::vector<size_t> bufferFloats;  // float buffers, in argument order, before the scalar args
    std::vector<int> intArgs;          // then these int arguments
};

const char* const kGemm = R"CL(
__kernel void gemm(__global const float* A, __global const float* B, __global float* C, int n) {
    int j = get_global_id(0), i = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += A[i * n + k] * B[k * n + j];
    C[i * n + j] = acc;
})CL";
const char* const kJacobi = R"CL(
__kernel void jacobi2d(__global const float* A, __global float* B, int n) {
    int j = get_global_id(0), i = get_global_id(1);
    if (i > 0 && j > 0 && i < n - 1 && j < n - 1)
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] + A[(i - 1) * n + j] + A[(i + 1) * n + j]);
})CL";
const char* const kReduce = R"CL(
__kernel void reduce(__global const float* in, __global float* out, int n) {
    __local float s[256];
    int l = get_local_id(0);
    s[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = get_local_size(0) / 2; w > 0; w /= 2) {
        if (l < w) s[l] += s[l + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = s[0];
})CL";
const char* const kStoreInLoop = R"CL(
__kernel void accumulate(__global float* acc, __global const float* w, int n) {
    int i = get_global_id(0);
    for (int k = 0; k < n; k++) acc[i] += w[(i + k) & 1023];
})CL";
const char* const kSaxpy = R"CL(
__kernel void saxpy(__global const float* x, __global float* y, int n) {
    int i = get_global_id(0);
    y[i] = 2.0f * x[i] + y[i];
})CL";

void check(cl_int err, const char* what) {
    if (err != CL_SUCCESS) {
        std::fprintf(stderr, "hetero-abort-cost: %s failed (%d)\n", what, err);
        std::exit(1);
    }
}

double runMs(cl_command_queue q, cl_kernel k, const Case& c) {
    cl_event ev;
    check(clEnqueueNDRangeKernel(q, k, c.dims, nullptr, c.global, c.local, 0, nullptr, &ev), "enqueue");
    check(clWaitForEvents(1, &ev), "wait");
    cl_ulong t0 = 0, t1 = 0;
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, nullptr);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, nullptr);
    clReleaseEvent(ev);
    return (t1 - t0) / 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

cl_program build(cl_context ctx, cl_device_id dev, const std::string& src) {
    const char* s = src.c_str();
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    check(err, "clCreateProgramWithSource");
    if (clBuildProgram(p, 1, &dev, "", nullptr, nullptr) != CL_SUCCESS) {
        char log[20000] = {};
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
        std::fprintf(stderr, "build failed:\n%s\n", log);
        std::exit(1);
    }
    return p;
}

}  // namespace

int main(int argc, char** argv) {
    bool cpu = false;
    int repeat = 30;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--cpu")) cpu = true;
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
    }
    const cl_device_type want = cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> platforms(np);
    clGetPlatformIDs(np, platforms.data(), nullptr);
    cl_device_id dev = nullptr;
    for (auto p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::string(name) == "Hetero") continue;
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, want, 1, &dev, &nd) == CL_SUCCESS && nd > 0) break;
        dev = nullptr;
    }
    if (!dev) {
        std::fprintf(stderr, "hetero-abort-cost: no %s device\n", cpu ? "CPU" : "GPU");
        return 1;
    }
    char devName[256] = {};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof devName, devName, nullptr);
    std::printf("device: %s, median of %d runs\n", devName, repeat);
    cl_int err;
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, &err);
    check(err, "clCreateContext");
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");

    const int n2 = 1024, n1 = 1 << 22;
    const std::vector<Case> cases = {
        {"gemm 1024 (loop checks)", kGemm, 2, {1024, 1024}, {16, 16}, {size_t(n2) * n2, size_t(n2) * n2, size_t(n2) * n2}, {n2}},
        {"jacobi2d 4096 (start check)", kJacobi, 2, {4096, 4096}, {32, 8}, {4096u * 4096u, 4096u * 4096u}, {4096}},
        {"reduce 4M, barrier (uniform start check)", kReduce, 1, {size_t(n1), 1}, {256, 1}, {size_t(n1), size_t(n1) / 256}, {n1}},
        {"accumulate 1M x 256, store in loop (start check)", kStoreInLoop, 1, {1u << 20, 1}, {256, 1}, {1u << 20, 1024}, {256}},
        {"saxpy 4M (start check)", kSaxpy, 1, {size_t(n1), 1}, {256, 1}, {size_t(n1), size_t(n1)}, {n1}},
    };
    std::mt19937 rng(7);
    std::printf("%-50s %12s %12s %9s %14s\n", "kernel", "original ms", "abortable ms", "overhead", "all-skipped ms");
    for (const Case& c : cases) {
        const std::vector<std::string> sources = {c.source};
        const tf::ProgramAnalysis a = tf::analyze(sources, "");
        if (a.kernels.size() != 1 || !a.kernels[0].splittable) {
            std::printf("%-50s not splittable: %s\n", c.name, a.kernels.empty() ? "?" : a.kernels[0].reason.c_str());
            continue;
        }
        const tf::Variants v = tf::makeVariants(sources, "", a);
        cl_program orig = build(ctx, dev, c.source);
        cl_program var = build(ctx, dev, v.source);
        const std::string name = a.kernels[0].name;
        cl_kernel ko = clCreateKernel(orig, name.c_str(), &err);
        check(err, "clCreateKernel original");
        cl_kernel ka = clCreateKernel(var, (name + "__hetero_abort").c_str(), &err);
        check(err, "clCreateKernel abortable");
        std::vector<cl_mem> bufs;
        for (size_t floats : c.bufferFloats) {
            std::vector<float> host(floats);
            for (auto& x : host) x = std::uniform_real_distribution<float>(-1, 1)(rng);
            bufs.push_back(clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, floats * 4, host.data(), &err));
            check(err, "clCreateBuffer");
        }
        cl_uint arg = 0;
        for (cl_mem b : bufs) {
            clSetKernelArg(ko, arg, sizeof b, &b);
            clSetKernelArg(ka, arg++, sizeof b, &b);
        }
        for (int x : c.intArgs) {
            clSetKernelArg(ko, arg, sizeof x, &x);
            clSetKernelArg(ka, arg++, sizeof x, &x);
        }
        tf::NDRange r;
        r.dims = c.dims;
        for (unsigned d = 0; d < c.dims; ++d) {
            r.global[d] = c.global[d];
            r.local[d] = c.local[d];
        }
        const cl_uint launchId = 42;
        cl_uint status[2] = {launchId, static_cast<cl_uint>(r.numGroups())};  // nothing completed by the CPU
        cl_mem st = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof status, status, &err);
        check(err, "status buffer");
        clSetKernelArg(ka, arg, sizeof st, &st);
        const auto extra = tf::abortExtraArgs(r, launchId);
        for (size_t i = 0; i < extra.size(); ++i) clSetKernelArg(ka, arg + 1 + i, extra[i].size, extra[i].value.data());
        runMs(q, ko, c);
        runMs(q, ka, c);
        std::vector<double> to, ta;
        for (int i = 0; i < repeat; ++i) {  // interleaved, so clock changes hit both alike
            to.push_back(runMs(q, ko, c));
            ta.push_back(runMs(q, ka, c));
        }
        cl_uint all[2] = {launchId, 0};  // the CPU has done everything: every group returns at once
        check(clEnqueueWriteBuffer(q, st, CL_TRUE, 0, sizeof all, all, 0, nullptr, nullptr), "status write");
        std::vector<double> ts;
        for (int i = 0; i < repeat; ++i) ts.push_back(runMs(q, ka, c));
        const double mo = median(to), ma = median(ta);
        std::printf("%-50s %12.4f %12.4f %8.2f%% %14.4f\n", c.name, mo, ma, 100.0 * (ma - mo) / mo, median(ts));
        for (cl_mem b : bufs) clReleaseMemObject(b);
        clReleaseMemObject(st);
        clReleaseKernel(ko);
        clReleaseKernel(ka);
        clReleaseProgram(orig);
        clReleaseProgram(var);
    }
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return 0;
}
