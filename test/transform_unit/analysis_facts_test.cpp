// Facts the analysis must establish about small kernels: which parameters are read and written
// (following pointers through variables, arithmetic, casts and helpers), store sizes (H2), what the
// kernel uses, and the verdict with its reason (H6).
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

namespace tf = hetero::transform;

namespace {

tf::ProgramAnalysis analyzeUncached(const std::vector<std::string>& sources, const std::string& options = "") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    return tf::analyze(sources, options);
}

tf::KernelAnalysis kernelOf(const std::string& source, const std::string& name, const std::string& options = "") {
    const tf::ProgramAnalysis a = analyzeUncached({source}, options);
    INFO(a.log);
    REQUIRE(a.parsed);
    const tf::KernelAnalysis* k = a.find(name);
    REQUIRE(k != nullptr);
    return *k;
}

const tf::ParamInfo& param(const tf::KernelAnalysis& k, const std::string& name) {
    for (const auto& p : k.params)
        if (p.name == name) return p;
    FAIL("no parameter " << name);
    throw;
}

bool reasonMentions(const tf::KernelAnalysis& k, const std::string& word) {
    return k.reason.find(word) != std::string::npos;
}

}  // namespace

TEST_CASE("transform_unit.analysis.parameter_kinds") {
    const auto k = kernelOf(R"(
        typedef struct { float x; float y; } P;
        __kernel void k(__global float4* restrict out, __global const float* in, __local int* scratch,
                        __constant P* pts, int n, float a) { out[get_global_id(0)] = (float4)(in[0] + pts[0].x); }
    )", "k");
    REQUIRE(k.params.size() == 6);
    const auto& out = param(k, "out");
    CHECK(out.isPointer);
    CHECK(out.addressSpace == tf::AddressSpace::Global);
    CHECK(out.isRestrict);
    CHECK_FALSE(out.pointeeConst);
    CHECK(out.elementSize == 4);
    CHECK(out.mayWrite);
    CHECK_FALSE(out.mayRead);
    CHECK(out.storeSizes == std::vector<size_t>{4});
    const auto& in = param(k, "in");
    CHECK(in.pointeeConst);
    CHECK(in.mayRead);
    CHECK_FALSE(in.mayWrite);
    CHECK(param(k, "scratch").addressSpace == tf::AddressSpace::Local);
    CHECK(param(k, "pts").addressSpace == tf::AddressSpace::Constant);
    CHECK(param(k, "pts").elementSize == 4);
    CHECK(param(k, "pts").mayRead);
    CHECK_FALSE(param(k, "n").isPointer);
    CHECK(k.usesLocalMemory);  // a __local argument
    CHECK(k.splittable);
    CHECK(k.reason.empty());
}

TEST_CASE("transform_unit.analysis.writes_followed_through_variables_arithmetic_and_casts") {
    const auto k = kernelOf(R"(
        __kernel void k(__global float* a, __global float* b, __global float* c, __global const float* d) {
            size_t i = get_global_id(0);
            __global float* p = a + 4;
            __global float* q;
            q = (i & 1) ? p : b;
            ((__global float*)(q + 1))[i] = d[i];
            __global float* r = c;
            r += 2;
            float x = r[i];
        }
    )", "k");
    CHECK(param(k, "a").mayWrite);
    CHECK(param(k, "b").mayWrite);
    CHECK_FALSE(param(k, "c").mayWrite);
    CHECK(param(k, "c").mayRead);
    CHECK_FALSE(param(k, "a").mayRead);
    CHECK(param(k, "d").mayRead);
    CHECK(k.splittable);
}

TEST_CASE("transform_unit.analysis.writes_through_helper_functions") {
    const auto k = kernelOf(R"(
        void store(__global int* dst, int i, int v) { dst[i] = v; }
        __global int* pick(__global int* x, __global int* y, int c) { return c ? x : y; }
        int load(__global const int* s, int i) { return s[i]; }
        __kernel void k(__global int* out, __global int* other, __global const int* in, __global int* unused) {
            int i = get_global_id(0);
            store(out, i, load(in, i));
            *pick(other, other, i) = 1;
        }
    )", "k");
    CHECK(param(k, "out").mayWrite);
    CHECK_FALSE(param(k, "out").mayRead);
    CHECK(param(k, "other").mayWrite);
    CHECK(param(k, "in").mayRead);
    CHECK_FALSE(param(k, "in").mayWrite);
    CHECK_FALSE(param(k, "unused").mayRead);
    CHECK_FALSE(param(k, "unused").mayWrite);
    CHECK(k.splittable);
}

TEST_CASE("transform_unit.analysis.store_sizes_of_vectors_structs_and_builtins") {
    const std::string src = R"(
        #pragma OPENCL EXTENSION cl_khr_fp64 : enable
        typedef struct { float a; char b; } Mixed;
        __kernel void vec(__global float4* v, __global double* d, __global half* h, __global float* f) {
            size_t i = get_global_id(0);
            v[i].xy = (float2)(1.0f, 2.0f);
            d[i] = 1.0;
            vstore_half(1.0f, i, h);
            vstore4((float4)(0.0f), i, f);
        }
        __kernel void mixed(__global Mixed* m) { m[get_global_id(0)].b = 1; m[0].a = 2.0f; }
        __kernel void whole(__global Mixed* m) { Mixed x = {1.0f, 2}; m[get_global_id(0)] = x; }
    )";
    const auto a = analyzeUncached({src});
    REQUIRE(a.parsed);
    const auto& vec = *a.find("vec");
    CHECK(param(vec, "v").storeSizes == std::vector<size_t>{4});
    CHECK(param(vec, "d").storeSizes == std::vector<size_t>{8});
    CHECK(param(vec, "h").storeSizes == std::vector<size_t>{2});
    CHECK(param(vec, "f").storeSizes == std::vector<size_t>{4});
    CHECK_FALSE(param(vec, "f").mayRead);  // vstore only writes
    CHECK(vec.splittable);
    for (const char* name : {"mixed", "whole"}) {
        const auto& k = *a.find(name);
        INFO(name);
        CHECK(param(k, "m").storeSizes == std::vector<size_t>{1, 4});
        CHECK_FALSE(k.splittable);
        CHECK(reasonMentions(k, "different sizes"));
    }
}

TEST_CASE("transform_unit.analysis.atomics_local_fine_global_refused") {
    const auto a = analyzeUncached({R"(
        __kernel void local_hist(__global int* out, __local int* bins) {
            atomic_inc(&bins[get_local_id(0) % 4]);
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = bins[0];
        }
        void bump(volatile __global int* c) { atomic_add(c, 1); }
        __kernel void global_count(__global int* counter) { bump(counter); }
    )"});
    REQUIRE(a.parsed);
    const auto& l = *a.find("local_hist");
    CHECK(l.usesLocalAtomics);
    CHECK_FALSE(l.usesGlobalAtomics);
    CHECK(l.usesBarrier);
    CHECK(l.splittable);
    const auto& g = *a.find("global_count");
    CHECK(g.usesGlobalAtomics);
    CHECK_FALSE(g.splittable);
    CHECK(reasonMentions(g, "atomic"));
}

TEST_CASE("transform_unit.analysis.unattributable_writes_refused") {
    const auto a = analyzeUncached({R"(
        __kernel void via_private_array(__global float* x, __global float* y) {
            __global float* ptrs[2] = {x, y};
            ptrs[get_global_id(0) & 1][0] = 1.0f;
        }
        __kernel void via_integer(__global float* x, ulong addr) { *(__global float*)addr = 1.0f; }
        __kernel void via_address_of_pointer(__global float* x, __global float* y) {
            __global float* p = x;
            __global float** pp = &p;
            *pp = y;
            p[0] = 2.0f;
        }
        __kernel void reads_only(__global float* x, ulong addr) { x[0] = *(__global float*)addr; }
    )"});
    REQUIRE(a.parsed);
    for (const char* name : {"via_private_array", "via_integer", "via_address_of_pointer"}) {
        INFO(name);
        const auto& k = *a.find(name);
        CHECK_FALSE(k.splittable);
        CHECK(reasonMentions(k, "pointer"));
    }
    // Reading through an unknown pointer does not prevent the split, but every buffer may be read.
    const auto& r = *a.find("reads_only");
    CHECK(r.splittable);
    CHECK(param(r, "x").mayRead);
}

TEST_CASE("transform_unit.analysis.printf_images_program_scope") {
    const auto a = analyzeUncached({R"(
        __constant float table[2] = {1.0f, 2.0f};
        __kernel void prints(__global int* o) { printf("%d\n", 1); o[0] = 1; }
        __kernel void reads_image(__read_only image2d_t img, sampler_t s, __global float4* o) {
            o[0] = read_imagef(img, s, (int2)(0, 0));
        }
        __kernel void writes_image(__write_only image2d_t img) { write_imagef(img, (int2)(0, 0), (float4)(0.0f)); }
        __kernel void reads_table(__global float* o) { o[get_global_id(0)] = table[get_global_id(0) & 1]; }
    )"});
    REQUIRE(a.parsed);
    CHECK(a.find("prints")->usesPrintf);
    CHECK_FALSE(a.find("prints")->splittable);
    CHECK(reasonMentions(*a.find("prints"), "printf"));
    const auto& ri = *a.find("reads_image");
    CHECK(ri.usesImages);
    CHECK(param(ri, "img").isImage);
    CHECK(param(ri, "img").mayRead);
    CHECK_FALSE(param(ri, "img").mayWrite);
    CHECK(param(ri, "s").isSampler);
    CHECK(ri.splittable);
    CHECK_FALSE(a.find("writes_image")->splittable);
    CHECK(reasonMentions(*a.find("writes_image"), "image"));
    CHECK(a.find("reads_table")->usesProgramScopeVariables);
    CHECK(a.find("reads_table")->splittable);
    CHECK(a.find("prints") != nullptr);
    CHECK(a.find("no_such_kernel") == nullptr);
}

TEST_CASE("transform_unit.analysis.program_scope_write_refused_cl20") {
    const auto k = kernelOf(R"(
        __global int last = 0;
        __kernel void k(__global int* o) { o[0] = 1; last = 2; }
    )", "k", "-cl-std=CL2.0");
    CHECK(k.usesProgramScopeVariables);
    CHECK_FALSE(k.splittable);
    CHECK(reasonMentions(k, "program-scope"));
}

TEST_CASE("transform_unit.analysis.stores_inside_loops") {
    const auto a = analyzeUncached({R"(
        void put(__global int* o, int i) { o[i] = i; }
        __kernel void after_loop(__global int* o, int n) { int s = 0; for (int k = 0; k < n; k++) s += k; o[0] = s; }
        __kernel void in_loop(__global int* o, int n) { int k = 0; while (k < n) { o[k] = k; k++; } }
        __kernel void helper_in_loop(__global int* o, int n) { do { put(o, n); } while (--n > 0); }
    )"});
    REQUIRE(a.parsed);
    CHECK_FALSE(a.find("after_loop")->storesBeforeLoopEnds);
    CHECK(a.find("in_loop")->storesBeforeLoopEnds);
    CHECK(a.find("helper_in_loop")->storesBeforeLoopEnds);
}

TEST_CASE("transform_unit.analysis.build_options_and_multiple_sources") {
    const std::string src = R"(
        #ifdef USE_ATOMIC
        __kernel void k(__global int* o) { atomic_inc(o); }
        #else
        __kernel void k(__global int* o) { o[get_global_id(0)] = SCALE; }
        #endif
    )";
    CHECK(kernelOf(src, "k", "-D SCALE=3").splittable);
    CHECK_FALSE(kernelOf(src, "k", "-DUSE_ATOMIC -cl-mad-enable -cl-kernel-arg-info").splittable);
    // Two strings make one program, as in clCreateProgramWithSource.
    const auto two = analyzeUncached({"int twice(int x) { return 2 * x; }\n",
                                      "__kernel void k(__global int* o) { o[0] = twice(3); }\n"});
    REQUIRE(two.parsed);
    REQUIRE(two.find("k"));
    CHECK(two.find("k")->splittable);
}

TEST_CASE("transform_unit.analysis.include_directory_from_options") {
    const auto k = kernelOf("#include \"unit_helpers.h\"\n"
                            "__kernel void k(__global float* o) { o[get_global_id(0)] = UNIT_SCALE * 2.0f; }\n",
                            "k", std::string("-I ") + HETERO_TRANSFORM_UNIT_DATA);
    CHECK(k.splittable);
    CHECK(param(k, "o").mayWrite);
}

TEST_CASE("transform_unit.analysis.parse_errors_reported_not_thrown") {
    const auto a = analyzeUncached({"__kernel void k(__global float* o) { o[0] = undefined_name; }\n"});
    CHECK_FALSE(a.parsed);
    CHECK(a.log.find("undefined_name") != std::string::npos);
    for (const auto& k : a.kernels) CHECK_FALSE(k.splittable);
}

TEST_CASE("transform_unit.analysis.enumerators_and_vector_components") {
    const auto k = kernelOf(R"(
        enum Colour { RED = 1, GREEN = 2 };
        __kernel void k(__global float4* v, __global int* o, __global const float4* in) {
            size_t i = get_global_id(0);
            o[i] = RED + GREEN * (int)i;
            v[i].yx = in[i].xy;
            v[i].w++;
        }
    )", "k");
    CHECK(k.splittable);
    CHECK(param(k, "o").mayWrite);
    CHECK_FALSE(param(k, "o").mayRead);
    CHECK(param(k, "v").mayWrite);
    CHECK(param(k, "v").mayRead);  // v[i].w++ reads it
    CHECK(param(k, "v").storeSizes == std::vector<size_t>{4});
    CHECK_FALSE(param(k, "in").mayWrite);
}

TEST_CASE("transform_unit.analysis.recursion_refused_quickly") {
    // Not OpenCL C, but clang parses it: the analysis must end and refuse, not walk 24 levels deep.
    const auto k = kernelOf(R"(
        int ping(__global int* p, int n);
        int pong(__global int* p, int n) { p[n] = n; return n > 0 ? ping(p, n - 1) + ping(p, n - 2) : 0; }
        int ping(__global int* p, int n) { return n > 0 ? pong(p, n - 1) + pong(p, n - 2) : 1; }
        __kernel void k(__global int* o) { o[0] = ping(o, 10); }
    )", "k");
    CHECK_FALSE(k.splittable);
    CHECK(reasonMentions(k, "recursive"));
}
