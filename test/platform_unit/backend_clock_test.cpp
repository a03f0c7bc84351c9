// Where a profiled command's device times land on the host clock (platform/engine/backend_clock.hpp).
#include "platform/engine/backend_clock.hpp"

#include <catch2/catch.hpp>

using hetero::backend_clock::place;

TEST_CASE("placed device times: inside the window they stay where the device put them", "[backend_clock]") {
    const auto t = place(100, 200, 1000, 300, 700);
    CHECK(t.submitted == 200);
    CHECK(t.start == 300);
    CHECK(t.end == 700);
}

TEST_CASE("placed device times: an interval placed early or late moves whole, its duration kept", "[backend_clock]") {
    // Before the submission (an offset known only to half a marker's wait): moved to start there.
    auto t = place(100, 200, 1000, 150, 210);
    CHECK(t.submitted == 200);
    CHECK(t.start == 200);
    CHECK(t.end == 260);
    // Wholly before it: the 66-unit command is not squashed to nothing.
    t = place(100, 500, 1000, 300, 366);
    CHECK(t.start == 500);
    CHECK(t.end - t.start == 66);
    // After now: ends now.
    t = place(100, 200, 1000, 980, 1080);
    CHECK(t.start == 900);
    CHECK(t.end == 1000);
}

TEST_CASE("placed device times: a command longer than submitted..now began before its submission was noted",
          "[backend_clock]") {
    // 300 units of work seen 100 after the submission Hetero noted: the submission moves back.
    auto t = place(100, 800, 900, 600, 900);
    CHECK(t.end == 900);
    CHECK(t.start == 600);
    CHECK(t.submitted == 600);
    CHECK(t.end - t.start == 300);
    // Longer than the whole queued..now window: as much as fits, in order.
    t = place(100, 800, 900, 0, 2000);
    CHECK(t.submitted == 100);
    CHECK(t.start == 100);
    CHECK(t.end == 900);
}

TEST_CASE("placed device times: always in the specification's order", "[backend_clock]") {
    for (cl_ulong queued : {0, 50})
        for (cl_ulong submitted : {0, 50, 400, 1000})
            for (cl_ulong start : {0, 60, 500, 990, 5000})
                for (cl_ulong end : {0, 70, 600, 1000, 6000}) {
                    const auto t = place(queued, submitted, 1000, start, end);
                    CAPTURE(queued, submitted, start, end);
                    CHECK(queued <= t.submitted);
                    CHECK(t.submitted <= t.start);
                    CHECK(t.start <= t.end);
                    CHECK(t.end <= 1000);
                }
}
