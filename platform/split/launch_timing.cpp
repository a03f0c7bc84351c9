#include "platform/split/launch_timing.hpp"

#include "devices/backend_commands.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <vector>

namespace hetero {

namespace {

struct PendingTiming {
    backend::Event done;
    std::string kernel;
    LaunchSize size;
};

std::mutex pendingMutex;
std::vector<PendingTiming> pending;       // guarded by pendingMutex
std::atomic<unsigned> pendingCount{0};    // pending.size(), read without the lock
std::atomic<int64_t> lastPoll{0};  // steady-clock nanoseconds

// Seconds the launch ran on the device; negative when it failed or its times cannot be read.
double deviceSeconds(cl_event done, cl_int status) {
    if (status != CL_COMPLETE) return -1;
    cl_ulong start = 0, end = 0;
    if (backend::profilingTime(done, CL_PROFILING_COMMAND_START, &start) != CL_SUCCESS ||
        backend::profilingTime(done, CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS || end < start)
        return -1;
    return double(end - start) * 1e-9;
}

}  // namespace

void timeWholeLaunch(cl_event done, const std::string& kernel, const LaunchSize& size) {
    backend::Event held = backend::Event::retained(done);
    std::lock_guard lock(pendingMutex);
    pending.push_back({std::move(held), kernel, size});
    pendingCount.store(static_cast<unsigned>(pending.size()), std::memory_order_relaxed);
}

void pollLaunchTimings(bool now) {
    if (pendingCount.load(std::memory_order_relaxed) == 0) return;
    // A status query costs a backend call (about a microsecond on NVIDIA): ask at most every
    // 100 us, which spares launch-heavy programs and delays a long launch's timing by nothing.
    const int64_t at = std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now().time_since_epoch()).count();
    int64_t last = lastPoll.load(std::memory_order_relaxed);
    if (!now && (at - last < 100000 || !lastPoll.compare_exchange_strong(last, at))) return;
    std::vector<PendingTiming> heard;
    std::vector<cl_int> statuses;
    {
        std::lock_guard lock(pendingMutex);
        for (size_t i = 0; i < pending.size();) {
            cl_int status = CL_QUEUED;
            if (backend::eventStatus(pending[i].done.get(), &status) != CL_SUCCESS) status = CL_INVALID_EVENT;
            if (status > CL_COMPLETE) {
                ++i;
                continue;
            }
            heard.push_back(std::move(pending[i]));
            statuses.push_back(status);
            pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
        }
        pendingCount.store(static_cast<unsigned>(pending.size()), std::memory_order_relaxed);
    }
    for (size_t i = 0; i < heard.size(); ++i) {
        SplitHistory::instance().recordWhole(heard[i].kernel, heard[i].size, deviceSeconds(heard[i].done.get(), statuses[i]));
        heard[i].done.reset();
    }
}

}  // namespace hetero
