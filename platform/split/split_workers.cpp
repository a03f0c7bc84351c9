#include "platform/split/split_workers.hpp"
#include "platform/support/thread_name.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace hetero {
namespace {

struct Workers {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> jobs;
    size_t free = 0;  // workers not running a job (waiting, or on their way to take one)

    void loop() {
        std::unique_lock lock(mutex);
        for (;;) {
            wake.wait(lock, [&] { return !jobs.empty(); });
            std::function<void()> job = std::move(jobs.front());
            jobs.pop_front();
            --free;
            lock.unlock();
            job();
            job = nullptr;  // what it held goes before the worker counts as free
            lock.lock();
            ++free;
        }
    }
};

// Never destroyed: workers wait on it until the process ends.
Workers& workers() {
    static Workers* w = new Workers;
    return *w;
}

}  // namespace

void runOnSplitWorker(std::function<void()> job) {
    Workers& w = workers();
    bool start = false;
    {
        std::lock_guard lock(w.mutex);
        w.jobs.push_back(std::move(job));
        // Every job waiting has a free worker to take it: else one more.
        if (w.free < w.jobs.size()) {
            ++w.free;
            start = true;
        }
    }
    if (start) std::thread([&w] {
        nameThisThread("hetero split");
        w.loop();
    }).detach();
    w.wake.notify_one();
}

}  // namespace hetero
