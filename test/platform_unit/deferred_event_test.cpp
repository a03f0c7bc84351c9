// A deferred event (platform/engine/deferred_event.hpp) on a fake backend: it keeps the backend
// queue its marker goes to alive however it holds it, and only the one made on a bare queue takes a
// backend reference of its own (clRetainCommandQueue and clReleaseCommandQueue cost 1.5-6 us on
// NVIDIA, once per deferred event: docs/results/h200-session34); its marker is made once, on that
// queue, and released before the queue's reference is given up.
#include "devices/backend_objects.hpp"
#include "platform/engine/deferred_event.hpp"
#include "platform/support/object.hpp"  // the handles' dispatch-first layout

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

namespace {

struct Fake;
Fake* fake = nullptr;

struct Fake {
    cl_icd_dispatch table{};
    _cl_command_queue queue{};
    _cl_event marker{};
    int queueReferences = 1;  // the creator's
    std::vector<const char*> calls;
    cl_command_queue markerQueue = nullptr;

    Fake() {
        table.clRetainCommandQueue = [](cl_command_queue) -> cl_int {
            ++fake->queueReferences;
            fake->calls.push_back("retain queue");
            return CL_SUCCESS;
        };
        table.clReleaseCommandQueue = [](cl_command_queue) -> cl_int {
            --fake->queueReferences;
            fake->calls.push_back("release queue");
            return CL_SUCCESS;
        };
        table.clEnqueueMarkerWithWaitList = [](cl_command_queue q, cl_uint, const cl_event*, cl_event* done) -> cl_int {
            REQUIRE(fake->queueReferences > 0);  // the queue is alive while its marker is made
            fake->markerQueue = q;
            fake->calls.push_back("marker");
            *done = &fake->marker;
            return CL_SUCCESS;
        };
        table.clFlush = [](cl_command_queue) -> cl_int { return CL_SUCCESS; };
        table.clReleaseEvent = [](cl_event) -> cl_int {
            fake->calls.push_back("release marker");
            return CL_SUCCESS;
        };
        queue.dispatch = marker.dispatch = &table;
        fake = this;
    }
    ~Fake() { fake = nullptr; }
};

}  // namespace

TEST_CASE("deferred event: one made on the queue's shared reference keeps the queue without a reference of its own",
          "[deferred_event]") {
    Fake f;
    auto shared = std::make_shared<const hetero::backend::Queue>(&f.queue);  // adopts the creator's reference
    auto event = std::make_shared<hetero::DeferredEvent>(shared);
    CHECK(event->queue() == &f.queue);
    shared.reset();  // the Hetero queue lets go first (the application released it)
    CHECK(f.queueReferences == 1);
    CHECK(f.calls.empty());
    CHECK(event->get() == &f.marker);
    CHECK(event->get() == &f.marker);  // made once
    CHECK(f.markerQueue == &f.queue);
    event.reset();
    CHECK(f.queueReferences == 0);
    CHECK(f.calls == std::vector<const char*>{"marker", "release marker", "release queue"});
}

TEST_CASE("deferred event: one made on a bare queue holds a reference of its own", "[deferred_event]") {
    Fake f;
    {
        hetero::DeferredEvent event(&f.queue);
        CHECK(f.queueReferences == 2);
        CHECK(event.queue() == &f.queue);
        CHECK(event.get() == &f.marker);
    }
    CHECK(f.queueReferences == 1);
    CHECK(f.calls == std::vector<const char*>{"retain queue", "marker", "release marker", "release queue"});
}
