#include "large_stack.hpp"

#include <pthread.h>

#include <exception>

namespace hetero::transform::detail {

namespace {

constexpr size_t kStackBytes = size_t(64) << 20;

struct Job {
    const std::function<void()>* work;
    std::exception_ptr error;
};

void* runJob(void* arg) {
    auto* job = static_cast<Job*>(arg);
    try {
        (*job->work)();
    } catch (...) {
        job->error = std::current_exception();
    }
    return nullptr;
}

}  // namespace

void runWithLargeStack(const std::function<void()>& work) {
    Job job{&work, nullptr};
    pthread_attr_t attr;
    pthread_t thread;
    bool started = false;
    if (pthread_attr_init(&attr) == 0) {
        started = pthread_attr_setstacksize(&attr, kStackBytes) == 0 && pthread_create(&thread, &attr, runJob, &job) == 0;
        pthread_attr_destroy(&attr);
    }
    if (!started) {
        work();
        return;
    }
    pthread_join(thread, nullptr);
    if (job.error) std::rethrow_exception(job.error);
}

}  // namespace hetero::transform::detail
