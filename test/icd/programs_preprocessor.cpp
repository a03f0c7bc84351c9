// Kernels whose meaning depends on the preprocessor: the Khronos CTS cases compiler
// preprocessor_define_udef and basic kernel_preprocessor_macros, reproduced here. In the split
// configurations (HETERO_SPLIT=always over two slots) the launches must really be split, and
// still give what one device gives.
#include "cl_test.hpp"

#include <CL/cl_ext_hetero.h>

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>

using cltest::Env;
using cltest::setArg;

namespace {

cl_ulong splitLaunches(cl_platform_id platform) {
    auto get = reinterpret_cast<clGetHeteroCountersEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"));
    REQUIRE(get != nullptr);
    cl_ulong v[CL_HETERO_COUNTER_COUNT] = {};
    REQUIRE(get(platform, CL_HETERO_COUNTER_COUNT, v, nullptr) == CL_SUCCESS);
    return v[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + v[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] + v[CL_HETERO_LAUNCHES_SPLIT_NWAY];
}

// Whether this configuration splits every splittable launch (test/icd/CMakeLists.txt).
bool everyLaunchSplits() {
    const char* split = std::getenv("HETERO_SPLIT");
    const char* devices = std::getenv("HETERO_DEVICES");
    return split && std::string(split) == "always" && devices && std::strchr(devices, ',');
}

// The CTS kernel, verbatim in what it does: VALUE is defined before the kernel and undefined inside it.
const char* const kDefineUndef = R"(#define VALUE
__kernel void define_test(__global int *src, __global int *dstA, __global int *dstB)
{
 int tid = get_global_id(0);
#ifdef VALUE
 dstA[tid] = src[tid] * 2;
#else
 dstA[tid] = src[tid] * 4;
#endif

#undef VALUE
#ifdef VALUE
 dstB[tid] = src[tid] * 2;
#else
 dstB[tid] = src[tid] * 4;
#endif

}
)";

}  // namespace

TEST_CASE("CTS preprocessor_define_udef: a kernel that #undefs a macro defined before it", "[programs][preprocessor]") {
    Env env;
    const size_t n = 4096, local = 64;
    std::vector<cl_int> src(n);
    std::iota(src.begin(), src.end(), -1000);
    cl_mem dsrc = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, src.data());
    cl_mem da = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_mem db = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_program p = env.build(kDefineUndef);
    cl_kernel k = env.kernel(p, "define_test");
    setArg(k, 0, dsrc), setArg(k, 1, da), setArg(k, 2, db);
    const cl_ulong splitBefore = splitLaunches(env.platform);
    // With variants built lazily (HETERO_SPLIT_BUILD=lazy) the first launch runs whole while they
    // build; the second is split. Outputs are cleared before each launch, so each is checked alone.
    for (int launch = 0; launch < 2; ++launch) {
        const cl_int junk = 0x5a5a5a5a;
        REQUIRE(clEnqueueFillBuffer(env.queue, da, &junk, 4, 0, n * 4, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueFillBuffer(env.queue, db, &junk, 4, 0, n * 4, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto a = env.read<cl_int>(da, n), b = env.read<cl_int>(db, n);
        for (size_t i = 0; i < n; ++i) {
            INFO("element " << i << ", launch " << launch);
            REQUIRE(a[i] == src[i] * 2);
            REQUIRE(b[i] == src[i] * 4);
        }
        if (!everyLaunchSplits() || splitLaunches(env.platform) > splitBefore) break;
    }
    if (everyLaunchSplits()) CHECK(splitLaunches(env.platform) > splitBefore);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(dsrc), clReleaseMemObject(da), clReleaseMemObject(db);
}

// As CTS basic kernel_preprocessor_macros: a #line directive names the file, and the kernel stores
// __LINE__ and __FILE__. Over many work-groups here, so that the launch is split.
TEST_CASE("CTS kernel_preprocessor_macros: __LINE__ and __FILE__ as values", "[programs][preprocessor]") {
    Env env;
    const char* source = R"(#line 2 "cts/test_preprocessors.cpp"
__kernel void test(__global int *results, __global char *outFileString)
{
    int g = get_global_id(0);
#ifdef __LINE__
    results[g] = __LINE__ * 1000 + g;
#else
    results[g] = 0xf00baa;
#endif
#ifdef __FILE__
    constant char *f = "" __FILE__;
    outFileString[g] = f[g % 26];
#else
    outFileString[g] = 0;
#endif
}
)";
    const size_t n = 2048, local = 32;
    cl_mem dr = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_mem df = env.buffer(CL_MEM_READ_WRITE, n);
    cl_program p = env.build(source);
    cl_kernel k = env.kernel(p, "test");
    setArg(k, 0, dr), setArg(k, 1, df);
    const cl_ulong splitBefore = splitLaunches(env.platform);
    const std::string file = "cts/test_preprocessors.cpp";
    // As above: with lazy variant builds the second launch is the split one; each is checked alone.
    for (int launch = 0; launch < 2; ++launch) {
        const cl_int junk = 0x5a5a5a5a;
        REQUIRE(clEnqueueFillBuffer(env.queue, dr, &junk, 4, 0, n * 4, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueFillBuffer(env.queue, df, &junk, 4, 0, n, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto r = env.read<cl_int>(dr, n);
        auto f = env.read<char>(df, n);
        for (size_t g = 0; g < n; ++g) {
            INFO("work-item " << g << ", launch " << launch);
            REQUIRE(r[g] == 6 * 1000 + static_cast<cl_int>(g));  // "#line 2" names the kernel's line 2; results[g] is on 6
            REQUIRE(f[g] == file[g % 26]);
        }
        if (!everyLaunchSplits() || splitLaunches(env.platform) > splitBefore) break;
    }
    if (everyLaunchSplits()) CHECK(splitLaunches(env.platform) > splitBefore);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(dr), clReleaseMemObject(df);
}
