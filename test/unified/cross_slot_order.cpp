// Run by unified.cross-slot-order only (hidden): the slots take turns (HETERO_RUN_ON=alternate), so a
// launch on a second queue, not told to wait, lands on the other slot while a profiled launch that
// writes its input still runs. The one allocation keeps writes in order across slots: the second
// launch waits for a bridge of the first one's backend event, made when it asks (unified_storage.hpp).
#include "cl_test.hpp"

#include <algorithm>

using cltest::Env;
using cltest::setArg;

TEST_CASE("a launch on the other slot runs after a profiled write still running there", "[.][cross-slot-order]") {
    Env env(CL_QUEUE_PROFILING_ENABLE);
    cl_int err = CL_SUCCESS;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue second = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program p = env.build(R"(
        __kernel void slow_write(__global int* v, uint rounds) {
            uint x = (uint)get_global_id(0);
            for (uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
            v[get_global_id(0)] = 7 + (x == 12345u);  // 7 unless the loop lands on 12345 (it does not)
        }
        __kernel void copy(__global const int* v, __global int* out) { out[get_global_id(0)] = v[get_global_id(0)]; })");
    const size_t n = 2;
    cl_mem v = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)), out = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    const cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, v, &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    cl_kernel slow = env.kernel(p, "slow_write"), copy = env.kernel(p, "copy");
    const cl_uint rounds = 50u << 20;  // tens of milliseconds on PoCL
    setArg(slow, 0, v), setArg(slow, 1, rounds);
    setArg(copy, 0, v), setArg(copy, 1, out);
    cl_event written = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, slow, 1, nullptr, &n, nullptr, 0, nullptr, &written) == CL_SUCCESS);
    REQUIRE(clFlush(env.queue) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(second, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> got(n, -1);
    REQUIRE(clEnqueueReadBuffer(second, out, CL_TRUE, 0, n * sizeof(cl_int), got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(std::count(got.begin(), got.end(), 7) == static_cast<std::ptrdiff_t>(n));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseEvent(written);
    clReleaseCommandQueue(second);
}
