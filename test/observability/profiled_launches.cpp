// The program the backend-calls.unified tests run (hidden from ordinary runs): launches on a
// profiling queue, each with an event the application releases at once, all writing one buffer.
// Profiled launches get backend events of their own, so in unified memory each one is a write that
// another slot's work could have to wait for (unified_storage.hpp).
#include "cl_test.hpp"

using cltest::Env;
using cltest::setArg;

TEST_CASE("launches on a profiling queue, each with an event", "[.][profiled-launches]") {
    Env env(CL_QUEUE_PROFILING_ENABLE);
    cl_program p = env.build("__kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }");
    const size_t n = 1024;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    const cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, buf, &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    for (int i = 0; i < 20; ++i) {
        cl_event e = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
        REQUIRE(clReleaseEvent(e) == CL_SUCCESS);
    }
    auto back = env.read<cl_int>(buf, n);
    CHECK(std::count(back.begin(), back.end(), 20) == static_cast<std::ptrdiff_t>(n));
}
