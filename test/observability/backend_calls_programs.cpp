// The programs the backend-calls tests run besides [trace-program] (hidden from ordinary runs; the
// tests count their backend calls at exit, test/observability/CMakeLists.txt). Both launch
// `increment` over a buffer filled with zeros and check the count at the end.
#include "cl_test.hpp"

#include <algorithm>

using cltest::Env;
using cltest::setArg;

namespace {

// `launches` launches of increment over n ints (each with an event the application releases at
// once when `withEvents`), then every element must read `launches`.
void incrementLaunches(Env& env, size_t n, int launches, bool withEvents) {
    cl_program p = env.build("__kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }");
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    const cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, buf, &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    for (int i = 0; i < launches; ++i) {
        cl_event e = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, nullptr, 0, nullptr, withEvents ? &e : nullptr) ==
                CL_SUCCESS);
        if (e) REQUIRE(clReleaseEvent(e) == CL_SUCCESS);
    }
    auto back = env.read<cl_int>(buf, n);
    CHECK(std::count(back.begin(), back.end(), launches) == static_cast<std::ptrdiff_t>(n));
}

}  // namespace

// backend-calls.unified-*: launches on a profiling queue, each with an event, all writing one
// buffer. Profiled launches get backend events of their own, so in unified memory each one is a
// write that another slot's work could have to wait for (unified_storage.hpp).
TEST_CASE("launches on a profiling queue, each with an event", "[.][profiled-launches]") {
    Env env(CL_QUEUE_PROFILING_ENABLE);
    incrementLaunches(env, 1024, 20, true);
}

// backend-calls.merge-built-with-variants: one launch that would split while the split variants are
// not built yet. It starts their build, runs whole and completes after the build
// (split/variants.hpp); nothing splits or merges.
TEST_CASE("one launch that starts the split variants' build", "[.][first-split-candidate]") {
    Env env;
    incrementLaunches(env, 4096, 1, false);
}

// backend-calls.staged-writes: two non-blocking 32 MiB writes, each submitted with nothing ahead of
// it still running, go through pinned pieces of 8 MiB (staged_transfer.hpp), four backend writes
// each; a small one goes directly. Every byte arrives.
TEST_CASE("large non-blocking writes onto an idle queue", "[.][staged-writes]") {
    Env env;
    const size_t bytes = size_t{32} << 20, small = 4096;
    cl_mem big = env.buffer(CL_MEM_READ_WRITE, bytes);
    cl_mem little = env.buffer(CL_MEM_READ_WRITE, small);
    for (cl_uchar round = 1; round <= 2; ++round) {
        std::vector<cl_uchar> host(bytes);
        for (size_t i = 0; i < bytes; ++i) host[i] = static_cast<cl_uchar>(i * 31 + round);
        REQUIRE(clEnqueueWriteBuffer(env.queue, big, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(env.queue, little, CL_FALSE, 0, small, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(env.read<cl_uchar>(big, bytes) == host);
        auto back = env.read<cl_uchar>(little, small);
        CHECK(std::equal(back.begin(), back.end(), host.begin()));
    }
    clReleaseMemObject(big), clReleaseMemObject(little);
}
