// When a queue's launches go to its launch pipe (platform/engine/launch_run.hpp): a launch within
// 100 us of the one before is in a run; the pipe is made only once a run is eight launches long, so
// a program's few launches in a row never start a pipe thread; a pause ends the run.
#include "platform/engine/launch_run.hpp"

#include <catch2/catch.hpp>

using hetero::LaunchRun;
using namespace std::chrono_literals;

TEST_CASE("launch runs: a pipe only for eight launches in a row, each within 100 us of the one before", "[launch_run]") {
    LaunchRun run;
    LaunchRun::Clock::time_point t = LaunchRun::Clock::now();
    CHECK_FALSE(run.next(t));  // the first launch follows none
    for (int i = 1; i <= 7; ++i) {
        t += 10us;
        CHECK(run.next(t));
        CHECK_FALSE(run.longEnoughForPipe());
    }
    t += 99us;
    CHECK(run.next(t));
    CHECK(run.longEnoughForPipe());
}

TEST_CASE("launch runs: a pause ends the run, and the next one counts from its start", "[launch_run]") {
    LaunchRun run;
    LaunchRun::Clock::time_point t = LaunchRun::Clock::now();
    run.next(t);
    for (int i = 0; i < 5; ++i) run.next(t += 20us);
    CHECK_FALSE(run.next(t += 100us));  // not within 100 us: a lone launch again
    for (int i = 0; i < 7; ++i) {
        CHECK(run.next(t += 20us));
        CHECK_FALSE(run.longEnoughForPipe());
    }
    CHECK(run.next(t += 20us));
    CHECK(run.longEnoughForPipe());
    CHECK(run.longEnoughForPipe(1));
}
