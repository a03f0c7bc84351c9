// The named commands and event operations of devices/backend_commands.hpp, on a fake backend (a
// dispatch table of our own): what reaches the backend (never blocking, wait lists as given, an
// empty one as (0, nullptr)), that waits hold no view lock, and that a blocking transfer releases
// the event it waited for.
#include "devices/backend_commands.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct Seen {
    cl_bool blocking = CL_TRUE;
    cl_uint waitCount = 99;
    const cl_event* waitList = nullptr;
    bool askedForEvent = false;
};
Seen seen;
std::atomic<int> releasedEvents{0};
cl_event madeEvent = nullptr;  // what the fake enqueues hand out

void record(cl_bool blocking, cl_uint n, const cl_event* list, cl_event* done) {
    seen = {blocking, n, list, done != nullptr};
    if (done) *done = madeEvent;
}

cl_int CL_API_CALL fakeRead(cl_command_queue, cl_mem, cl_bool blocking, size_t, size_t, void*, cl_uint n,
                            const cl_event* list, cl_event* done) {
    record(blocking, n, list, done);
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeMarker(cl_command_queue, cl_uint n, const cl_event* list, cl_event* done) {
    record(CL_FALSE, n, list, done);
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeReleaseEvent(cl_event) {
    ++releasedEvents;
    return CL_SUCCESS;
}

// Waits (up to 2 s) for another thread's view change.
std::mutex waitMutex;
std::condition_variable waitChanged;
bool viewChanged = false;
cl_int untilViewChanged() {
    std::unique_lock lock(waitMutex);
    return waitChanged.wait_for(lock, std::chrono::seconds(2), [] { return viewChanged; }) ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}
cl_int CL_API_CALL fakeWait(cl_uint, const cl_event*) { return untilViewChanged(); }
cl_int CL_API_CALL fakeFinish(cl_command_queue) { return untilViewChanged(); }

struct FakeBackend {
    cl_icd_dispatch table{};
    _cl_command_queue queue{};
    _cl_mem mem{};
    _cl_event events[3]{};
    FakeBackend() {
        table.clEnqueueReadBuffer = fakeRead;
        table.clEnqueueMarkerWithWaitList = fakeMarker;
        table.clReleaseEvent = fakeReleaseEvent;
        table.clWaitForEvents = fakeWait;
        table.clFinish = fakeFinish;
        queue.dispatch = mem.dispatch = &table;
        for (auto& e : events) e.dispatch = &table;
        madeEvent = &events[2];
        releasedEvents = 0;
        seen = {};
        std::lock_guard lock(waitMutex);
        viewChanged = false;
    }
};

// Runs `waits` on a thread while this one changes a view with the lock on: the change must not
// wait for the waiter (it would hold the lock), and the waiter must see it.
template <typename Waits>
cl_int waitsWithoutTheLock(Waits waits) {
    hetero::backend::lockViews(true);
    cl_int result = CL_INVALID_VALUE;
    std::thread waiter([&] { result = waits(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the waiter is in its wait
    {
        hetero::backend::ViewChange alone;
        std::lock_guard lock(waitMutex);
        viewChanged = true;
    }
    waitChanged.notify_all();
    waiter.join();
    hetero::backend::lockViews(false);
    return result;
}

}  // namespace

TEST_CASE("an enqueue never blocks and passes its wait list as given", "[backend_commands]") {
    FakeBackend fake;
    std::vector<cl_event> wait = {&fake.events[0], &fake.events[1]};
    char to[4];
    cl_event done = nullptr;
    CHECK(hetero::backend::enqueueRead(&fake.queue, &fake.mem, 0, sizeof to, to, wait, &done) == CL_SUCCESS);
    CHECK(seen.blocking == CL_FALSE);
    CHECK(seen.waitCount == 2);
    CHECK(seen.waitList == wait.data());  // the vector's own array: not copied
    CHECK(done == madeEvent);
}

TEST_CASE("an empty wait list reaches the backend as (0, nullptr)", "[backend_commands]") {
    FakeBackend fake;
    std::vector<cl_event> none;
    none.reserve(4);  // an empty vector with storage: its data() is not null
    CHECK(hetero::backend::enqueueMarker(&fake.queue, none, nullptr) == CL_SUCCESS);
    CHECK(seen.waitCount == 0);
    CHECK(seen.waitList == nullptr);
    CHECK_FALSE(seen.askedForEvent);
    cl_event one = &fake.events[0];
    CHECK(hetero::backend::enqueueMarker(&fake.queue, {&one, 0}, nullptr) == CL_SUCCESS);
    CHECK(seen.waitList == nullptr);
}

TEST_CASE("waiting for events and finishing a queue hold no view lock", "[backend_commands]") {
    SECTION("waitFor one event") {
        FakeBackend fake;
        CHECK(waitsWithoutTheLock([&] { return hetero::backend::waitFor(&fake.events[0]); }) == CL_SUCCESS);
    }
    SECTION("waitFor a list") {
        FakeBackend fake;
        std::vector<cl_event> list = {&fake.events[0], &fake.events[1]};
        CHECK(waitsWithoutTheLock([&] { return hetero::backend::waitFor(list); }) == CL_SUCCESS);
    }
    SECTION("finish") {
        FakeBackend fake;
        CHECK(waitsWithoutTheLock([&] { return hetero::backend::finish(&fake.queue); }) == CL_SUCCESS);
    }
    SECTION("a blocking transfer's wait, which then releases its event") {
        FakeBackend fake;
        char to[4];
        cl_int err = waitsWithoutTheLock([&] {
            return hetero::backend::enqueueAndWait([&](cl_event* done) {
                return hetero::backend::enqueueRead(&fake.queue, &fake.mem, 0, sizeof to, to, {}, done);
            });
        });
        CHECK(err == CL_SUCCESS);
        CHECK(releasedEvents == 1);
    }
}

TEST_CASE("an owned event from an enqueue is released once", "[backend_commands]") {
    FakeBackend fake;
    {
        hetero::backend::Event e;
        CHECK(hetero::backend::enqueueMarker(&fake.queue, {}, e.receive()) == CL_SUCCESS);
        CHECK(e.get() == madeEvent);
        CHECK(releasedEvents == 0);
    }
    CHECK(releasedEvents == 1);
}
