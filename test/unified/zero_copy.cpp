// Unified memory moves nothing: the engine's counters stay still across transfers, launches and maps,
// and an application's CL_MEM_USE_HOST_PTR memory is the memory the devices work on.
#include "unified_support.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <thread>

using namespace unified;

namespace {

constexpr size_t kN = 64 * 1024;

// One pass of an ordinary program: upload, three launches, a read, a map; checks its own results.
void runProgram(cltest::Env& env) {
    std::vector<cl_int> x(kN);
    std::iota(x.begin(), x.end(), -1000);
    cl_mem dx = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kN * sizeof(cl_int), x.data());
    cl_mem dy = env.buffer(CL_MEM_READ_WRITE, kN * sizeof(cl_int));
    cl_program p = env.build(kMarkSource);
    cl_kernel k = env.kernel(p, "affine");
    for (size_t i = 0; i < kN; i += 3) x[i] = 3 * static_cast<cl_int>(i);
    REQUIRE(clEnqueueWriteBuffer(env.queue, dx, CL_FALSE, 0, kN * sizeof(cl_int), x.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    size_t global = kN, local = 64;
    for (cl_int a = 1; a <= 3; ++a) {
        cltest::setArg(k, 0, dx), cltest::setArg(k, 1, dy), cltest::setArg(k, 2, a), cltest::setArg(k, 3, cl_int(7));
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    auto y = env.read<cl_int>(dy, kN);
    for (size_t i = 0; i < kN; ++i) REQUIRE(y[i] == 3 * x[i] + 7);
    cl_int err = CL_SUCCESS;
    auto* mapped = static_cast<cl_int*>(
        clEnqueueMapBuffer(env.queue, dy, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kN * sizeof(cl_int), 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(mapped[12345] == 3 * x[12345] + 7);
    mapped[0] = 42;
    REQUIRE(clEnqueueUnmapMemObject(env.queue, dy, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(dy, 1)[0] == 42);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
}

// The counters once nothing moves any more: a discrete split launch of an earlier test may still be
// streaming its results back after its event completed.
Counters quietCounters(cl_platform_id platform) {
    Counters last = counters(platform);
    for (int i = 0; i < 100; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        Counters now = counters(platform);
        if (now == last) return now;
        last = now;
    }
    FAIL("the counters kept moving for 5 s");
    return last;
}

struct Released {
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
    bool await() {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, std::chrono::seconds(120), [&] { return done; });
    }
};
void CL_CALLBACK markReleased(cl_mem, void* data) {
    auto* r = static_cast<Released*>(data);
    std::lock_guard lock(r->mutex);
    r->done = true;
    r->changed.notify_all();
}

}  // namespace

TEST_CASE("unified: a program in unified memory moves no bytes and merges nothing", "[unified][counters]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    Counters before = quietCounters(env.platform);
    runProgram(env);
    Counters after = counters(env.platform);
    CHECK(after[CL_HETERO_BYTES_HOST_TO_DEVICE] == before[CL_HETERO_BYTES_HOST_TO_DEVICE]);
    CHECK(after[CL_HETERO_BYTES_DEVICE_TO_HOST] == before[CL_HETERO_BYTES_DEVICE_TO_HOST]);
    CHECK(after[CL_HETERO_BYTES_BETWEEN_DEVICES] == before[CL_HETERO_BYTES_BETWEEN_DEVICES]);
    CHECK(after[CL_HETERO_MERGES] == before[CL_HETERO_MERGES]);
    CHECK(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE]);
    if (alwaysSplit()) {
        // Every launch split by the unified engine, every work-group counted once.
        CHECK(after[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] == before[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] + 3);
        CHECK(after[CL_HETERO_WORK_GROUPS_TOTAL] >= before[CL_HETERO_WORK_GROUPS_TOTAL] + 3 * kN / 64);
        CHECK(after[CL_HETERO_WORK_GROUPS_CPU] - before[CL_HETERO_WORK_GROUPS_CPU] <= 3 * kN / 64);
    }
}

TEST_CASE("unified: the same program in discrete memory does move bytes (control)", "[unified][counters]") {
    // (Unsplit, every launch runs on the primary slot and x never needs to move: the bytes are the
    // split engine's.)
    ModelEnv env(CL_MEMORY_MODEL_DISCRETE_HETERO);
    Counters before = quietCounters(env.platform);
    runProgram(env);
    Counters after = quietCounters(env.platform);
    CHECK(after[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] == before[CL_HETERO_LAUNCHES_SPLIT_UNIFIED]);
    cl_ulong moved = (after[CL_HETERO_BYTES_HOST_TO_DEVICE] - before[CL_HETERO_BYTES_HOST_TO_DEVICE]) +
                     (after[CL_HETERO_BYTES_DEVICE_TO_HOST] - before[CL_HETERO_BYTES_DEVICE_TO_HOST]) +
                     (after[CL_HETERO_BYTES_BETWEEN_DEVICES] - before[CL_HETERO_BYTES_BETWEEN_DEVICES]);
    // Split launches bring x to both slots at least (through the host, or from the GPU's snapshot).
    if (alwaysSplit()) CHECK(moved >= kN * sizeof(cl_int));
}

TEST_CASE("unified: CL_MEM_USE_HOST_PTR memory is what the devices work on", "[unified][hostptr]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    cl_kernel k = env.kernel(p, "mark1");
    const size_t n = 4096;
    void* raw = nullptr;
    REQUIRE(posix_memalign(&raw, 4096, (2 * n + 1) * sizeof(cl_int)) == 0);
    auto* host = static_cast<cl_int*>(raw);
    std::fill(host, host + 2 * n + 1, 0);
    // Aligned: used in place. One element further: not aligned for the backends, so copies are kept
    // (and the results are still exact, seen through a map).
    for (cl_int* hits : {host, host + n + 1}) {
        INFO("host pointer " << (hits == host ? "aligned" : "misaligned"));
        cl_mem dh = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), hits);
        cl_mem ids = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
        cltest::setArg(k, 0, dh), cltest::setArg(k, 1, ids);
        size_t global = n, local = 16;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        if (hits == host) {
            // Zero copy: the application's memory holds the results without a read or a map.
            CHECK(std::all_of(hits, hits + n, [](cl_int h) { return h == 2; }));
        }
        cl_int err = CL_SUCCESS;
        auto* mapped = static_cast<cl_int*>(
            clEnqueueMapBuffer(env.queue, dh, CL_TRUE, CL_MAP_READ, 0, n * sizeof(cl_int), 0, nullptr, nullptr, &err));
        REQUIRE(err == CL_SUCCESS);
        CHECK(mapped == hits);
        CHECK(std::all_of(mapped, mapped + n, [](cl_int h) { return h == 2; }));
        REQUIRE(clEnqueueUnmapMemObject(env.queue, dh, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        clReleaseMemObject(dh), clReleaseMemObject(ids);
    }
    clReleaseKernel(k), clReleaseProgram(p);
    std::free(raw);
}

TEST_CASE("unified: a buffer's memory is handed back only after the devices are done with it", "[unified][hostptr]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    cl_kernel k = env.kernel(p, "mark1");
    const size_t n = 1 << 16;
    void* raw = nullptr;
    REQUIRE(posix_memalign(&raw, 4096, n * sizeof(cl_int)) == 0);
    auto* host = static_cast<cl_int*>(raw);
    std::fill(host, host + n, 0);
    cl_mem dh = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), host);
    cl_mem ids = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    Released released;
    REQUIRE(clSetMemObjectDestructorCallback(dh, markReleased, &released) == CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cltest::setArg(k, 0, dh), cltest::setArg(k, 1, ids);
    size_t global = n;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 1, &gate, nullptr) == CL_SUCCESS);
    REQUIRE(clReleaseKernel(k) == CL_SUCCESS);  // (Hetero's kernels hold their arguments)
    REQUIRE(clReleaseMemObject(dh) == CL_SUCCESS);
    {
        std::lock_guard lock(released.mutex);
        CHECK_FALSE(released.done);  // the gated launch still needs it
    }
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    REQUIRE(released.await());
    // Only now may the application reuse its memory; the launch's results are in it.
    CHECK(std::all_of(host, host + n, [](cl_int h) { return h == 1; }));
    clReleaseEvent(gate), clReleaseMemObject(ids), clReleaseProgram(p);
    std::free(raw);
}
