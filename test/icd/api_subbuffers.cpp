// Sub-buffers as kernel arguments: what a kernel writes through a sub-buffer is what the parent
// and other sub-buffers show, whichever device ran it (in the two-slot configuration, launches
// alternate between slots, so every step below moves the contents between them).
#include "cl_test.hpp"

#include <numeric>
#include <vector>

namespace {

const char* kSource = R"CLC(
__kernel void add(__global int* d, int amount) { d[get_global_id(0)] += amount; }
__kernel void copy_add(__global const int* src, __global int* dst, int amount) {
    dst[get_global_id(0)] = src[get_global_id(0)] + amount;
}
)CLC";

size_t alignInts(cl_device_id d) {
    cl_uint bits = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr) == CL_SUCCESS);
    return bits / 8 / sizeof(cl_int);
}

cl_mem sub(cl_mem parent, size_t originInts, size_t ints) {
    cl_buffer_region r{originInts * sizeof(cl_int), ints * sizeof(cl_int)};
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
}

void launch(cltest::Env& env, cl_kernel k, size_t n) {
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
}

}  // namespace

TEST_CASE("api: kernel writes through a sub-buffer reach the parent and back", "[api][memory][subbuffer]") {
    cltest::Env env;
    const size_t a = alignInts(env.device), n = 4 * a;
    std::vector<cl_int> init(n);
    std::iota(init.begin(), init.end(), 0);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), init.data());
    cl_mem middle = sub(parent, a, 2 * a);
    cl_program p = env.build(kSource);
    cl_kernel add = env.kernel(p, "add");

    cltest::setArg(add, 0, middle);
    cltest::setArg(add, 1, cl_int{1000});
    launch(env, add, 2 * a);  // parent[a, 3a) += 1000
    cltest::setArg(add, 0, parent);
    cltest::setArg(add, 1, cl_int{1});
    launch(env, add, n);      // all += 1
    cltest::setArg(add, 0, middle);
    cltest::setArg(add, 1, cl_int{20000});
    launch(env, add, a);      // parent[a, 2a) += 20000

    std::vector<cl_int> expect(init);
    for (size_t i = a; i < 3 * a; ++i) expect[i] += 1000;
    for (auto& v : expect) v += 1;
    for (size_t i = a; i < 2 * a; ++i) expect[i] += 20000;
    CHECK(env.read<cl_int>(parent, n) == expect);
    CHECK(env.read<cl_int>(middle, 2 * a) == std::vector<cl_int>(expect.begin() + a, expect.begin() + 3 * a));
    clReleaseKernel(add);
    clReleaseProgram(p);
    clReleaseMemObject(middle);
    clReleaseMemObject(parent);
}

TEST_CASE("api: one kernel reads one sub-buffer and writes another of the same parent", "[api][memory][subbuffer]") {
    cltest::Env env;
    const size_t a = alignInts(env.device), n = 2 * a;
    std::vector<cl_int> init(n);
    std::iota(init.begin(), init.end(), 1);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), init.data());
    cl_mem low = sub(parent, 0, a), high = sub(parent, a, a);
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "copy_add");
    // high = low + 5, then low = high + 7: each launch reads what the previous one wrote.
    cltest::setArg(k, 0, low);
    cltest::setArg(k, 1, high);
    cltest::setArg(k, 2, cl_int{5});
    launch(env, k, a);
    cltest::setArg(k, 0, high);
    cltest::setArg(k, 1, low);
    cltest::setArg(k, 2, cl_int{7});
    launch(env, k, a);
    std::vector<cl_int> expect(n);
    for (size_t i = 0; i < a; ++i) {
        expect[a + i] = init[i] + 5;
        expect[i] = expect[a + i] + 7;
    }
    CHECK(env.read<cl_int>(parent, n) == expect);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(low);
    clReleaseMemObject(high);
    clReleaseMemObject(parent);
}

TEST_CASE("api: host writes to the parent reach a kernel using a sub-buffer", "[api][memory][subbuffer]") {
    cltest::Env env;
    const size_t a = alignInts(env.device), n = 3 * a;
    std::vector<cl_int> host(n, 0);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), host.data());
    cl_mem last = sub(parent, 2 * a, a);
    cl_program p = env.build(kSource);
    cl_kernel add = env.kernel(p, "add");
    cltest::setArg(add, 0, last);
    cltest::setArg(add, 1, cl_int{3});
    launch(env, add, a);

    // A map of the parent after a device write to part of it, then a host write through the map.
    cl_int err = CL_SUCCESS;
    auto* mapped = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, parent, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                           n * sizeof(cl_int), 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(mapped == host.data());
    CHECK(host[2 * a - 1] == 0);
    CHECK(host[2 * a] == 3);
    CHECK(host[n - 1] == 3);
    mapped[2 * a] = 100;
    mapped[0] = -1;
    REQUIRE(clEnqueueUnmapMemObject(env.queue, parent, mapped, 0, nullptr, nullptr) == CL_SUCCESS);

    launch(env, add, a);  // the sub-buffer again, after the host write
    std::vector<cl_int> expect(n, 0);
    expect[0] = -1;
    for (size_t i = 2 * a; i < n; ++i) expect[i] = 6;
    expect[2 * a] = 103;
    CHECK(env.read<cl_int>(parent, n) == expect);
    clReleaseKernel(add);
    clReleaseProgram(p);
    clReleaseMemObject(last);
    clReleaseMemObject(parent);
}

TEST_CASE("api: fills and copies on sub-buffers between kernel launches", "[api][memory][subbuffer]") {
    cltest::Env env;
    const size_t a = alignInts(env.device), n = 2 * a;
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_mem low = sub(parent, 0, a), high = sub(parent, a, a);
    cl_int two = 2, nine = 9;
    REQUIRE(clEnqueueFillBuffer(env.queue, parent, &two, sizeof two, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_program p = env.build(kSource);
    cl_kernel add = env.kernel(p, "add");
    cltest::setArg(add, 0, low);
    cltest::setArg(add, 1, cl_int{10});
    launch(env, add, a);  // low = 12
    REQUIRE(clEnqueueFillBuffer(env.queue, high, &nine, sizeof nine, 0, a * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueCopyBuffer(env.queue, low, high, 0, 0, sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cltest::setArg(add, 0, high);
    launch(env, add, a);  // high = 19, high[0] = 22
    std::vector<cl_int> expect(n, 12);
    for (size_t i = a; i < n; ++i) expect[i] = 19;
    expect[a] = 22;
    CHECK(env.read<cl_int>(parent, n) == expect);
    clReleaseKernel(add);
    clReleaseProgram(p);
    clReleaseMemObject(low);
    clReleaseMemObject(high);
    clReleaseMemObject(parent);
}
