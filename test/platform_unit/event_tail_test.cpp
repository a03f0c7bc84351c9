// An event whose completion work that goes on after its backend event holds back (a split
// launch's CPU side: platform/engine/event_tail.hpp), without a device: it completes once that
// tail has finished, whoever asks first. Tail::finish runs the calls waiting on it one by one, so
// an event the same tail held and that depends on this one (a marker after a split launch) may be
// completed, and seen complete by the application, before this event's own call comes.
#include "platform/engine/event.hpp"

#include "devices/backend_commands.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

namespace hetero {
namespace {

Ref<Event> commandEvent() { return Ref<Event>(new Event(nullptr, nullptr, CL_COMMAND_NDRANGE_KERNEL), /*adopt=*/true); }

TEST_CASE("an event held by a tail waits for it, then completes whoever asks first", "[event]") {
    auto tail = std::make_shared<Tail>();
    Ref<Event> launch = commandEvent();
    launch->addTails({tail});
    // A dependent's completion runs from the tail before the launch's own call (registered first).
    bool seenComplete = false;
    tail->whenFinished([&] {
        Ref<Event> marker = commandEvent();
        marker->complete(CL_COMPLETE);
        // The application, woken by the marker, asks about the launch: the tail is over.
        launch->complete(CL_COMPLETE);
        seenComplete = launch->knownComplete();
    });
    launch->complete(CL_COMPLETE);  // its backend event is done, its tail is not: held
    CHECK_FALSE(launch->knownComplete());
    tail->finish();
    CHECK(seenComplete);
    CHECK(launch->knownComplete());
}

TEST_CASE("a tail runs the calls for its near end once: at once when it is near, never once it finished", "[event]") {
    auto tail = std::make_shared<Tail>();
    int early = 0, late = 0, dropped = 0;
    tail->whenNearlyFinished([&] { ++early; });
    CHECK_FALSE(tail->isNearlyFinished());
    CHECK(early == 0);
    tail->nearlyFinished();
    CHECK(tail->isNearlyFinished());
    CHECK(early == 1);
    tail->whenNearlyFinished([&] { ++late; });  // already near: at once
    CHECK(late == 1);
    tail->nearlyFinished();  // again: nothing waits any more
    CHECK(early == 1);
    tail->finish();
    CHECK(early == 1);
    CHECK(late == 1);

    auto other = std::make_shared<Tail>();
    other->whenNearlyFinished([&] { ++dropped; });
    other->finish();  // never nearly finished: the call is dropped, and later ones too
    other->whenNearlyFinished([&] { ++dropped; });
    CHECK(other->isNearlyFinished());
    CHECK(dropped == 0);
}

double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// A waiter on an event held by `tail`: its wait's result and the core time the wait took.
struct Waiter {
    std::atomic<cl_int> status{1};
    std::atomic<double> cpuSeconds{-1};
    std::thread thread;
    explicit Waiter(Ref<Event> event) {
        thread = std::thread([this, event] {
            const double start = threadCpuSeconds();
            status = event->wait();
            cpuSeconds = threadCpuSeconds() - start;
        });
    }
    ~Waiter() {
        if (thread.joinable()) thread.join();
    }
};

TEST_CASE("a wait held by a tail watches awake only from the tail's near end, and not for long", "[event]") {
    const bool quiet = GENERATE(false, true);  // a split's CPU side running elsewhere: no watching
    INFO("another split's CPU side runs: " << quiet);
    backend::QuietWaits cpuSide(quiet);
    auto tail = std::make_shared<Tail>();
    Ref<Event> launch = commandEvent();
    launch->addTails({tail});
    launch->complete(CL_COMPLETE);  // its backend event is done, its tail is not: held
    Waiter waiter(launch);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // the tail's long part: asleep
    CHECK(waiter.status == 1);
    tail->nearlyFinished();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // longer than any watch lasts
    CHECK(waiter.status == 1);
    tail->finish();
    waiter.thread.join();
    CHECK(waiter.status == CL_COMPLETE);
    CHECK(launch->knownComplete());
    // Awake at most Event::wait's 2 ms after the near end, asleep before and after (and throughout
    // while another split's CPU side needs the cores).
    CHECK(waiter.cpuSeconds < (quiet ? 0.001 : 0.008));
}

}  // namespace
}  // namespace hetero
