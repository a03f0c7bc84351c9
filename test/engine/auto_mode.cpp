// Auto mode (HETERO_SPLIT unset) through the ICD loader on two slots: what the split history does
// with real launches. The policy itself is tested on synthetic timings in test/platform_unit/.
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <CL/cl_ext_hetero.h>

#include <chrono>
#include <cstdlib>

using cltest::Env;
using cltest::setArg;

namespace {

const char* kKernels = R"(
    __kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }
    // A few milliseconds on a CPU device: long enough that auto mode tries a split.
    // `rounds` steps of a linear congruential generator: the host checks it in closed form.
    __kernel void spin(__global uint* v, int rounds) {
        size_t i = get_global_id(0);
        uint x = v[i];
        for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
        v[i] = x;
    }
    // The same, under another name: sizing the work must not enter spin's history.
    __kernel void calibrate(__global uint* v, int rounds) {
        size_t i = get_global_id(0);
        uint x = v[i];
        for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
        v[i] = x;
    })";

// x -> a * x + c, applied `n` times, as one such map (by squaring: millions of rounds on the GPU
// must not cost the host as much).
struct Affine {
    cl_uint a = 1, c = 0;
    Affine then(const Affine& next) const { return {next.a * a, next.a * c + next.c}; }
    cl_uint operator()(cl_uint x) const { return a * x + c; }
};
Affine repeated(Affine step, long long n) {
    Affine result;
    for (; n > 0; n >>= 1, step = step.then(step))
        if (n & 1) result = result.then(step);
    return result;
}

cl_ulong splitLaunches(cl_platform_id platform) {
    auto c = cltest::Counters::read(platform);
    return c[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + c[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] + c[CL_HETERO_LAUNCHES_SPLIT_NWAY];
}

// Rounds of `calibrate` (its buffer set) for a launch of `n` work-items that takes at least 20 ms on
// whatever runs it (a CPU, or an H100): far above the shortest launch auto mode splits
// (SplitHistory::kMinimumSplitSeconds). Rounds double until three launches in a row all take that
// long: any launch may also pay once for the backend compiling the kernel (PoCL with a cold cache:
// 40 ms), auto mode building the split variants (HETERO_SPLIT_BUILD=lazy: 90 ms) or the first split
// loading them. Going by one launch, it stopped at 64 or 256 rounds whatever the kernel took: on
// 16 cores a launch below 0.5 ms, which auto mode rightly never splits (engine.auto-unified failed
// there). `launched` gets the rounds of every launch.
cl_int roundsForLongLaunch(Env& env, cl_kernel calibrate, size_t n, size_t local, std::vector<cl_int>& launched) {
    for (cl_int r = 64;; r *= 2) {
        setArg(calibrate, 1, r);
        int longLaunches = 0;
        for (; longLaunches < 3; ++longLaunches) {
            launched.push_back(r);
            auto t0 = std::chrono::steady_clock::now();
            REQUIRE(clEnqueueNDRangeKernel(env.queue, calibrate, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
            REQUIRE(clFinish(env.queue) == CL_SUCCESS);
            if (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(20)) break;
        }
        if (longLaunches == 3 || r >= (1 << 24)) return r;
    }
}

}  // namespace

TEST_CASE("auto mode: short launches queued deep behind each other never split", "[auto][queued]") {
    // Each launch is short, but hundreds wait in the queue at once: a launch's own time, not the
    // time it waited behind the others, decides whether a split could pay.
    Env env;
    const size_t n = 4096, local = 64;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), std::vector<cl_int>(n, 0).data());
    cl_program p = env.build(kKernels);
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    const cl_ulong before = splitLaunches(env.platform);
    const int rounds = 8, perRound = 200;
    for (int round = 0; round < rounds; ++round) {
        for (int i = 0; i < perRound; ++i)
            REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    }
    auto back = env.read<cl_int>(buf, n);
    CHECK(back[0] == rounds * perRound);
    CHECK(back[n - 1] == rounds * perRound);
    // Timed from when they could start, they are far below the 0.5 ms a split needs; timed from
    // their enqueue (the old bug), 22 of them split. A machine busy with other tests (ctest -j2 on
    // two cores) may stretch a launch past 0.5 ms now and then: a probe or two, no more.
    CHECK(splitLaunches(env.platform) - before <= 2);
    clReleaseKernel(increment), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("auto mode: a long launch is tried split once it was timed, with exact results", "[auto]") {
    Env env;
    const size_t n = 1 << 16, local = 64;
    std::vector<cl_uint> init(n);
    for (size_t i = 0; i < n; ++i) init[i] = cl_uint(i);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), init.data());
    cl_program p = env.build(kKernels);
    cl_kernel spin = env.kernel(p, "spin"), calibrate = env.kernel(p, "calibrate");
    setArg(spin, 0, buf);
    setArg(calibrate, 0, buf);
    std::vector<cl_int> rounds;  // of every launch on buf, for the expected results
    setArg(spin, 1, roundsForLongLaunch(env, calibrate, n, local, rounds));
    const cl_ulong before = splitLaunches(env.platform);
    // Launch by launch, so the timing of one is in the history before the next is decided (timings
    // are polled at most every 100 us: a few launches of slack). The launch that first wants a split
    // starts the build of the variants, and launches run whole until it ends, without waiting for
    // it (on a fresh H100 machine it outlasted twelve launches of 20 ms): up to twelve launches
    // once a build ended, the first of which may find the variants built.
    const cl_ulong buildsBefore = cltest::Counters::read(env.platform)[CL_HETERO_VARIANT_BUILDS];
    int sinceBuilt = 0;
    for (int i = 0; i < 400 && sinceBuilt < 12 && splitLaunches(env.platform) == before; ++i) {
        if (cltest::Counters::read(env.platform)[CL_HETERO_VARIANT_BUILDS] > buildsBefore) ++sinceBuilt;
        rounds.push_back(rounds.back());
        REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    }
    INFO("launches since the variants were built: " << sinceBuilt);
    CHECK(splitLaunches(env.platform) > before);
    // Two slots of one device (engine.auto-one-device) gain nothing from each other: auto mode
    // splits such a launch as the GPU + CPU pair, never over them.
    if (std::getenv("HETERO_TEST_EXPECT_NO_NWAY"))
        CHECK(cltest::Counters::read(env.platform)[CL_HETERO_LAUNCHES_SPLIT_NWAY] == 0);
    // Two slots standing in for GPUs with contexts of their own (engine.auto-nway): the launch splits
    // over them, and the CPU slot joins with its trial share until its speed is measured.
    if (const char* cpu = std::getenv("HETERO_TEST_EXPECT_NWAY_CPU")) {
        const cltest::Counters c = cltest::Counters::read(env.platform);
        CHECK(c[CL_HETERO_LAUNCHES_SPLIT_NWAY] > 0);
        CHECK(c[CL_HETERO_WORK_GROUPS_SLOT0 + std::atoi(cpu)] > 0);
    }
    // The same arithmetic on the host.
    long long total = 0;
    for (cl_int launchRounds : rounds) total += launchRounds;
    const Affine all = repeated({1664525u, 1013904223u}, total);
    std::vector<cl_uint> expected = init;
    for (auto& x : expected) x = all(x);
    auto back = env.read<cl_uint>(buf, n);
    size_t mismatches = 0;
    for (size_t i = 0; i < n; ++i) mismatches += back[i] != expected[i];
    CHECK(mismatches == 0);
    clReleaseKernel(spin), clReleaseKernel(calibrate), clReleaseProgram(p), clReleaseMemObject(buf);
}

// Two kernels new to auto mode (a program of its own: `options` gives it another key in the
// history, whichever tests ran before) on memory of their own: spin, long enough to be seen running
// (on a), and increment (on b).
struct OrderTest {
    Env env;
    const size_t n = 1 << 16, local = 64;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), std::vector<cl_uint>(n, 1).data());
    cl_mem b = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), std::vector<cl_int>(n, 0).data());
    cl_program p;
    cl_kernel spin, calibrate, increment;
    explicit OrderTest(const char* options) : p(env.build(kKernels, options)) {
        spin = env.kernel(p, "spin"), calibrate = env.kernel(p, "calibrate"), increment = env.kernel(p, "increment");
        setArg(spin, 0, a), setArg(calibrate, 0, a), setArg(increment, 0, b);
        std::vector<cl_int> launched;
        setArg(spin, 1, roundsForLongLaunch(env, calibrate, n, local, launched));
    }
    ~OrderTest() {
        clReleaseKernel(spin), clReleaseKernel(calibrate), clReleaseKernel(increment), clReleaseProgram(p);
        clReleaseMemObject(a), clReleaseMemObject(b);
    }
    void launch(cl_kernel k, cl_event* event = nullptr) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, event) == CL_SUCCESS);
    }
    static cl_int status(cl_event e) {
        cl_int s = CL_QUEUED;
        REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
        return s;
    }
};

TEST_CASE("auto mode: a launch after a timed one comes after it, though it goes straight to its queue", "[auto]") {
    // A timed launch runs on a side queue with profiling (split/launch_timing.hpp); the next launch,
    // of another kernel on other memory, goes the direct way to the slot's own queue and must
    // still wait for it: once it is complete, so is the timed one (in order).
    OrderTest t("-DORDER_TEST=1");
    // spin's first launch loads it (not timed); its second is timed; increment's first goes direct.
    cl_event timed = nullptr, after = nullptr;
    t.launch(t.spin);
    t.launch(t.spin, &timed);
    t.launch(t.increment, &after);
    REQUIRE(clWaitForEvents(1, &after) == CL_SUCCESS);
    CHECK(OrderTest::status(timed) == CL_COMPLETE);
    CHECK(t.env.read<cl_int>(t.b, t.n)[t.n - 1] == 1);
    clReleaseEvent(timed), clReleaseEvent(after);
}

TEST_CASE("auto mode: a timed launch comes after the launch before it, though that one went to another queue", "[auto]") {
    // The timed launch goes straight to the profiling side queue (split/launch.cpp, launchDirect);
    // the long launch before it, of another kernel on other memory, went to the slot's own queue
    // without a backend event. In order, the timed one may not complete before it.
    OrderTest t("-DORDER_TEST=2");
    // increment's first launch loads it (not timed); spin's first is not timed either; increment's
    // second is.
    t.launch(t.increment);
    REQUIRE(clFinish(t.env.queue) == CL_SUCCESS);
    cl_event before = nullptr, timed = nullptr;
    t.launch(t.spin, &before);
    t.launch(t.increment, &timed);
    REQUIRE(clWaitForEvents(1, &timed) == CL_SUCCESS);
    CHECK(OrderTest::status(before) == CL_COMPLETE);
    CHECK(t.env.read<cl_int>(t.b, t.n)[t.n - 1] == 2);
    clReleaseEvent(before), clReleaseEvent(timed);
}

TEST_CASE("auto mode: a program whose last launch was timed (run by history_check.py)", "[.history-last]") {
    // Two launches, each finished: the first loads the kernel (not timed), the second is timed,
    // and no decision comes after it to hear its time: the history written at exit must.
    Env env;
    const size_t n = 65536, local = 64;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), std::vector<cl_int>(n, 0).data());
    cl_program p = env.build(kKernels, "-DHISTORY_LAST=1");
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    for (int i = 0; i < 2; ++i) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    }
    CHECK(env.read<cl_int>(buf, n)[n - 1] == 2);
    clReleaseKernel(increment), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("auto mode: launches that feed the history kept between runs (run by history_check.py)", "[.history]") {
    // Six launches of one size, each finished before the next: the first loads the kernel (not
    // timed), the second is timed, and the next decision hears its time. 1024 work-groups: more
    // than any GPU runs at once (a launch that fits is never timed: LaunchCost::fitsGpuAtOnce).
    Env env;
    const size_t n = 65536, local = 64;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), std::vector<cl_int>(n, 0).data());
    cl_program p = env.build(kKernels);
    cl_kernel increment = env.kernel(p, "increment");
    setArg(increment, 0, buf);
    for (int i = 0; i < 6; ++i) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    }
    CHECK(env.read<cl_int>(buf, n)[n - 1] == 6);
    // One work-group a launch fits any device at once: such launches are never decided by the
    // history, so none of them may be counted in it (history_check.py looks for no record of
    // calibrate), also where a kept verdict decided them (platform/split/whole_verdict.hpp).
    cl_kernel fits = env.kernel(p, "calibrate");
    const size_t one = 64;
    cl_int rounds = 3;
    setArg(fits, 0, buf);
    REQUIRE(clSetKernelArg(fits, 1, sizeof rounds, &rounds) == CL_SUCCESS);
    for (int i = 0; i < 100; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, fits, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseKernel(fits), clReleaseKernel(increment), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("auto mode: a program built and never launched (run by history_check.py)", "[.history-build-only]") {
    // Whatever its history says, the process may end at once: split variants being built with the
    // program must be over before the exit (history_check.py delays that build).
    Env env;
    cl_program p = env.build(kKernels);
    REQUIRE(p);
}

