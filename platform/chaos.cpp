#include "platform/chaos.hpp"

#include "platform/config.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

namespace hetero::chaos {
namespace {
struct State {
    bool on = false;
    std::mutex mutex;
    std::mt19937 rng;
};
State& state() {
    static State* s = [] {
        auto* st = new State;  // never destroyed: engine threads may use it during exit
        if (auto seed = config::get("HETERO_TEST_SPLIT_CHAOS", "test_split_chaos")) {
            st->on = true;
            st->rng.seed(static_cast<unsigned>(std::strtoul(seed->c_str(), nullptr, 10)));
        }
        return st;
    }();
    return *s;
}
}  // namespace

bool on() { return state().on; }

unsigned below(unsigned n) {
    State& s = state();
    std::lock_guard lock(s.mutex);
    return n ? s.rng() % n : 0;
}

bool failChunk() {
    static const unsigned every = [] {
        auto v = config::get("HETERO_TEST_SPLIT_FAIL_EVERY", "test_split_fail_every");
        return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 0u;
    }();
    static std::atomic<unsigned> chunks{0};
    return every > 0 && (chunks.fetch_add(1) + 1) % every == 0;
}

void delay(unsigned maxMicroseconds) {
    if (on()) std::this_thread::sleep_for(std::chrono::microseconds(below(maxMicroseconds)));
}

}  // namespace hetero::chaos
