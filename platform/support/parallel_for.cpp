#include "platform/support/parallel_for.hpp"
#include "platform/support/thread_name.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace hetero {
namespace {

// One parallelFor call: its indices are taken one at a time by the caller and the workers.
struct Batch {
    const std::function<void(unsigned)>* body;
    unsigned count;
    unsigned next = 1;      // index 0 is the caller's
    unsigned finished = 0;  // calls returned (all under Pool::mutex)
};

struct Pool {
    std::mutex mutex;
    std::condition_variable work, done;
    std::deque<Batch*> batches;  // with indices left to take
    unsigned started = 0;

    // Takes an index of the oldest batch with one left (mutex held); null when there is none.
    Batch* take(unsigned& index) {
        while (!batches.empty()) {
            Batch* b = batches.front();
            if (b->next < b->count) {
                index = b->next++;
                if (b->next == b->count) batches.pop_front();
                return b;
            }
            batches.pop_front();
        }
        return nullptr;
    }

    void run(Batch* b, unsigned index, std::unique_lock<std::mutex>& lock) {
        lock.unlock();
        (*b->body)(index);
        lock.lock();
        if (++b->finished == b->count) done.notify_all();
    }

    void loop() {
        std::unique_lock lock(mutex);
        for (;;) {
            unsigned index = 0;
            Batch* b = take(index);
            if (!b) {
                work.wait(lock);
                continue;
            }
            run(b, index, lock);
        }
    }
};

Pool& pool() {
    static Pool* p = new Pool;  // never destroyed: its workers wait on it until the process ends
    return *p;
}

}  // namespace

unsigned parallelThreads() {
    static const unsigned n = std::clamp(std::thread::hardware_concurrency() / 2, 2u, 8u);
    return n;
}

void parallelFor(unsigned count, const std::function<void(unsigned)>& body) {
    if (count == 0) return;
    if (count == 1) return body(0);
    Pool& p = pool();
    Batch batch{&body, count};
    std::unique_lock lock(p.mutex);
    // Enough workers for this batch alone; batches of other callers take turns with it.
    while (p.started < std::min(count - 1, parallelThreads())) {
        std::thread([&p] {
            nameThisThread("hetero parallel");
            p.loop();
        }).detach();
        ++p.started;
    }
    p.batches.push_back(&batch);
    p.work.notify_all();
    // The caller does index 0, then helps with its own batch's rest.
    p.run(&batch, 0, lock);
    unsigned index = 0;
    while (batch.next < batch.count) {
        index = batch.next++;
        if (batch.next == batch.count)
            p.batches.erase(std::remove(p.batches.begin(), p.batches.end(), &batch), p.batches.end());
        p.run(&batch, index, lock);
    }
    p.done.wait(lock, [&] { return batch.finished == batch.count; });
}

void copyBypassingCaches(void* to, const void* from, size_t bytes) {
#if defined(__x86_64__)
    auto* d = static_cast<unsigned char*>(to);
    const auto* s = static_cast<const unsigned char*>(from);
    const size_t head = std::min(bytes, (16 - (reinterpret_cast<uintptr_t>(d) & 15)) & 15);
    std::memcpy(d, s, head);
    d += head, s += head, bytes -= head;
    for (; bytes >= 64; d += 64, s += 64, bytes -= 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 32));
        const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 48));
        _mm_stream_si128(reinterpret_cast<__m128i*>(d), a);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i*>(d + 48), e);
    }
    std::memcpy(d, s, bytes);
    _mm_sfence();
#else
    std::memcpy(to, from, bytes);
#endif
}

namespace {

// `copy` over [0, bytes), by parallelFor's threads from 4 MiB on (each taking at least 2 MiB).
void copyInPieces(void* to, const void* from, size_t bytes, void (*copy)(void*, const void*, size_t)) {
    constexpr size_t kFrom = size_t{4} << 20, kLeast = size_t{2} << 20, kAlign = 4096;
    const unsigned threads = bytes < kFrom ? 1 : static_cast<unsigned>(std::min<size_t>(parallelThreads(), bytes / kLeast));
    if (threads <= 1) {
        copy(to, from, bytes);
        return;
    }
    const size_t per = (bytes / threads + kAlign - 1) / kAlign * kAlign;
    parallelFor(threads, [&](unsigned i) {
        const size_t first = std::min(bytes, i * per), end = std::min(bytes, first + per);
        copy(static_cast<unsigned char*>(to) + first, static_cast<const unsigned char*>(from) + first, end - first);
    });
}

void plainCopy(void* to, const void* from, size_t bytes) { std::memcpy(to, from, bytes); }

}  // namespace

void copyInParallel(void* to, const void* from, size_t bytes) { copyInPieces(to, from, bytes, plainCopy); }

void copyForTransfer(void* to, const void* from, size_t bytes) { copyInPieces(to, from, bytes, copyBypassingCaches); }

}  // namespace hetero
