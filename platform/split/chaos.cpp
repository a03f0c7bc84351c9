#include "platform/split/chaos.hpp"

#include "devices/backend_commands.hpp"

#include "platform/support/config.hpp"

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

namespace {
// The value n of a knob asking for something at every n-th time (0: never).
unsigned everyKnob(const char* name, const char* key) {
    auto v = config::get(name, key);
    return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 0u;
}
bool nth(unsigned every, std::atomic<unsigned>& calls) { return every > 0 && (calls.fetch_add(1) + 1) % every == 0; }
}  // namespace

bool failChunk() {
    static const unsigned every = everyKnob("HETERO_TEST_SPLIT_FAIL_EVERY", "test_split_fail_every");
    static std::atomic<unsigned> chunks{0};
    return nth(every, chunks);
}

bool failBring() {
    static const unsigned nth = everyKnob("HETERO_TEST_SPLIT_FAIL_BRING", "test_split_fail_bring");
    static std::atomic<unsigned> brings{0};
    return nth > 0 && brings.fetch_add(1) + 1 == nth;
}

std::thread openLater(cl_event gate) {
    const unsigned wait = below(30000);
    return std::thread([opens = backend::Event::retained(gate), wait]() mutable {
        std::this_thread::sleep_for(std::chrono::microseconds(wait));
        backend::complete(opens.get(), CL_COMPLETE);
        opens.reset();
    });
}

backend::Event holdBack(cl_context context, std::vector<cl_event>& wait, std::thread& opener) {
    if (!on()) return {};
    backend::Event gate = backend::userEvent(context);
    if (gate) {
        wait.push_back(gate.get());
        opener = openLater(gate.get());
    }
    return gate;
}

bool failMergeAhead() {
    static const bool on = everyKnob("HETERO_TEST_SPLIT_FAIL_MERGE_AHEAD", "test_split_fail_merge_ahead") > 0;
    return on;
}

bool gpuAfterCpu() {
    static const bool on = everyKnob("HETERO_TEST_SPLIT_GPU_AFTER_CPU", "test_split_gpu_after_cpu") > 0;
    return on;
}

bool cpuIdle() {
    static const bool on = everyKnob("HETERO_TEST_SPLIT_CPU_IDLE", "test_split_cpu_idle") > 0;
    return on;
}

bool giveUp() {
    static const unsigned every = everyKnob("HETERO_TEST_SPLIT_GIVE_UP_EVERY", "test_split_give_up_every");
    static std::atomic<unsigned> launches{0};
    return nth(every, launches);
}

void delay(unsigned maxMicroseconds) {
    if (on()) std::this_thread::sleep_for(std::chrono::microseconds(below(maxMicroseconds)));
}

}  // namespace hetero::chaos
