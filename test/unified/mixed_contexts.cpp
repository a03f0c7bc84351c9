// One program, two contexts: one in unified memory, one in discrete memory, data passed between them
// through the host (reads, writes, maps) while both split their launches.
#include "unified_support.hpp"

using namespace unified;

TEST_CASE("unified: a unified and a discrete context in one program pass data back and forth", "[unified][mixed]") {
    ModelEnv u(CL_MEMORY_MODEL_UNIFIED_HETERO), d(CL_MEMORY_MODEL_DISCRETE_HETERO);
    const size_t n = 20000;  // not a multiple of the local size below: the NULL local size path
    std::vector<cl_int> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<cl_int>(i % 1000) - 500;
    cl_program pu = u.build(kMarkSource), pd = d.build(kMarkSource);
    cl_kernel ku = u.kernel(pu, "affine"), kd = d.kernel(pd, "affine");
    cl_mem ux = u.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, x.data());
    cl_mem uy = u.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_mem dx = d.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_mem dy = d.buffer(CL_MEM_READ_WRITE, n * 4);
    std::vector<cl_int> expect = x, staged(n);
    size_t global = n;
    for (int round = 0; round < 4; ++round) {
        // unified: y = 3x + 1, then the host copies y into the discrete context's x (a read)
        cltest::setArg(ku, 0, ux), cltest::setArg(ku, 1, uy), cltest::setArg(ku, 2, cl_int(3)), cltest::setArg(ku, 3, cl_int(1));
        REQUIRE(clEnqueueNDRangeKernel(u.queue, ku, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(u.queue, uy, CL_TRUE, 0, n * 4, staged.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        for (auto& v : expect) v = 3 * v + 1;
        REQUIRE(staged == expect);
        REQUIRE(clEnqueueWriteBuffer(d.queue, dx, CL_FALSE, 0, n * 4, staged.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        // discrete: y = -x + 5 (split by the discrete engine), then mapped and copied into the unified x
        cltest::setArg(kd, 0, dx), cltest::setArg(kd, 1, dy), cltest::setArg(kd, 2, cl_int(-1)), cltest::setArg(kd, 3, cl_int(5));
        REQUIRE(clEnqueueNDRangeKernel(d.queue, kd, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        cl_int err = CL_SUCCESS;
        auto* from = static_cast<cl_int*>(clEnqueueMapBuffer(d.queue, dy, CL_TRUE, CL_MAP_READ, 0, n * 4, 0, nullptr, nullptr, &err));
        REQUIRE(err == CL_SUCCESS);
        auto* to = static_cast<cl_int*>(
            clEnqueueMapBuffer(u.queue, ux, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, n * 4, 0, nullptr, nullptr, &err));
        REQUIRE(err == CL_SUCCESS);
        std::copy(from, from + n, to);
        REQUIRE(clEnqueueUnmapMemObject(u.queue, ux, to, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueUnmapMemObject(d.queue, dy, from, 0, nullptr, nullptr) == CL_SUCCESS);
        for (auto& v : expect) v = -v + 5;
    }
    CHECK(u.read<cl_int>(ux, n) == expect);
    // A buffer belongs to its context: using it in the other is refused, whatever the memory models.
    CHECK(clSetKernelArg(ku, 0, sizeof dx, &dx) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueReadBuffer(u.queue, dx, CL_TRUE, 0, 4, staged.data(), 0, nullptr, nullptr) == CL_INVALID_CONTEXT);
    clReleaseMemObject(ux), clReleaseMemObject(uy), clReleaseMemObject(dx), clReleaseMemObject(dy);
    clReleaseKernel(ku), clReleaseKernel(kd), clReleaseProgram(pu), clReleaseProgram(pd);
}
