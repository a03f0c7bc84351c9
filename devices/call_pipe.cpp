#include "devices/call_pipe.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "platform/support/spin_wait.hpp"
#include "platform/support/thread_name.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace hetero::backend {
namespace {

// A pipe's own calls never wait for the pipes (they are what the others wait for).
thread_local bool pipeThread = false;

struct Registry {
    std::mutex mutex;
    std::vector<CallPipe*> pipes;
};
// Never destroyed: pipes may go while the process exits.
Registry& registry() {
    static Registry* r = new Registry;
    return *r;
}

// How long the pipe's thread looks for more work before it sleeps: launches of a loop come a few
// microseconds apart, and waking a sleeping thread costs more than that.
constexpr auto kSpinBeforeSleep = std::chrono::microseconds(200);

// HETERO_TEST_PIPE_DELAY_US=<n> (tests only): the pipe's thread waits up to n us (varying) before
// each launch it makes, so that the application's thread runs ahead and anything that did not wait
// for the pipe sees the launch missing.
unsigned testDelayUs() {
    static const unsigned us = [] {
        auto v = config::get("HETERO_TEST_PIPE_DELAY_US", "test_pipe_delay_us");
        return v ? static_cast<unsigned>(std::strtoul(v->c_str(), nullptr, 10)) : 0u;
    }();
    return us;
}

}  // namespace

bool onPipeThread() { return pipeThread; }

void drainPipesSlow() {
    if (pipeThread) return;
    // What each busy pipe had been given, taken under the registry's mutex; the waits happen
    // outside it (a pipe made meanwhile, by a callback on a pipe's thread say, must not wait for
    // them), the pipes held by their waiter counts until then (~CallPipe waits for none).
    constexpr size_t kMost = 16;
    struct Wait {
        CallPipe* pipe;
        uint64_t pushed;
    } waits[kMost];
    size_t count = 0;
    Registry& r = registry();
    {
        std::lock_guard lock(r.mutex);
        for (CallPipe* p : r.pipes) {
            if (!p->busy()) continue;
            if (count == kMost) {  // more busy pipes than that: the rest waited for under the mutex
                p->drain();
                continue;
            }
            p->waiters_.fetch_add(1, std::memory_order_acq_rel);
            waits[count++] = {p, p->pushed_.load(std::memory_order_acquire)};
        }
    }
    for (size_t i = 0; i < count; ++i) {
        waits[i].pipe->waitFor(waits[i].pushed);
        waits[i].pipe->waiters_.fetch_sub(1, std::memory_order_acq_rel);
    }
}

CallPipe::CallPipe(cl_command_queue queue) : queue_(queue), ring_(new Launch[kRing]) {
    // A program may return from main right after its last launch, with no wait: its launches are
    // made before the exit-time destructors (the backends' among them) run, as they would have
    // been by its own thread. Registered after the backends were loaded, so it runs before theirs.
    static std::once_flag atExit;
    std::call_once(atExit, [] { std::atexit(drainPipesSlow); });
    thread_ = std::thread([this] {
        nameThisThread("hetero pipe");
        run();
    });
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.pipes.push_back(this);
    pipesLive.fetch_add(1, std::memory_order_acq_rel);
}

CallPipe::~CallPipe() {
    {
        Registry& r = registry();
        std::lock_guard lock(r.mutex);
        r.pipes.erase(std::find(r.pipes.begin(), r.pipes.end(), this));
        pipesLive.fetch_sub(1, std::memory_order_acq_rel);
    }
    drain();
    // Threads that took this pipe from the registry before it left may still be waiting on it.
    unsigned spins = 0;
    while (waiters_.load(std::memory_order_acquire) != 0) spinPause(spins);
    stop_.store(true);
    {
        std::lock_guard lock(sleepMutex_);
        wake_.notify_one();
    }
    thread_.join();
}

CallPipe::Launch& CallPipe::next() {
    const uint64_t at = pushed_.load(std::memory_order_relaxed);
    if (at >= kRing) waitFor(at - kRing + 1);  // a full ring: until its oldest record's calls are made
    Launch& l = ring_[at % kRing];
    l.kernel = nullptr;
    l.argCount = 0;
    l.flushAfter = false;
    return l;
}

bool CallPipe::ready() {
    if (!sleeping_.load(std::memory_order_seq_cst) || busy()) return true;
    std::lock_guard lock(sleepMutex_);
    poked_.store(true);
    wake_.notify_one();
    return false;
}

void CallPipe::push() {
    pushed_.fetch_add(1, std::memory_order_seq_cst);
    if (sleeping_.load(std::memory_order_seq_cst)) {
        std::lock_guard lock(sleepMutex_);
        wake_.notify_one();
    }
}

void CallPipe::flushAfterLast() {
    next().flushAfter = true;  // a record without a kernel: only the flush
    push();
}

void CallPipe::drain() { waitFor(pushed_.load(std::memory_order_acquire)); }

void CallPipe::waitFor(uint64_t pushed) const {
    unsigned spins = 0;
    while (made_.load(std::memory_order_acquire) < pushed) spinPause(spins);
}

cl_int CallPipe::takeError() { return error_.exchange(CL_SUCCESS); }

void CallPipe::run() {
    pipeThread = true;
    const unsigned delayUs = testDelayUs();
    unsigned delayStep = 0;
    for (;;) {
        const uint64_t at = made_.load(std::memory_order_relaxed);
        if (pushed_.load(std::memory_order_acquire) == at) {
            if (stop_.load()) return;
            const auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
            bool more = false;
            for (unsigned spins = 0; !more && std::chrono::steady_clock::now() < until;) {
                spinPause(spins);
                more = pushed_.load(std::memory_order_acquire) != at;
            }
            if (more) continue;
            std::unique_lock lock(sleepMutex_);
            sleeping_.store(true, std::memory_order_seq_cst);
            wake_.wait(lock, [&] { return pushed_.load(std::memory_order_seq_cst) != at || stop_.load() || poked_.load(); });
            poked_.store(false);
            sleeping_.store(false, std::memory_order_seq_cst);
            continue;
        }
        const Launch& l = ring_[at % kRing];
        if (delayUs && l.kernel) std::this_thread::sleep_for(std::chrono::microseconds(delayStep++ % (delayUs + 1)));
        make(l);
        made_.store(at + 1, std::memory_order_release);
    }
}

void CallPipe::make(const Launch& l) {
    cl_int err = CL_SUCCESS;
    if (l.kernel) {
        for (unsigned i = 0; i < l.argCount && err == CL_SUCCESS; ++i) {
            const Arg& a = l.args[i];
            err = a.isMem ? setArg(l.kernel, a.index, a.mem) : setArg(l.kernel, a.index, a.size, a.hasValue ? a.value : nullptr);
        }
        if (err == CL_SUCCESS)
            err = enqueueKernel(queue_, l.kernel, l.dims, l.hasOffset ? l.offset : nullptr, l.global,
                                l.hasLocal ? l.local : nullptr, {}, nullptr);
    }
    if (l.flushAfter && err == CL_SUCCESS) err = flush(queue_);
    if (err != CL_SUCCESS) {
        cl_int none = CL_SUCCESS;
        if (error_.compare_exchange_strong(none, err))
            HETERO_LOG(Error, "a launch made by the submitting thread failed (%d): the queue's next finish reports it", err);
    }
}

}  // namespace hetero::backend
