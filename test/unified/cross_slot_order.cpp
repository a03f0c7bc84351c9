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
    // spin runs tens of milliseconds on PoCL with this many rounds (cl_test.hpp).
    cl_program p = env.build(std::string(cltest::kSpinSource) + R"(
        __kernel void copy(__global const uint* v, __global uint* out) { out[get_global_id(0)] = v[get_global_id(0)]; })");
    const size_t n = 2;
    cl_mem v = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint)), out = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
    const cl_uint zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, v, &zero, sizeof zero, 0, n * sizeof(cl_uint), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    cl_kernel slow = env.kernel(p, "spin"), copy = env.kernel(p, "copy");
    const cl_uint rounds = 50u << 20;
    setArg(slow, 0, v), setArg(slow, 1, rounds);
    setArg(copy, 0, v), setArg(copy, 1, out);
    cl_event written = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, slow, 1, nullptr, &n, nullptr, 0, nullptr, &written) == CL_SUCCESS);
    REQUIRE(clFlush(env.queue) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(second, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_uint> got(n, 0);
    REQUIRE(clEnqueueReadBuffer(second, out, CL_TRUE, 0, n * sizeof(cl_uint), got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    // What the copy read is what spin wrote (not the zeros before it).
    const std::vector<cl_uint> spun = env.read<cl_uint>(v, n);
    CHECK(std::count(spun.begin(), spun.end(), 0u) == 0);
    CHECK(got == spun);
    clReleaseEvent(written);
    clReleaseCommandQueue(second);
}
