// Kernel launches handed to a thread of their own, which makes the backend calls in order.
//
// On NVIDIA a launch's own call costs 4.5-5 us, and a launch-bound program (PolyBench's adi: 200,000
// launches of tiny kernels) is paced by it. Through Hetero the application's thread paid Hetero's
// own work on top (about 1.4 us a launch), in series. Natively, the same program whose launch calls
// one other thread makes, fed through a ring, keeps NVIDIA's pace (bench/tools/call_clock.c,
// CALL_CLOCK_ASYNC; docs/results/h100-session20): so Hetero's work on the application's thread and
// NVIDIA's on the pipe's overlap, and the program runs at the slower of the two.
//
// A pipe serves one backend queue. The thread that pushes is the one whose turn it is to submit for
// that queue (Queue::Direct), one at a time. Whatever else could observe the order of the backend
// calls waits until every pipe has made the calls pushed before it (drainPipes): every backend call
// that enqueues, flushes, finishes, sets a kernel argument or releases an object
// (backend_call.hpp's `ordered`), and a view's release (view_lock.cpp). So a launch's
// events, a marker after it, a read of what it wrote, a kernel argument set again and a buffer
// released after it all see the launch enqueued first, as if the application's thread had made it.
#pragma once

#include <CL/cl.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

namespace hetero::backend {

// How many pipes exist. Inline: every ordered backend call asks (a process without one pays a load).
inline std::atomic<unsigned> pipesLive{0};
// Waits until every pipe has made the calls pushed before this call (none on a pipe's own thread).
void drainPipesSlow();
bool onPipeThread();
inline void drainPipes() {
    if (pipesLive.load(std::memory_order_acquire) != 0) drainPipesSlow();
}

class CallPipe {
public:
    static constexpr unsigned kMaxArgs = 16;
    static constexpr size_t kValueBytes = 16;
    // One kernel argument to set before the launch: a backend memory object, or a value of at most
    // kValueBytes bytes (null: a local-memory size or a null pointer).
    struct Arg {
        cl_uint index = 0;
        size_t size = 0;
        bool isMem = false;
        bool hasValue = false;
        cl_mem mem = nullptr;
        unsigned char value[kValueBytes] = {};
    };
    struct Launch {
        cl_kernel kernel = nullptr;
        cl_uint dims = 0;
        bool hasOffset = false, hasLocal = false;
        size_t offset[3] = {}, global[3] = {}, local[3] = {};
        unsigned argCount = 0;
        Arg args[kMaxArgs];
        bool flushAfter = false;
    };

    explicit CallPipe(cl_command_queue queue);
    ~CallPipe();  // makes what is pushed, then ends its thread
    CallPipe(const CallPipe&) = delete;
    CallPipe& operator=(const CallPipe&) = delete;

    // Whether to push the next launch: not while the thread sleeps with nothing to make (a launch
    // alone after a pause is made at once by its own thread rather than wait for this one to
    // wake); it is woken then for the launches that may follow.
    bool ready();
    // The record the next push() sends, to be filled in (the ring's next free place: waits while full).
    Launch& next();
    // Sends the record next() gave.
    void push();
    // Pushes a flush after the launches pushed so far (every 16th launch without an event: queue.cpp).
    void flushAfterLast();
    // Waits until every call pushed so far was made.
    void drain();
    // Whether calls pushed are not yet made.
    bool busy() const { return made_.load(std::memory_order_acquire) != pushed_.load(std::memory_order_relaxed); }
    // The first backend error a pushed call returned (CL_SUCCESS: none), reported once.
    cl_int takeError();

private:
    friend void drainPipesSlow();
    void waitFor(uint64_t pushed) const;  // until the calls of the first `pushed` records are made
    void run();
    void make(const Launch& l);

    static constexpr unsigned kRing = 512;
    cl_command_queue queue_;
    std::unique_ptr<Launch[]> ring_;
    alignas(64) std::atomic<uint64_t> pushed_{0};  // written by the pushing thread
    alignas(64) std::atomic<uint64_t> made_{0};    // written by the pipe's thread
    alignas(64) std::atomic<bool> sleeping_{false};
    std::atomic<bool> stop_{false};
    std::atomic<bool> poked_{false};    // woken by ready(): look for launches again before sleeping
    std::atomic<unsigned> waiters_{0};  // drainPipesSlow() calls waiting on this pipe outside the registry's mutex
    std::atomic<cl_int> error_{CL_SUCCESS};
    std::mutex sleepMutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace hetero::backend
