// Where the abortable variant may return (docs/hazards.md, H1): at every work-group's start, and inside a
// loop only when no global store can have happened yet, i.e. the kernel's first possible store comes
// after the loop; never inside loops of kernels with barriers or gotos.
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>

namespace tf = hetero::transform;

namespace {

// The abortable kernel's text from the variants program.
std::string abortKernel(const std::string& source, const std::string& kernel) {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    const auto a = tf::analyze({source}, "");
    INFO(a.log);
    REQUIRE(a.parsed);
    REQUIRE(a.find(kernel));
    REQUIRE(a.find(kernel)->splittable);
    const std::string src = tf::makeVariants({source}, "", a).source;
    const size_t at = src.find("void " + kernel + "__hetero_abort(");
    REQUIRE(at != std::string::npos);
    return src.substr(at, src.find("\n#line", at) - at);
}

size_t loopChecks(const std::string& text) {
    size_t n = 0;
    for (size_t p = text.find("++__hetero_n"); p != std::string::npos; p = text.find("++__hetero_n", p + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("transform_unit.abort_placement.loop_before_first_store_is_checked") {
    const auto text = abortKernel(R"(
        __kernel void k(__global const float* a, __global float* c, int n) {
            float acc = 0.0f;
            for (int i = 0; i < n; i++) { acc += a[i]; }
            int j = 0;
            while (j < n) { acc *= 0.5f; j++; }
            c[get_global_id(0)] = acc;
        })", "k");
    CHECK(loopChecks(text) == 2);
    CHECK(text.find("__hetero_abort_cached(") != std::string::npos);  // the start check
}

TEST_CASE("transform_unit.abort_placement.no_check_in_or_after_storing_loops") {
    const auto text = abortKernel(R"(
        void put(__global float* c, int i) { c[i] = 0.0f; }
        __kernel void k(__global float* c, int n) {
            for (int i = 0; i < n; i++) { c[i] += 1.0f; }
            for (int i = 0; i < n; i++) { c[i] -= 1.0f; }
        }
        __kernel void via_helper(__global float* c, int n) {
            for (int i = 0; i < n; i++) { put(c, i); }
        }
        __kernel void store_first(__global float* c, int n) {
            c[0] = 1.0f;
            float s = 0.0f;
            for (int i = 0; i < n; i++) { s += i; }
            c[1] = s;
        }
        __kernel void store_in_condition(__global float* c, int n) {
            for (int i = 0; (c[0] = i) < n; i++) { }
        })", "k");
    CHECK(loopChecks(text) == 0);
    const std::string src = R"(
        void put(__global float* c, int i) { c[i] = 0.0f; }
        __kernel void via_helper(__global float* c, int n) { for (int i = 0; i < n; i++) { put(c, i); } }
        __kernel void store_first(__global float* c, int n) {
            c[0] = 1.0f; float s = 0.0f; for (int i = 0; i < n; i++) { s += i; } c[1] = s;
        }
        __kernel void store_in_condition(__global float* c, int n) { for (int i = 0; (c[0] = i) < n; i++) { } }
        __kernel void store_in_increment(__global float* c, int n) { for (int i = 0; i < n; c[i++] = 0.0f) { } })";
    for (const char* k : {"via_helper", "store_first", "store_in_condition", "store_in_increment"}) {
        INFO(k);
        CHECK(loopChecks(abortKernel(src, k)) == 0);
    }
}

TEST_CASE("transform_unit.abort_placement.nested_loop_inside_storing_loop_not_checked") {
    // The inner loop ends before the store textually, but the outer loop stored in earlier iterations.
    const auto text = abortKernel(R"(
        __kernel void k(__global float* c, int n) {
            for (int i = 0; i < n; i++) {
                float s = 0.0f;
                for (int j = 0; j < n; j++) { s += j; }
                c[i] = s;
            }
        })", "k");
    CHECK(loopChecks(text) == 0);
}

TEST_CASE("transform_unit.abort_placement.barrier_kernels_decide_per_group_at_start_only") {
    const auto text = abortKernel(R"(
        __kernel void k(__global const float* a, __global float* c, __local float* t, int n) {
            float acc = 0.0f;
            for (int i = 0; i < n; i++) {
                t[get_local_id(0)] = a[i];
                barrier(CLK_LOCAL_MEM_FENCE);
                acc += t[0];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            c[get_global_id(0)] = acc;
        })", "k");
    CHECK(loopChecks(text) == 0);
    CHECK(text.find("__local unsigned int __hetero_skip") != std::string::npos);
    CHECK(text.find("barrier(CLK_LOCAL_MEM_FENCE); if (__hetero_skip) return;") != std::string::npos);
}

TEST_CASE("transform_unit.abort_placement.goto_disables_loop_checks") {
    const auto text = abortKernel(R"(
        __kernel void k(__global float* c, int n) {
            float s = 0.0f;
            int i = 0;
        again:
            for (; i < n; i++) { s += i; if (s > 100.0f) goto out; }
        out:
            c[0] = s;
            if (s < 0.0f) goto again;
        })", "k");
    CHECK(loopChecks(text) == 0);
}
