// The workers that run split launches' CPU sides (platform/split/split_workers.hpp).
#include "platform/split/split_workers.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace hetero;

namespace {
struct Flag {
    std::mutex mutex;
    std::condition_variable cv;
    bool set = false;
    void raise() {
        { std::lock_guard lock(mutex); set = true; }
        cv.notify_all();
    }
    bool waitFor(std::chrono::milliseconds limit) {
        std::unique_lock lock(mutex);
        return cv.wait_for(lock, limit, [&] { return set; });
    }
};
}  // namespace

TEST_CASE("a split worker's job never waits for another job to end", "[split_workers]") {
    // A launch's CPU side may wait for an earlier launch's: each job needs a thread of its own.
    auto first = std::make_shared<Flag>(), second = std::make_shared<Flag>(), firstDone = std::make_shared<Flag>();
    runOnSplitWorker([=] {
        first->raise();
        if (second->waitFor(std::chrono::seconds(10))) firstDone->raise();
    });
    REQUIRE(first->waitFor(std::chrono::seconds(10)));
    runOnSplitWorker([=] { second->raise(); });
    CHECK(firstDone->waitFor(std::chrono::seconds(10)));
}

TEST_CASE("split workers run every job, from several threads at once", "[split_workers]") {
    std::atomic<int> ran{0};
    std::thread callers[4];
    for (auto& t : callers)
        t = std::thread([&] {
            for (int i = 0; i < 200; ++i) runOnSplitWorker([&] { ++ran; });
        });
    for (auto& t : callers) t.join();
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (ran.load() < 800 && std::chrono::steady_clock::now() < limit) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(ran.load() == 800);
}
