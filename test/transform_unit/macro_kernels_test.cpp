// Kernels and helpers stamped out whole by a function-like macro (HETERO_TRANSFORM_MACRO_KERNELS=on):
// they are split, their variants build on PoCL, and the chunk variant run as sub-launches gives what
// the original kernel gives.
#include "transform/transform.hpp"

#include <CL/cl.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

namespace tf = hetero::transform;

namespace {

const char* const kSource = R"(
#define DEFINE_PROBE(NAME, T)                                                   \
    __kernel void NAME(__global T* out) {                                       \
        size_t i = get_global_id(0);                                            \
        out[i] = (T)(get_group_id(0) * 1000 + get_num_groups(0) * 10 + get_global_size(0) % 7); \
    }
DEFINE_PROBE(probe_int, int)
DEFINE_PROBE(probe_uint, uint)
#define DEFINE_NAMED __kernel void named_in_macro(__global int* out) { out[get_global_id(0)] = (int)get_group_id(0); }
DEFINE_NAMED
#define DEFINE_HELPER(T) T group_of_##T(void) { return (T)get_group_id(0); }
DEFINE_HELPER(int)
__kernel void uses_pasted_helper(__global int* out) { out[get_global_id(0)] = group_of_int(); }
)";

struct Pocl {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    Pocl() {
        cl_uint n = 0;
        clGetPlatformIDs(0, nullptr, &n);
        std::vector<cl_platform_id> ps(n);
        clGetPlatformIDs(n, ps.data(), nullptr);
        for (auto p : ps) {
            char name[128] = {};
            clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
            if (std::string(name).find("Portable Computing Language") != std::string::npos &&
                clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS)
                break;
        }
        REQUIRE(device);
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, nullptr);
        queue = clCreateCommandQueue(context, device, 0, nullptr);
    }
    ~Pocl() {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    cl_program build(const std::string& source) {
        const char* s = source.c_str();
        cl_program p = clCreateProgramWithSource(context, 1, &s, nullptr, nullptr);
        REQUIRE(clBuildProgram(p, 1, &device, "", nullptr, nullptr) == CL_SUCCESS);
        return p;
    }
    // Runs `kernel` of `program` over `range` (or, with chunks, through chunkLaunches) and reads 4-byte results.
    std::vector<int> run(cl_program program, const std::string& kernel, const tf::NDRange& range,
                         const std::vector<std::pair<uint64_t, uint64_t>>& chunks) {
        cl_int err;
        cl_kernel k = clCreateKernel(program, kernel.c_str(), &err);
        REQUIRE(err == CL_SUCCESS);
        std::vector<int> host(range.global[0], -1);
        cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * 4, host.data(), &err);
        clSetKernelArg(k, 0, sizeof buf, &buf);
        if (chunks.empty()) {
            REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, range.offset, range.global, range.local, 0, nullptr, nullptr) ==
                    CL_SUCCESS);
        }
        for (auto [b, e] : chunks) {
            for (const tf::SubLaunch& s : tf::chunkLaunches(range, b, e)) {
                for (size_t a = 0; a < s.extraArgs.size(); ++a)
                    REQUIRE(clSetKernelArg(k, 1 + a, s.extraArgs[a].size, s.extraArgs[a].value.data()) == CL_SUCCESS);
                REQUIRE(clEnqueueNDRangeKernel(queue, k, s.dims, s.offset, s.global, s.local, 0, nullptr, nullptr) ==
                        CL_SUCCESS);
            }
        }
        clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, host.size() * 4, host.data(), 0, nullptr, nullptr);
        clReleaseMemObject(buf);
        clReleaseKernel(k);
        return host;
    }
};

}  // namespace

TEST_CASE("transform_unit.macro_kernels.split_and_run_like_the_original") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    setenv("HETERO_TRANSFORM_MACRO_KERNELS", "on", 1);
    const tf::ProgramAnalysis a = tf::analyze({kSource}, "");
    const tf::Variants v = tf::makeVariants({kSource}, "", a);
    unsetenv("HETERO_TRANSFORM_MACRO_KERNELS");
    INFO(a.log << v.log << v.source);
    REQUIRE(a.parsed);
    const std::vector<std::string> kernels = {"probe_int", "probe_uint", "named_in_macro", "uses_pasted_helper"};
    Pocl cl;
    cl_program original = cl.build(kSource);
    cl_program variants = cl.build(v.source);
    tf::NDRange range;
    range.global[0] = 96;
    range.local[0] = 8;
    for (const auto& k : kernels) {
        INFO(k);
        REQUIRE(a.find(k));
        if (k == "uses_pasted_helper") {
            // Its helper is made with ##: not rewritable, so the kernel that needs its copy is refused.
            CHECK_FALSE(a.find(k)->splittable);
            CHECK(a.find(k)->reason.find("macro") != std::string::npos);
            continue;
        }
        CHECK(a.find(k)->splittable);
        const auto expected = cl.run(original, k, range, {});
        CHECK(cl.run(variants, k, range, {}) == expected);  // the original kernel is still there, unchanged
        CHECK(cl.run(variants, k + "__hetero_chunk", range, {{7, 12}, {2, 7}, {0, 2}}) == expected);
    }
    clReleaseProgram(original);
    clReleaseProgram(variants);
}

TEST_CASE("transform_unit.macro_kernels.refused_by_default") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    unsetenv("HETERO_TRANSFORM_MACRO_KERNELS");
    const tf::ProgramAnalysis a = tf::analyze({kSource}, "");
    REQUIRE(a.find("probe_int"));
    CHECK_FALSE(a.find("probe_int")->splittable);
    CHECK(a.find("probe_int")->reason.find("macro") != std::string::npos);
}
