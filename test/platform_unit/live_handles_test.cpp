// The registry behind handle validation (platform/support/live_handles.cpp), without a device:
// handles added and removed by the thousand, as a launch-heavy program's events are, in the
// orders that stress its table: erased entries in the middle of probe chains, addresses used
// again, growth while many are live.
#include "platform/support/object.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

namespace {

using namespace hetero;

// Objects with handles, kept alive by the test itself (an extra reference), so that a lookup's
// retain never deletes one.
struct Objects {
    explicit Objects(size_t n) : objects(n) {
        for (auto& o : objects) o = std::make_unique<RefCounted>();
    }
    const void* handle(size_t i) const { return objects[i].get(); }
    RefCounted* object(size_t i) const { return objects[i].get(); }
    std::vector<std::unique_ptr<RefCounted>> objects;
};

bool live(const void* handle, Kind kind) {
    if (!live_handles::holdIfLive(handle, kind)) return false;
    // The handle is the object's address here: the hold it took is dropped at once.
    static_cast<RefCounted*>(const_cast<void*>(handle))->dropHold();
    return true;
}

TEST_CASE("live handles: removed ones are refused, the others found, through growth and reuse", "[live_handles]") {
    constexpr size_t kCount = 5000;  // several times the table's first size: it grows
    Objects all(kCount);
    for (size_t i = 0; i < kCount; ++i) live_handles::add(all.handle(i), Kind::Event, all.object(i));
    for (size_t i = 0; i < kCount; ++i) REQUIRE(live(all.handle(i), Kind::Event));
    // Every other one goes: the rest sit behind erased entries on their probe chains.
    for (size_t i = 0; i < kCount; i += 2) live_handles::remove(all.handle(i));
    for (size_t i = 0; i < kCount; ++i) {
        INFO("handle " << i);
        REQUIRE(live(all.handle(i), Kind::Event) == (i % 2 == 1));
    }
    // Of the wrong kind: refused though live.
    REQUIRE_FALSE(live(all.handle(1), Kind::Mem));
    // Added while still live (behind erased entries): the entry changes, no second one appears.
    for (size_t i = 1; i < kCount; i += 2) live_handles::add(all.handle(i), Kind::Sampler, all.object(i));
    for (size_t i = 1; i < kCount; i += 2) REQUIRE(live(all.handle(i), Kind::Sampler));
    for (size_t i = 1; i < kCount; i += 2) REQUIRE_FALSE(live(all.handle(i), Kind::Event));
    for (size_t i = 1; i < kCount; i += 2) live_handles::remove(all.handle(i));
    for (size_t i = 1; i < kCount; i += 2) {
        INFO("handle " << i);
        REQUIRE_FALSE(live(all.handle(i), Kind::Sampler));
        REQUIRE_FALSE(live(all.handle(i), Kind::Event));
    }
    for (size_t i = 1; i < kCount; i += 2) live_handles::add(all.handle(i), Kind::Event, all.object(i));
    // Added again (an address used again by a later object): found again, once; removed once, gone.
    for (size_t i = 0; i < kCount; i += 2) live_handles::add(all.handle(i), Kind::Mem, all.object(i));
    for (size_t i = 0; i < kCount; ++i) REQUIRE(live(all.handle(i), i % 2 == 0 ? Kind::Mem : Kind::Event));
    for (size_t i = 0; i < kCount; ++i) live_handles::remove(all.handle(i));
    for (size_t i = 0; i < kCount; ++i) REQUIRE_FALSE(live(all.handle(i), i % 2 == 0 ? Kind::Mem : Kind::Event));
}

TEST_CASE("live handles: one address added and removed many times among live ones", "[live_handles]") {
    // What a loop of launches with events does: the allocator hands the same address to every
    // next event, while other objects stay registered around it.
    Objects stay(300), churn(1);
    for (size_t i = 0; i < stay.objects.size(); ++i) live_handles::add(stay.handle(i), Kind::Kernel, stay.object(i));
    for (int round = 0; round < 20000; ++round) {
        live_handles::add(churn.handle(0), Kind::Event, churn.object(0));
        REQUIRE(live(churn.handle(0), Kind::Event));
        live_handles::remove(churn.handle(0));
        REQUIRE_FALSE(live(churn.handle(0), Kind::Event));
    }
    for (size_t i = 0; i < stay.objects.size(); ++i) REQUIRE(live(stay.handle(i), Kind::Kernel));
    for (size_t i = 0; i < stay.objects.size(); ++i) live_handles::remove(stay.handle(i));
    REQUIRE_FALSE(live(nullptr, Kind::Event));
}

TEST_CASE("live handles: lookups on several threads while others add and remove", "[live_handles]") {
    // Lookups share the registry's lock while adds and removes take it alone: the table is
    // rebuilt now and then (grown, or cleared of erased entries), and a lookup that ran meanwhile
    // would miss handles that never went away.
    constexpr size_t kPerWriter = 8 * 3000;  // new addresses all along: erased entries pile up
    Objects stay(200);
    for (size_t i = 0; i < stay.objects.size(); ++i) live_handles::add(stay.handle(i), Kind::Kernel, stay.object(i));
    // A race: each repetition is another chance to catch one.
    for (int repeat = 0; repeat < 4; ++repeat) {
        Objects churn(2 * kPerWriter);
        std::atomic<bool> writing{true};
        std::atomic<int> readersStarted{0};
        std::atomic<size_t> missed{0}, lookups{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&] {
                ++readersStarted;
                // At least a few passes, however the threads are scheduled.
                for (size_t pass = 0; writing.load() || pass < 3; ++pass)
                    for (size_t i = 0; i < stay.objects.size(); ++i) {
                        if (!live(stay.handle(i), Kind::Kernel)) ++missed;
                        ++lookups;
                    }
            });
        for (int t = 0; t < 2; ++t)
            threads.emplace_back([&, t] {
                while (readersStarted.load() < 2) std::this_thread::yield();
                // Each writer its own handles, 3000 at a time: added, then removed.
                for (size_t first = t * kPerWriter; first < (t + 1) * kPerWriter; first += 3000) {
                    for (size_t i = first; i < first + 3000; ++i)
                        live_handles::add(churn.handle(i), Kind::Event, churn.object(i));
                    for (size_t i = first; i < first + 3000; ++i) live_handles::remove(churn.handle(i));
                }
            });
        threads[2].join();
        threads[3].join();
        writing = false;
        threads[0].join();
        threads[1].join();
        REQUIRE(missed.load() == 0);
        REQUIRE(lookups.load() >= 2 * 3 * stay.objects.size());
        for (size_t i = 0; i < churn.objects.size(); ++i) REQUIRE_FALSE(live(churn.handle(i), Kind::Event));
    }
    for (size_t i = 0; i < stay.objects.size(); ++i) live_handles::remove(stay.handle(i));
}

}  // namespace
