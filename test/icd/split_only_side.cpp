// The measuring knob HETERO_TEST_SPLIT_ONLY=gpu|cpu with HETERO_CPU_SHARE: a launch runs only one
// side of the static split, and the other side's work-groups are left untouched. Hidden ([.]):
// only the ctest configurations that set the knob run it (test/icd/CMakeLists.txt).
#include "cl_test.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

using cltest::Env;
using cltest::setArg;

TEST_CASE("only one side of a static split runs", "[.only-side]") {
    const char* side = std::getenv("HETERO_TEST_SPLIT_ONLY");
    const char* share = std::getenv("HETERO_CPU_SHARE");
    REQUIRE(side != nullptr);
    REQUIRE(share != nullptr);
    const bool gpuSide = std::string(side) == "gpu";
    Env env;
    // Each work-item writes its work-group's flattened ID + 1 (the split engines' order: dimension 0 fastest).
    cl_program p = env.build(R"(
        __kernel void mark(__global uint* out) {
            uint g = get_group_id(0) + get_num_groups(0) * get_group_id(1);
            out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = g + 1;
        })");
    cl_kernel k = env.kernel(p, "mark");
    const size_t global[2] = {24, 10}, local[2] = {4, 2};
    const size_t n = global[0] * global[1];
    const uint64_t groups = (global[0] / local[0]) * (global[1] / local[1]);
    const uint64_t cut = groups - static_cast<uint64_t>(std::llround(std::strtod(share, nullptr) * double(groups)));
    REQUIRE(cut > 0);
    REQUIRE(cut < groups);  // both sides have groups: the test tells them apart
    std::vector<cl_uint> zeros(n, 0);
    cl_mem out = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), zeros.data());
    setArg(k, 0, out);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto got = env.read<cl_uint>(out, n);
    uint64_t written = 0;
    for (size_t y = 0; y < global[1]; ++y)
        for (size_t x = 0; x < global[0]; ++x) {
            const uint64_t g = x / local[0] + (global[0] / local[0]) * (y / local[1]);
            const bool runs = gpuSide ? g < cut : g >= cut;
            INFO("work-item (" << x << ", " << y << "), group " << g << ", cut " << cut << ", side " << side);
            REQUIRE(got[y * global[0] + x] == (runs ? cl_uint(g + 1) : 0u));
            written += runs;
        }
    REQUIRE(written == (gpuSide ? cut : groups - cut) * local[0] * local[1]);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(out);
}
