// Memory round trips through Hetero: maps, sub-buffers, host pointers, copies between buffers,
// interleaved with kernels so that contents move between slots and the host.
#include "cl_test.hpp"

#include <cstring>

using cltest::Env;
using cltest::setArg;

namespace {
const char* kIncrement = R"(
    __kernel void increment(__global int* v, int by) { v[get_global_id(0)] += by; })";
}

TEST_CASE("map/unmap round trips around kernels", "[programs][memory]") {
    Env env;
    const size_t n = 1024;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n * 4);
    cl_program p = env.build(kIncrement);
    cl_kernel k = env.kernel(p, "increment");
    setArg(k, 0, buf);
    cl_int err;
    auto* w = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, n * 4,
                                                      0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i) w[i] = int(i);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, buf, w, 0, nullptr, nullptr) == CL_SUCCESS);
    for (int round = 1; round <= 4; ++round) {
        setArg(k, 1, cl_int(round));
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        // Map a part for reading and writing: see the kernel's result, change a few values.
        size_t offset = 128 * 4, size = 256 * 4;
        auto* part = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, offset,
                                                             size, 0, nullptr, nullptr, &err));
        REQUIRE(err == CL_SUCCESS);
        int expectedAdd = round * (round + 1) / 2;
        for (size_t i = 0; i < 256; ++i) {
            int base = int(128 + i) + expectedAdd + (round > 1 ? (round - 1) : 0) * (i < 8 ? 1000 : 0);
            REQUIRE(part[i] == base);
        }
        for (size_t i = 0; i < 8; ++i) part[i] += 1000;
        REQUIRE(clEnqueueUnmapMemObject(env.queue, buf, part, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    auto v = env.read<cl_int>(buf, n);
    for (size_t i = 0; i < n; ++i) {
        int expected = int(i) + 10 + ((i >= 128 && i < 136) ? 4000 : 0);
        REQUIRE(v[i] == expected);
    }
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("USE_HOST_PTR buffers show kernel results in the host memory after a map", "[programs][memory]") {
    Env env;
    const size_t n = 512;
    alignas(4096) static cl_int host[n];
    for (size_t i = 0; i < n; ++i) host[i] = int(i) * 3;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof host, host);
    cl_program p = env.build(kIncrement);
    cl_kernel k = env.kernel(p, "increment");
    setArg(k, 0, buf), setArg(k, 1, cl_int(7));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_int err;
    void* mapped = clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_READ, 0, sizeof host, 0, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(mapped == static_cast<void*>(host));
    for (size_t i = 0; i < n; ++i) REQUIRE(host[i] == int(i) * 3 + 14);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, buf, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("sub-buffers are views of their parent across kernels and transfers", "[programs][memory]") {
    Env env;
    cl_uint alignBits = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr) == CL_SUCCESS);
    const size_t align = alignBits / 8, ints = align / 4;  // one aligned chunk of ints per sub-buffer
    const size_t n = 4 * ints;
    std::vector<cl_int> init(n, 1);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, init.data());
    cl_buffer_region region{align, 2 * align};  // the middle two chunks
    cl_int err;
    cl_mem sub = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program p = env.build(kIncrement);
    cl_kernel k = env.kernel(p, "increment");
    setArg(k, 0, sub), setArg(k, 1, cl_int(5));
    size_t subN = 2 * ints;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &subN, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    setArg(k, 0, parent), setArg(k, 1, cl_int(100));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto all = env.read<cl_int>(parent, n);
    for (size_t i = 0; i < n; ++i) REQUIRE(all[i] == ((i >= ints && i < 3 * ints) ? 106 : 101));
    std::vector<cl_int> viaSub(subN);
    REQUIRE(clEnqueueReadBuffer(env.queue, sub, CL_TRUE, 0, subN * 4, viaSub.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    for (auto v : viaSub) REQUIRE(v == 106);
    // A write through the sub-buffer is seen through the parent.
    std::vector<cl_int> sevens(subN, 7);
    REQUIRE(clEnqueueWriteBuffer(env.queue, sub, CL_TRUE, 0, subN * 4, sevens.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    all = env.read<cl_int>(parent, n);
    for (size_t i = 0; i < n; ++i) REQUIRE(all[i] == ((i >= ints && i < 3 * ints) ? 7 : 101));
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(sub), clReleaseMemObject(parent);
}

TEST_CASE("copies, fills and rect transfers between kernels", "[programs][memory]") {
    Env env;
    const size_t w = 32, h = 16, n = w * h;
    std::vector<cl_int> src(n);
    for (size_t i = 0; i < n; ++i) src[i] = int(i);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, src.data());
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_program p = env.build(kIncrement);
    cl_kernel k = env.kernel(p, "increment");
    setArg(k, 0, a), setArg(k, 1, cl_int(1));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, b, &zero, 4, 0, n * 4, 0, nullptr, nullptr) == CL_SUCCESS);
    // Copy a 8x4 block of ints from a (at x=2,y=3) to b (at x=10,y=5).
    size_t srcOrigin[3] = {2 * 4, 3, 0}, dstOrigin[3] = {10 * 4, 5, 0}, region[3] = {8 * 4, 4, 1};
    REQUIRE(clEnqueueCopyBufferRect(env.queue, a, b, srcOrigin, dstOrigin, region, w * 4, 0, w * 4, 0, 0, nullptr,
                                    nullptr) == CL_SUCCESS);
    setArg(k, 0, b), setArg(k, 1, cl_int(1000));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto out = env.read<cl_int>(b, n);
    for (size_t y = 0; y < h; ++y)
        for (size_t x = 0; x < w; ++x) {
            bool inBlock = x >= 10 && x < 18 && y >= 5 && y < 9;
            int expected = inBlock ? src[(y - 2) * w + (x - 8)] + 1 + 1000 : 1000;
            REQUIRE(out[y * w + x] == expected);
        }
    // Read back a rect into a padded host layout.
    std::vector<cl_int> host(4 * 10, -1);
    size_t bufOrigin[3] = {10 * 4, 5, 0}, hostOrigin[3] = {1 * 4, 0, 0}, r2[3] = {8 * 4, 4, 1};
    REQUIRE(clEnqueueReadBufferRect(env.queue, b, CL_TRUE, bufOrigin, hostOrigin, r2, w * 4, 0, 10 * 4, 0, host.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 10; ++x)
            REQUIRE(host[y * 10 + x] == ((x >= 1 && x < 9) ? out[(y + 5) * w + (x - 1 + 10)] : -1));
    // Buffer to buffer copy, then a kernel on the copy.
    REQUIRE(clEnqueueCopyBuffer(env.queue, b, a, 0, 0, n * 4, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(env.read<cl_int>(a, n) == out);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(a), clReleaseMemObject(b);
}
