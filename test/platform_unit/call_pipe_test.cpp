// A launch pipe (devices/call_pipe.hpp) on a fake backend: its thread makes the launches pushed, in
// order, each after its arguments; every ordered backend call (a marker, a release) from any thread
// waits until what was pushed before it is made; a refused launch is reported once; a pipe asleep
// with nothing to make is not offered the next launch, and is woken for the ones after it; threads
// waiting for its calls (for ring room or a drain) each go on once theirs are made, and not before.
#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "devices/call_pipe.hpp"
#include "platform/support/object.hpp"  // the handles' dispatch-first layout

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct Made {
    std::thread::id by;
    cl_int argument;  // the kernel's argument 0 when the launch was made
};
std::mutex madeMutex;
std::vector<Made> made;
cl_int currentArgument = -1;
std::atomic<int> launchesBeforeMarker{-1}, launchesBeforeRelease{-1};
std::atomic<int> refuseLaunch{-1};  // the index of a launch the fake refuses
std::atomic<int> flushes{0};
std::atomic<int> launchDelayUs{0};
_cl_event markerEvent;

cl_int CL_API_CALL fakeSetArg(cl_kernel, cl_uint index, size_t size, const void* value) {
    if (index == 0 && size == sizeof(cl_int)) std::memcpy(&currentArgument, value, sizeof(cl_int));
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeLaunch(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*, cl_uint,
                              const cl_event*, cl_event*) {
    if (int us = launchDelayUs.load()) std::this_thread::sleep_for(std::chrono::microseconds(us));
    std::lock_guard lock(madeMutex);
    made.push_back({std::this_thread::get_id(), currentArgument});
    return static_cast<int>(made.size()) - 1 == refuseLaunch.load() ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}
cl_int CL_API_CALL fakeFlush(cl_command_queue) {
    ++flushes;
    return CL_SUCCESS;
}
int madeCount() {
    std::lock_guard lock(madeMutex);
    return static_cast<int>(made.size());
}
cl_int CL_API_CALL fakeMarker(cl_command_queue, cl_uint, const cl_event*, cl_event* done) {
    launchesBeforeMarker = madeCount();
    *done = &markerEvent;
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeReleaseMem(cl_mem) {
    launchesBeforeRelease = madeCount();
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeReleaseEvent(cl_event) { return CL_SUCCESS; }

struct Fake {
    cl_icd_dispatch table{};
    _cl_command_queue queue{};
    _cl_kernel kernel{};
    _cl_mem mem{};
    Fake() {
        table.clSetKernelArg = fakeSetArg;
        table.clEnqueueNDRangeKernel = fakeLaunch;
        table.clFlush = fakeFlush;
        table.clEnqueueMarkerWithWaitList = fakeMarker;
        table.clReleaseMemObject = fakeReleaseMem;
        table.clReleaseEvent = fakeReleaseEvent;
        queue.dispatch = kernel.dispatch = mem.dispatch = markerEvent.dispatch = &table;
        std::lock_guard lock(madeMutex);
        made.clear();
        currentArgument = -1;
        refuseLaunch = -1;
        flushes = 0;
        launchDelayUs = 0;
    }
    // Pushes a launch whose argument 0 is `value`.
    void push(hetero::backend::CallPipe& pipe, cl_int value) {
        hetero::backend::CallPipe::Launch& l = pipe.next();
        l.kernel = &kernel;
        l.dims = 1;
        l.global[0] = 64;
        l.argCount = 1;
        l.args[0].index = 0;
        l.args[0].size = sizeof value;
        l.args[0].hasValue = true;
        std::memcpy(l.args[0].value, &value, sizeof value);
        pipe.push();
    }
};

}  // namespace

TEST_CASE("call pipe: a pipe makes the launches pushed on its own thread, in order, each after its arguments", "[call_pipe]") {
    Fake fake;
    hetero::backend::CallPipe pipe(&fake.queue);
    const int launches = 2000;  // more than the ring holds: the pushing thread waits for room
    for (int i = 0; i < launches; ++i) fake.push(pipe, i);
    pipe.drain();
    std::lock_guard lock(madeMutex);
    REQUIRE(made.size() == launches);
    for (int i = 0; i < launches; ++i) {
        CHECK(made[i].argument == i);
        CHECK(made[i].by != std::this_thread::get_id());
    }
}

TEST_CASE("call pipe: a pushing thread that found the ring full never fills a record whose calls are not made yet",
          "[call_pipe]") {
    // The pipe slower than the pushing thread: the ring fills, and the pushing thread goes on only
    // as records are made. A record filled too early makes another launch's argument.
    Fake fake;
    launchDelayUs = 2;
    hetero::backend::CallPipe pipe(&fake.queue);
    const int launches = 3000;
    for (int i = 0; i < launches; ++i) fake.push(pipe, i);
    pipe.drain();
    std::lock_guard lock(madeMutex);
    REQUIRE(made.size() == launches);
    int wrong = 0;
    for (int i = 0; i < launches; ++i) wrong += made[i].argument != i;
    CHECK(wrong == 0);
}

TEST_CASE("call pipe: an ordered backend call waits until the pipes made what was pushed before it, from any thread",
          "[call_pipe]") {
    Fake fake;
    fake.table.clEnqueueNDRangeKernel = fakeLaunch;
    launchDelayUs = 200;  // the pipe falls behind
    hetero::backend::CallPipe pipe(&fake.queue);
    for (int i = 0; i < 40; ++i) fake.push(pipe, i);
    hetero::backend::Event marker;
    REQUIRE(hetero::backend::enqueueMarker(&fake.queue, {}, marker.receive()) == CL_SUCCESS);
    CHECK(launchesBeforeMarker == 40);
    marker.release();
    // Another thread's call, after this thread's pushes.
    for (int i = 0; i < 40; ++i) fake.push(pipe, i);
    std::thread([&] { hetero::backend::Buffer(&fake.mem).reset(); }).join();
    CHECK(launchesBeforeRelease == 80);
}

TEST_CASE("call pipe: a launch the backend refused is reported once", "[call_pipe]") {
    Fake fake;
    refuseLaunch = 2;
    hetero::backend::CallPipe pipe(&fake.queue);
    for (int i = 0; i < 5; ++i) fake.push(pipe, i);
    pipe.drain();
    CHECK(madeCount() == 5);
    CHECK(pipe.takeError() == CL_OUT_OF_RESOURCES);
    CHECK(pipe.takeError() == CL_SUCCESS);
}

TEST_CASE("call pipe: a flush pushed after launches comes after them", "[call_pipe]") {
    Fake fake;
    hetero::backend::CallPipe pipe(&fake.queue);
    for (int i = 0; i < 16; ++i) fake.push(pipe, i);
    pipe.flushAfterLast();
    pipe.drain();
    CHECK(madeCount() == 16);
    CHECK(flushes == 1);
}

TEST_CASE("call pipe: a pipe asleep with nothing to make is not offered the next launch, and wakes for the ones after",
          "[call_pipe]") {
    Fake fake;
    hetero::backend::CallPipe pipe(&fake.queue);
    fake.push(pipe, 0);
    pipe.drain();
    // Idle long past its spin, it sleeps: the next launch is the caller's to make.
    bool declined = false;
    for (int i = 0; i < 200 && !declined; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        declined = !pipe.ready();
    }
    REQUIRE(declined);
    // Woken by that refusal, it takes the launches that follow soon after.
    bool taken = false;
    for (int i = 0; i < 200 && !taken; ++i) {
        taken = pipe.ready();
        if (!taken) std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    CHECK(taken);
}

TEST_CASE("call pipe: threads waiting for its calls, for ring room or a drain, each go on once theirs are made",
          "[call_pipe]") {
    // The pipe falls far behind: the pushing thread waits for room in the full ring, and four
    // threads drain at once. A drain that returns early is counted; a waiter never released hangs.
    Fake fake;
    launchDelayUs = 20;
    hetero::backend::CallPipe pipe(&fake.queue);
    std::atomic<int> pushedSoFar{0};
    std::atomic<bool> pushing{true};
    std::atomic<int> early{0}, drains{0};
    std::vector<std::thread> drainers;
    for (int t = 0; t < 4; ++t)
        drainers.emplace_back([&] {
            while (pushing.load()) {
                const int before = pushedSoFar.load();
                hetero::backend::drainPipes();
                if (madeCount() < before) ++early;
                ++drains;
            }
        });
    const int launches = 3000;
    for (int i = 0; i < launches; ++i) {
        fake.push(pipe, i);
        ++pushedSoFar;
    }
    pushing = false;
    for (auto& t : drainers) t.join();
    pipe.drain();
    CHECK(madeCount() == launches);
    CHECK(early == 0);
    CHECK(drains >= 4);
}
