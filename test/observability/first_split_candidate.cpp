// The program the backend-calls.merge-built-with-variants test runs (hidden from ordinary runs):
// one launch that would split while the split variants are not built yet. It starts their build,
// runs whole and completes after the build (split/variants.hpp); nothing splits or merges.
#include "cl_test.hpp"

using cltest::Env;
using cltest::setArg;

TEST_CASE("one launch that starts the split variants' build", "[.][first-split-candidate]") {
    Env env;
    cl_program p = env.build("__kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }");
    const size_t n = 4096;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    const cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, buf, &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto back = env.read<cl_int>(buf, n);
    CHECK(std::count(back.begin(), back.end(), 1) == static_cast<std::ptrdiff_t>(n));
}
