// Programs that compilers accept but that are built to break tools (found by test/transform_fuzz):
// the transform must answer "not split" or split correctly, never crash, whatever thread calls it.
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <pthread.h>

#include <cstdlib>
#include <string>

namespace tf = hetero::transform;

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

// `0+0+...+x[i]`: a left-deep expression tree `terms` levels deep without a single bracket
// (PoCL builds it with 10000 terms).
std::string longSumKernel(size_t terms) {
    return "__kernel void long_sum(__global int* x) { int i = get_global_id(0); x[i] = " + repeat("0+", terms) +
           "x[i]; }\n";
}

struct Outcome {
    tf::ProgramAnalysis analysis;
    tf::Variants variants;
};

// analyze() and makeVariants() on a thread whose stack is `stackBytes` (as an application's threads
// may have), the cache off.
Outcome transformOnThread(const std::string& source, size_t stackBytes) {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    struct Job {
        std::string source;
        Outcome out;
    } job{source, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, stackBytes);
    pthread_t t;
    REQUIRE(pthread_create(
                &t, &attr,
                [](void* p) -> void* {
                    auto* j = static_cast<Job*>(p);
                    j->out.analysis = tf::analyze({j->source}, "");
                    j->out.variants = tf::makeVariants({j->source}, "", j->out.analysis);
                    return nullptr;
                },
                &job) == 0);
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
    return job.out;
}

}  // namespace

TEST_CASE("an expression thousands of levels deep is refused, not walked until the stack ends",
          "[transform][hostile]") {
    const Outcome o = transformOnThread(longSumKernel(10000), size_t(8) << 20);
    INFO(o.analysis.log);
    REQUIRE(o.analysis.parsed);
    const tf::KernelAnalysis* k = o.analysis.find("long_sum");
    REQUIRE(k != nullptr);
    CHECK_FALSE(k->splittable);
    CHECK(k->reason.find("nest deeper") != std::string::npos);
    CHECK(o.variants.source.find("__hetero_chunk") == std::string::npos);
}

TEST_CASE("a deep expression the transform accepts is walked on its own stack, whatever the caller's",
          "[transform][hostile]") {
    // 900 levels need about a megabyte of stack in the walk; the caller here has 256 KiB.
    const Outcome o = transformOnThread(longSumKernel(900), size_t(256) << 10);
    INFO(o.analysis.log);
    REQUIRE(o.analysis.parsed);
    const tf::KernelAnalysis* k = o.analysis.find("long_sum");
    REQUIRE(k != nullptr);
    CHECK(k->splittable);
    CHECK(o.variants.source.find("long_sum__hetero_chunk") != std::string::npos);
}

TEST_CASE("a #line number beyond any integer makes the kernel unsplittable, without an exception",
          "[transform][hostile]") {
    // clang rejects the number; the transform's own line arithmetic must not throw on it either.
    for (const char* number : {"99999999999999999999", "4294967296", "2147483648"}) {
        const std::string source = std::string("#line ") + number +
                                   "\n__kernel void after_line(__global int* x) { x[get_global_id(0)] = __LINE__; }\n";
        INFO(source);
        tf::ProgramAnalysis a;
        REQUIRE_NOTHROW(a = tf::analyze({source}, ""));
        const tf::KernelAnalysis* k = a.find("after_line");
        if (k) CHECK_FALSE(k->splittable);
        REQUIRE_NOTHROW(tf::makeVariants({source}, "", a));
    }
}
