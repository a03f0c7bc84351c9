#include "platform/engine/backend_clock.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/engine/event.hpp"
#include "platform/support/log.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>

namespace hetero::backend_clock {
namespace {

constexpr unsigned kMaxSlots = 64;
enum State : int { Unknown = 0, Known = 1, Failed = -1 };

struct Clock {
    std::atomic<int> state{Unknown};
    int64_t offset = 0;  // host = device + offset; written before state becomes Known
};

Clock clocks[kMaxSlots];
std::mutex calibrating;

// One sample: the host times around a profiled marker and the device time at which it ended.
// The marker ended somewhere between them; `width` says how closely.
bool sample(cl_command_queue q, int64_t& offset, cl_ulong& width) {
    const cl_ulong before = hostNanoseconds();
    backend::Event marker;
    if (backend::enqueueMarker(q, {}, marker.receive()) != CL_SUCCESS) return false;
    cl_int waited = backend::waitFor(marker.get());
    const cl_ulong after = hostNanoseconds();
    cl_ulong end = 0;
    cl_int read = backend::profilingTime(marker.get(), CL_PROFILING_COMMAND_END, &end);
    marker.reset();
    if (waited != CL_SUCCESS || read != CL_SUCCESS || end == 0) return false;
    offset = static_cast<int64_t>(before + (after - before) / 2) - static_cast<int64_t>(end);
    width = after - before;
    return true;
}

}  // namespace

void calibrate(unsigned slot, cl_context context, cl_device_id device) {
    if (slot >= kMaxSlots || clocks[slot].state.load(std::memory_order_acquire) != Unknown) return;
    std::lock_guard lock(calibrating);
    Clock& clock = clocks[slot];
    if (clock.state.load(std::memory_order_relaxed) != Unknown) return;
    backend::Queue q = backend::queue(context, device, CL_QUEUE_PROFILING_ENABLE);
    bool ok = bool(q);
    cl_ulong best = ~cl_ulong(0);
    // The narrowest of a few samples (the first pays for the queue's start).
    for (int i = 0; ok && i < 5; ++i) {
        int64_t offset = 0;
        cl_ulong width = 0;
        ok = sample(q.get(), offset, width);
        if (ok && width < best) {
            best = width;
            clock.offset = offset;
        }
    }
    q.reset();
    if (const char* skew = std::getenv("HETERO_TEST_CLOCK_SKEW_US")) clock.offset += std::atoll(skew) * 1000;
    if (!ok) HETERO_LOG(Info, "slot %u: device times cannot be placed on the host clock; profiled commands are timed on completion", slot);
    clock.state.store(ok ? Known : Failed, std::memory_order_release);
}

bool known(unsigned slot) {
    return slot < kMaxSlots && clocks[slot].state.load(std::memory_order_acquire) == Known;
}

cl_ulong toHost(unsigned slot, cl_ulong deviceNs) {
    return static_cast<cl_ulong>(static_cast<int64_t>(deviceNs) + clocks[slot].offset);
}

}  // namespace hetero::backend_clock
