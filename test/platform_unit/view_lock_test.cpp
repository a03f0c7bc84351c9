// The view lock of devices/view_lock.hpp, on a fake backend (a dispatch table of our own): a view's
// creation or release never overlaps a call in progress, calls that wait never hold the lock, and a
// view released from inside a backend call is released after that call.
#include "devices/backend_call.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> inCall{false};
std::atomic<int> released{0};
std::atomic<bool> releasedInsideCall{false};
Clock::time_point callLeft;
cl_mem releaseFromInside = nullptr;  // clFlush releases this view from inside the call, if set

std::mutex waitMutex;
std::condition_variable waitChanged;
bool viewChanged = false;

cl_int CL_API_CALL fakeFlush(cl_command_queue) {
    inCall = true;
    if (releaseFromInside) hetero::backend::releaseView(releaseFromInside);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    callLeft = Clock::now();
    inCall = false;
    return CL_SUCCESS;
}

cl_int CL_API_CALL fakeRelease(cl_mem) {
    if (inCall) releasedInsideCall = true;
    ++released;
    return CL_SUCCESS;
}

// Waits (up to 2 s) for another thread's view change.
cl_int CL_API_CALL fakeWait(cl_uint, const cl_event*) {
    std::unique_lock lock(waitMutex);
    return waitChanged.wait_for(lock, std::chrono::seconds(2), [] { return viewChanged; }) ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}

struct FakeBackend {
    cl_icd_dispatch table{};
    _cl_command_queue queue{};
    _cl_mem view{};
    _cl_event event{};
    FakeBackend() {
        table.clFlush = fakeFlush;
        table.clReleaseMemObject = fakeRelease;
        table.clWaitForEvents = fakeWait;
        queue.dispatch = view.dispatch = event.dispatch = &table;
        hetero::backend::lockViews(true);
        released = 0;
        releasedInsideCall = false;
        releaseFromInside = nullptr;
    }
    ~FakeBackend() { hetero::backend::lockViews(false); }
};

void waitUntilInCall() {
    while (!inCall) std::this_thread::sleep_for(std::chrono::microseconds(100));
}

}  // namespace

TEST_CASE("a view changes only once the backend calls in progress are over", "[view_lock]") {
    FakeBackend fake;
    cl_command_queue q = &fake.queue;
    std::thread caller([q] { BACKEND(q, clFlush)(q); });
    waitUntilInCall();
    Clock::time_point changed;
    {
        hetero::backend::ViewChange alone;
        CHECK(alone.held());
        changed = Clock::now();
    }
    caller.join();
    CHECK(changed >= callLeft);
}

TEST_CASE("a backend that is not locked is called without the lock", "[view_lock]") {
    FakeBackend fake;
    hetero::backend::lockViews(false);
    hetero::backend::ViewChange alone;
    CHECK_FALSE(alone.held());
}

TEST_CASE("a view released inside a backend call goes after the call", "[view_lock]") {
    FakeBackend fake;
    releaseFromInside = &fake.view;
    cl_command_queue q = &fake.queue;
    BACKEND(q, clFlush)(q);  // would deadlock if the release waited for the lock there
    CHECK(released == 1);
    CHECK_FALSE(releasedInsideCall);
}

TEST_CASE("a call that waits does not hold the lock", "[view_lock]") {
    FakeBackend fake;
    {
        std::lock_guard lock(waitMutex);
        viewChanged = false;
    }
    cl_event e = &fake.event;
    cl_int waited = CL_INVALID_VALUE;
    std::thread waiter([&] { waited = BACKEND(e, clWaitForEvents)(1, &e); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the waiter is in its wait
    {
        hetero::backend::ViewChange alone;  // must not wait for the waiter
        std::lock_guard lock(waitMutex);
        viewChanged = true;
    }
    waitChanged.notify_all();
    waiter.join();
    CHECK(waited == CL_SUCCESS);  // it saw the change, rather than giving up after 2 s
}

TEST_CASE("a view released in a backend's callback goes at the end of a later call", "[view_lock]") {
    FakeBackend fake;
    {
        hetero::backend::InBackendCallback inside;  // as the backend's callback thread
        hetero::backend::releaseView(&fake.view);
        CHECK(released == 0);
    }
    CHECK(released == 0);  // the callback's end is not a call's end
    cl_command_queue q = &fake.queue;
    BACKEND(q, clFlush)(q);
    CHECK(released == 1);
    CHECK_FALSE(releasedInsideCall);
}

TEST_CASE("a root released after a view deferred from a callback goes after that view", "[view_lock]") {
    FakeBackend fake;
    static std::vector<cl_mem> order;
    order.clear();
    fake.table.clReleaseMemObject = [](cl_mem m) -> cl_int {
        order.push_back(m);
        return CL_SUCCESS;
    };
    _cl_mem root{&fake.table};
    {
        hetero::backend::InBackendCallback inside;
        hetero::backend::releaseView(&fake.view);
    }
    hetero::backend::releaseRoot(&root);
    CHECK(order == std::vector<cl_mem>{&fake.view, &root});
}

TEST_CASE("a view's release never waits for a call in progress: the call's end releases it", "[view_lock]") {
    // Whoever releases a view may hold what a call in progress waits for (a storage's mutex).
    FakeBackend fake;
    cl_command_queue q = &fake.queue;
    std::thread caller([q] { BACKEND(q, clFlush)(q); });
    waitUntilInCall();
    hetero::backend::releaseView(&fake.view);
    const bool callStillInProgress = inCall;
    CHECK(released == 0);
    caller.join();
    CHECK(callStillInProgress);
    CHECK(released == 1);  // at the end of the caller's call
    CHECK_FALSE(releasedInsideCall);
}
