// An event whose completion work that goes on after its backend event holds back (a split
// launch's CPU side: platform/engine/event_tail.hpp), without a device: it completes once that
// tail has finished, whoever asks first. Tail::finish runs the calls waiting on it one by one, so
// an event the same tail held and that depends on this one (a marker after a split launch) may be
// completed, and seen complete by the application, before this event's own call comes.
#include "platform/engine/event.hpp"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace hetero
