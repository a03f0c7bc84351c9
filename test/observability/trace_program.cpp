// The program trace_check.py runs with HETERO_TRACE set (hidden from ordinary runs): a known
// sequence on one queue, then threads launching on their own queues at once, so that the trace is
// written from several threads. trace_check.py knows the numbers below; change them together.
#include "cl_test.hpp"

#include <thread>

using cltest::Env;
using cltest::setArg;

namespace {
const char* kKernels = R"(
    __kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }
    __kernel void single(__global int* v) { v[0] += 100; })";
}

TEST_CASE("a known sequence for the trace", "[.][trace-program]") {
    Env env;
    cl_program p = env.build(kKernels);

    // 1 MiB written, launched on with a local size (4096 work-groups), without one (64 chosen:
    // 4096), as a task (1), read back, mapped.
    {
        const size_t n = (1 << 20) / sizeof(cl_int), local = 64;
        std::vector<cl_int> data(n, 1);
        cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
        cl_kernel increment = env.kernel(p, "increment"), single = env.kernel(p, "single");
        setArg(increment, 0, buf);
        setArg(single, 0, buf);
        REQUIRE(clEnqueueWriteBuffer(env.queue, buf, CL_FALSE, 0, n * sizeof(cl_int), data.data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueTask(env.queue, single, 0, nullptr, nullptr) == CL_SUCCESS);
        auto back = env.read<cl_int>(buf, n);
        CHECK(back[0] == 103);
        cl_int err = CL_SUCCESS;
        void* mapped = clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_READ, 0, n * sizeof(cl_int), 0, nullptr,
                                          nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        REQUIRE(clEnqueueUnmapMemObject(env.queue, buf, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        clReleaseKernel(increment), clReleaseKernel(single), clReleaseMemObject(buf);
    }

    // 4 threads x 5 rounds: write 4096 ints, launch without a local size (64 work-groups), read.
    const int threads = 4, rounds = 5;
    std::vector<std::thread> workers;
    std::vector<int> failures(threads, 0);
    for (int t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            const size_t n = 4096;
            cl_int err = CL_SUCCESS;
            cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
            cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &err);
            cl_kernel k = clCreateKernel(p, "increment", &err);
            clSetKernelArg(k, 0, sizeof buf, &buf);
            std::vector<cl_int> v(n, t);
            for (int r = 0; r < rounds; ++r) {
                clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, n * sizeof(cl_int), v.data(), 0, nullptr, nullptr);
                clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
                clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * sizeof(cl_int), v.data(), 0, nullptr, nullptr);
                if (v[n - 1] != t + r + 1) ++failures[t];
            }
            clReleaseKernel(k), clReleaseMemObject(buf), clReleaseCommandQueue(q);
        });
    for (auto& w : workers) w.join();
    for (int t = 0; t < threads; ++t) CHECK(failures[t] == 0);
    clReleaseProgram(p);
}
