// When a split launch counts as complete (platform/engine/event_tail.hpp): only once everything Hetero
// started for it is over (the CPU chunk left running, the stream-back of the merged result, the
// build of the kernel's split variants), because an application may exit as soon as its last
// wait returns. Two slots, every launch split (HETERO_SPLIT=always), variants built when a launch
// first wants to split (HETERO_SPLIT_BUILD=lazy), random schedules (HETERO_TEST_SPLIT_CHAOS).
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <CL/cl_ext_hetero.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

using cltest::Counters;
using cltest::Env;
using cltest::nonce;
using cltest::setArg;

namespace {


// Eight written objects: the stream-back of one launch has eight transfers, each after a random
// delay under HETERO_TEST_SPLIT_CHAOS.
const char* kEightOutputs = R"(
__kernel void eight(__global int* a, __global int* b, __global int* c, __global int* d,
                    __global int* e, __global int* f, __global int* g, __global int* h, int round) {
    int i = (int)get_global_id(0);
    a[i] = i + round; b[i] = i * 2 + round; c[i] = i * 3 + round; d[i] = i * 4 + round;
    e[i] = i * 5 + round; f[i] = i * 6 + round; g[i] = i * 7 + round; h[i] = i * 8 + round;
})";

constexpr size_t kItems = 1 << 14;

struct EightOutputs {
    Env& env;
    cl_program program;
    cl_kernel kernel;
    cl_mem out[8];
    explicit EightOutputs(Env& e, const std::string& nonce) : env(e) {
        program = env.build(nonce + kEightOutputs);
        kernel = env.kernel(program, "eight");
        for (int i = 0; i < 8; ++i) {
            out[i] = env.buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_int));
            setArg(kernel, static_cast<cl_uint>(i), out[i]);
        }
    }
    ~EightOutputs() {
        for (cl_mem m : out) clReleaseMemObject(m);
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
    cl_event launch(int round) {
        setArg(kernel, 8, round);
        size_t global = kItems, local = 64;
        cl_event done = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &done) == CL_SUCCESS);
        return done;
    }
    bool right(int round) {
        for (int k = 0; k < 8; ++k) {
            auto v = env.read<cl_int>(out[k], kItems);
            for (size_t i = 0; i < kItems; ++i)
                if (v[i] != static_cast<cl_int>(i) * (k + 1) + round) return false;
        }
        return true;
    }
};

// A launch with an event (and `onComplete` on it, if given), then a blocking read of one of its
// outputs: the read runs on the slot that holds the merged result, right after the merge, while the
// launch itself still streams its results back to the other slot. Once the read returns, the launch
// is complete too.
void launchThenBlockingRead(Env& env, EightOutputs& k, int round,
                            void(CL_CALLBACK* onComplete)(cl_event, cl_int, void*) = nullptr, void* userData = nullptr) {
    cl_event launched = k.launch(round);
    if (onComplete) REQUIRE(clSetEventCallback(launched, CL_COMPLETE, onComplete, userData) == CL_SUCCESS);
    cl_int value = 0;
    REQUIRE(clEnqueueReadBuffer(env.queue, k.out[0], CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(launched, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    INFO("round " << round);
    CHECK(status == CL_COMPLETE);
    CHECK(value == round);
    clReleaseEvent(launched);
}

}  // namespace

TEST_CASE("the first launch that would split builds the variants, runs whole and completes after the build",
          "[tail][lazy]") {
    Env env;
    EightOutputs k(env, nonce("lazy"));  // a program nobody built before: its variants are not built
    Counters before = Counters::read(env.platform);
    clReleaseEvent(k.launch(1));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    Counters first = Counters::read(env.platform);
    CHECK(first[CL_HETERO_LAUNCHES_WHOLE] == before[CL_HETERO_LAUNCHES_WHOLE] + 1);
    CHECK(first[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE]);
    // The build was over when the first launch completed: the next one splits.
    clReleaseEvent(k.launch(2));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    Counters second = Counters::read(env.platform);
    CHECK(second[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == first[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
    CHECK(second[CL_HETERO_LAUNCHES_WHOLE] == first[CL_HETERO_LAUNCHES_WHOLE]);
    CHECK(k.right(2));
}

TEST_CASE("nothing of a split launch moves once clFinish returned", "[tail]") {
    Env env;
    EightOutputs k(env, nonce("quiet"));
    clReleaseEvent(k.launch(0));  // builds the variants
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (int round = 1; round <= 8; ++round) {
        Counters before = Counters::read(env.platform);
        clReleaseEvent(k.launch(round));
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        Counters done = Counters::read(env.platform);
        REQUIRE(done[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        // Whatever was still on its way (the merged results streaming back to the CPU copies)
        // would show in the counters meanwhile.
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        Counters later = Counters::read(env.platform);
        INFO("round " << round);
        CHECK(later[CL_HETERO_BYTES_BETWEEN_DEVICES] == done[CL_HETERO_BYTES_BETWEEN_DEVICES]);
    }
    CHECK(k.right(8));
}

TEST_CASE("a command after a split launch is complete only once the launch is", "[tail]") {
    Env env;
    EightOutputs k(env, nonce("order"));
    clReleaseEvent(k.launch(0));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (int round = 1; round <= 8; ++round) launchThenBlockingRead(env, k, round);
}

TEST_CASE("a launch whose completion a callback waits for is complete once a blocking call after it returns",
          "[tail][callback]") {
    // With a callback, the launch's completion is heard on the backend's callback thread and waits
    // for the launch's tail there; the blocking read's completion waits for the same tail from this
    // thread. Whichever registered first is completed first when the tail finishes: the read must
    // not return while the launch before it on this in-order queue is still not complete.
    Env env;
    EightOutputs k(env, nonce("callback order"));
    clReleaseEvent(k.launch(0));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    std::atomic<int> called{0};
    auto onComplete = [](cl_event, cl_int, void* count) { static_cast<std::atomic<int>*>(count)->fetch_add(1); };
    for (int round = 1; round <= 24; ++round) launchThenBlockingRead(env, k, round, onComplete, &called);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (int i = 0; i < 200 && called.load() < 24; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(called.load() == 24);
}

TEST_CASE("a launch that runs whole right after a split launch is complete only once the split is", "[tail][direct]") {
    // The second kernel uses a global atomic, so it never splits: with its memory current on the
    // GPU slot it takes the direct way (platform/split/launch.cpp), which must not let its event
    // complete while the split before it still streams its results back.
    Env env;
    EightOutputs k(env, nonce("direct"));
    cl_program whole = env.build(nonce("direct whole") + R"(
__kernel void tally(__global const int* in, __global int* sum) {
    atomic_add(sum, in[get_global_id(0)] > 0 ? 1 : 0);
})");
    cl_kernel tally = env.kernel(whole, "tally");
    cl_mem sum = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    setArg(tally, 0, k.out[0]);
    setArg(tally, 1, sum);
    clReleaseEvent(k.launch(0));  // builds the variants
    size_t global = kItems, local = 64;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, tally, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (int round = 1; round <= 8; ++round) {
        Counters before = Counters::read(env.platform);
        clReleaseEvent(k.launch(round));
        cl_event counted = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, tally, 1, nullptr, &global, &local, 0, nullptr, &counted) ==
                CL_SUCCESS);
        REQUIRE(clWaitForEvents(1, &counted) == CL_SUCCESS);
        Counters done = Counters::read(env.platform);
        INFO("round " << round);
        REQUIRE(done[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        Counters later = Counters::read(env.platform);
        CHECK(later[CL_HETERO_BYTES_BETWEEN_DEVICES] == done[CL_HETERO_BYTES_BETWEEN_DEVICES]);
        clReleaseEvent(counted);
    }
    CHECK(k.right(8));
    clReleaseMemObject(sum);
    clReleaseKernel(tally);
    clReleaseProgram(whole);
}
