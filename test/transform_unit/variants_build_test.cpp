// Rewrites of unusual but valid programs must still build on a real backend (PoCL): prototypes,
// overloaded helpers, helpers calling helpers, kernel attributes, "(void)" parameter lists,
// comments in odd places, macros around calls, and the original kernels must stay intact.
#include "transform/transform.hpp"

#include <CL/cl.h>
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
#include <vector>

namespace tf = hetero::transform;

namespace {

struct Cpu {
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    Cpu() {
        cl_uint n = 0;
        clGetPlatformIDs(0, nullptr, &n);
        std::vector<cl_platform_id> ps(n);
        clGetPlatformIDs(n, ps.data(), nullptr);
        for (auto p : ps) {
            char name[128] = {};
            clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
            if (std::string(name).find("Portable Computing Language") == std::string::npos) continue;
            if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS) break;
        }
        REQUIRE(device != nullptr);
        cl_int err;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
    }
    ~Cpu() { clReleaseContext(context); }

    // Builds and returns "" or the build log.
    std::string build(const std::string& source, const std::string& options, std::vector<std::string> kernels) {
        const char* s = source.c_str();
        cl_int err;
        cl_program p = clCreateProgramWithSource(context, 1, &s, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        std::string failure;
        if (clBuildProgram(p, 1, &device, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            size_t size = 0;
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
            failure.resize(size);
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, failure.data(), nullptr);
            failure = "build failed: " + failure;
        }
        for (const auto& k : kernels) {
            if (!failure.empty()) break;
            cl_kernel kernel = clCreateKernel(p, k.c_str(), &err);
            if (err != CL_SUCCESS) failure = "no kernel " + k;
            else clReleaseKernel(kernel);
        }
        clReleaseProgram(p);
        return failure;
    }
};

void checkBuilds(const std::string& source, const std::vector<std::string>& kernels, const std::string& options = "") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    const tf::ProgramAnalysis a = tf::analyze({source}, options);
    INFO(a.log);
    REQUIRE(a.parsed);
    std::vector<std::string> expected;
    for (const auto& k : kernels) {
        REQUIRE(a.find(k));
        CHECK(a.find(k)->splittable);
        expected.push_back(k);
        expected.push_back(k + "__hetero_chunk");
        expected.push_back(k + "__hetero_abort");
    }
    const tf::Variants v = tf::makeVariants({source}, options, a);
    INFO(v.source);
    Cpu cpu;
    CHECK(cpu.build(v.source, options, expected) == "");
}

}  // namespace

TEST_CASE("transform_unit.variants_build.prototypes_overloads_and_helper_chains") {
    checkBuilds(R"(
        float __attribute__((overloadable)) f(float x) { return x + get_group_id(0); }
        int __attribute__((overloadable)) f(int x) { return x * 2; }
        float g(void);
        float h(float x) { return g() * x; }
        __kernel void k(__global float* o) { o[get_global_id(0)] = f(1.0f) + f(2) + h(3.0f); }
        float g(void) { return get_num_groups(0) + get_global_offset(0); }
    )", {"k"});
}

TEST_CASE("transform_unit.variants_build.attributes_void_params_comments_and_macros") {
    checkBuilds(R"(
        #define GROUP get_group_id(0)
        #define CALL(fn, x) fn(x)
        size_t base(int unused) { return GROUP * get_local_size(0); }
        __kernel __attribute__((reqd_work_group_size(8, 1, 1)))
        void first(__global int* o /* the output */, int n) // trailing comment
        {
            if (get_global_id(0) < n) o[CALL(base, 0) + get_local_id(0)] = (int)get_global_size(0);
        }
        __kernel void second(void) { }
        kernel void third(/* nothing */) { int s = 0; for (int i = 0; i < 4; i++) { s += i; } }
    )", {"first", "second", "third"});
}

TEST_CASE("transform_unit.variants_build.barrier_kernel_and_options") {
    checkBuilds(R"(
        __kernel void reduce(__global const float* in, __global float* out, __local float* s) {
            int l = get_local_id(0);
            s[l] = in[get_global_id(0)] * SCALE;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int w = get_local_size(0) / 2; w > 0; w /= 2) {
                if (l < w) s[l] += s[l + w];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (l == 0) out[get_group_id(0)] = s[0];
        }
    )", {"reduce"}, "-DSCALE=2.0f -cl-mad-enable");
}

TEST_CASE("transform_unit.variants_build.opencl_c_3_0") {
    checkBuilds(R"(
        size_t flat(void) { return get_global_linear_id(); }
        __kernel void k(__global int* o) {
            __global int* p = &o[flat()];
            *p = (int)get_enqueued_local_size(0) + (int)get_num_groups(0);
        }
    )", {"k"}, "-cl-std=CL3.0");
}

TEST_CASE("transform_unit.variants_build.broken_rewrite_drops_only_that_kernel") {
    // The application's macro collides with a name the rewrite uses: the original program is fine,
    // the variants of the kernel after the #define would not compile and must be left out.
    const std::string source = R"(
        __kernel void good(__global int* o) { o[get_group_id(0)] = 1; }
        #define __hetero_L 5
        __kernel void bad(__global int* o) { o[get_group_id(0)] = __hetero_L; }
    )";
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    const tf::ProgramAnalysis a = tf::analyze({source}, "");
    REQUIRE(a.find("bad"));
    REQUIRE(a.find("bad")->splittable);
    const tf::Variants v = tf::makeVariants({source}, "", a);
    INFO(v.log << v.source);
    CHECK(v.log.find("kernel bad is not split") != std::string::npos);
    CHECK(v.source.find("bad__hetero_chunk") == std::string::npos);
    Cpu cpu;
    CHECK(cpu.build(v.source, "", {"good", "bad", "good__hetero_chunk", "good__hetero_abort"}) == "");
}

TEST_CASE("transform_unit.variants_build.helpers_and_kernels_in_headers") {
    checkBuilds("#include \"unit_wi_helpers.h\"\n"
                "__kernel void grid_stride(__global float* o, int n) {\n"
                "    for (size_t i = get_global_id(0); i < n; i += unit_stride()) o[i] = unit_twice(o[i]);\n"
                "}\n",
                {"grid_stride", "unit_in_header"}, std::string("-I ") + HETERO_TRANSFORM_UNIT_DATA);
}
