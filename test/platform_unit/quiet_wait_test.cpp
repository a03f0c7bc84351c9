// Quiet waits (devices/backend_commands.hpp, QuietWaits), on a fake backend whose own waits are
// recorded: while a QuietWaits is held, waitFor and finish never call the backend's clWaitForEvents
// or clFinish (NVIDIA's spin on a core) and register no completion callback (while one is pending
// NVIDIA spins a thread of its own) and touch no queue of the event's (the application may have
// released it); they return once the event is complete, and report a failed command as
// clWaitForEvents does; a wait in progress when the last holder lets go, or for a command still
// queued (which may need clWaitForEvents' flush), goes on as the backend's own. Without one, the
// backend's own waits are used.
#include "devices/backend_commands.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace {

struct Fake;
Fake* fake = nullptr;

struct Fake {
    cl_icd_dispatch table{};
    _cl_command_queue queue{};
    _cl_event event{};
    _cl_event marker{};
    std::atomic<cl_int> status{CL_SUBMITTED};  // the event's (and the marker's) execution status
    std::atomic<int> backendWaits{0}, backendFinishes{0}, flushes{0}, callbacksSet{0}, markers{0}, released{0},
        statusQueries{0};

    Fake() {
        table.clWaitForEvents = [](cl_uint, const cl_event*) -> cl_int {
            ++fake->backendWaits;
            return CL_SUCCESS;
        };
        table.clFinish = [](cl_command_queue) -> cl_int {
            ++fake->backendFinishes;
            return CL_SUCCESS;
        };
        table.clFlush = [](cl_command_queue) -> cl_int {
            ++fake->flushes;
            return CL_SUCCESS;
        };
        table.clGetEventInfo = [](cl_event, cl_event_info what, size_t, void* value, size_t*) -> cl_int {
            if (what == CL_EVENT_COMMAND_EXECUTION_STATUS) {
                *static_cast<cl_int*>(value) = fake->status.load();
                ++fake->statusQueries;
            } else {
                return CL_INVALID_VALUE;
            }
            return CL_SUCCESS;
        };
        table.clSetEventCallback = [](cl_event, cl_int, void(CL_CALLBACK*)(cl_event, cl_int, void*), void*) -> cl_int {
            ++fake->callbacksSet;  // never run: a quiet wait must not need one
            return CL_SUCCESS;
        };
        table.clEnqueueMarkerWithWaitList = [](cl_command_queue, cl_uint, const cl_event*, cl_event* done) -> cl_int {
            ++fake->markers;
            *done = &fake->marker;
            return CL_SUCCESS;
        };
        table.clReleaseEvent = [](cl_event) -> cl_int {
            ++fake->released;
            return CL_SUCCESS;
        };
        queue.dispatch = event.dispatch = marker.dispatch = &table;
        fake = this;
    }
    ~Fake() { fake = nullptr; }
};

// Runs `waits` on a thread; `meanwhile` runs once the wait is under way (it has asked its event).
template <class Waits, class Meanwhile>
cl_int waitWhile(Fake& f, Waits waits, Meanwhile meanwhile) {
    std::atomic<cl_int> result{CL_INVALID_VALUE};
    std::atomic<bool> returned{false};
    std::thread waiter([&] {
        result = waits();
        returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    CHECK_FALSE(returned.load());  // the event is not complete yet
    CHECK(f.statusQueries > 2);    // asked again and again
    meanwhile();
    waiter.join();
    return result;
}

}  // namespace

TEST_CASE("without quiet waits, waits are the backend's own", "[quiet_wait]") {
    Fake f;
    f.status = CL_COMPLETE;
    CHECK(hetero::backend::waitFor(&f.event) == CL_SUCCESS);
    CHECK(hetero::backend::finish(&f.queue) == CL_SUCCESS);
    CHECK(f.backendWaits == 1);
    CHECK(f.backendFinishes == 1);
    CHECK(f.callbacksSet == 0);
}

TEST_CASE("a quiet wait returns once the event completes, with neither the backend's wait nor a callback", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits quiet(true);
    cl_int result = waitWhile(f, [&] { return hetero::backend::waitFor(&f.event); }, [&] { f.status = CL_COMPLETE; });
    CHECK(result == CL_SUCCESS);
    CHECK(f.backendWaits == 0);
    CHECK(f.callbacksSet == 0);
    CHECK(f.flushes == 0);
}

TEST_CASE("a quiet wait for a command still queued goes on as the backend's own", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits quiet(true);
    f.status = CL_QUEUED;  // never flushed: only clWaitForEvents' flush would start it
    std::atomic<bool> returned{false};
    std::thread waiter([&] {
        CHECK(hetero::backend::waitFor(&f.event) == CL_SUCCESS);
        returned = true;
    });
    for (int i = 0; i < 200 && !returned; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(returned.load());
    f.status = CL_COMPLETE;  // ends a wait that polled on instead
    waiter.join();
    CHECK(f.backendWaits == 1);
}

TEST_CASE("a quiet wait goes on as the backend's own once the last holder lets go", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits first(true), second(true);
    cl_int result = waitWhile(f, [&] { return hetero::backend::waitFor(&f.event); }, [&] {
        first.release();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        CHECK(f.backendWaits == 0);  // another holder: still quiet
        second.release();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        f.status = CL_COMPLETE;  // ends the wait either way: the count below tells how
    });
    CHECK(result == CL_SUCCESS);
    CHECK(f.backendWaits == 1);
}

TEST_CASE("a quiet wait reports a failed command as clWaitForEvents does", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits quiet(true);
    cl_int result = waitWhile(f, [&] { return hetero::backend::waitFor(&f.event); }, [&] { f.status = CL_OUT_OF_RESOURCES; });
    CHECK(result == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(f.backendWaits == 0);
}

TEST_CASE("a quiet wait of a complete event returns at once", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits quiet(true);
    f.status = CL_COMPLETE;
    CHECK(hetero::backend::waitFor(&f.event) == CL_SUCCESS);
    CHECK(f.backendWaits == 0);
    CHECK(f.statusQueries == 1);
}

TEST_CASE("a quiet finish waits for a marker and releases it", "[quiet_wait]") {
    Fake f;
    hetero::backend::QuietWaits quiet(true);
    cl_int result = waitWhile(f, [&] { return hetero::backend::finish(&f.queue); }, [&] { f.status = CL_COMPLETE; });
    CHECK(result == CL_SUCCESS);
    CHECK(f.markers == 1);
    CHECK(f.released == 1);
    CHECK(f.backendFinishes == 0);
    CHECK(f.callbacksSet == 0);
    CHECK(f.flushes == 1);  // the marker's queue, which the finish was asked for
}

TEST_CASE("quiet waits last while any holder lives, moved or not", "[quiet_wait]") {
    using hetero::backend::QuietWaits;
    CHECK_FALSE(hetero::backend::waitsQuiet());
    {
        QuietWaits a(true);
        QuietWaits off(false);
        CHECK(hetero::backend::waitsQuiet());
        QuietWaits b(std::move(a));
        a.release();  // moved from: holds nothing
        CHECK(hetero::backend::waitsQuiet());
        b = std::move(off);
        CHECK_FALSE(hetero::backend::waitsQuiet());
    }
    CHECK_FALSE(hetero::backend::waitsQuiet());
}
