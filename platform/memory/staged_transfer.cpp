#include "platform/memory/staged_transfer.hpp"

#include "devices/backend_call.hpp"
#include "devices/backend_commands.hpp"
#include "platform/memory/pinned_pool.hpp"
#include "platform/support/error.hpp"
#include "platform/support/parallel_for.hpp"
#include "platform/support/spin_wait.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

namespace hetero {

namespace {
// A whole write through the host copy goes in pieces from 4 MiB on, a quarter of it each, from
// 1 MiB (0.02-0.1 ms to copy or send on the GPU machine, against 10-20 us for an enqueue and a
// flush) to 8 MiB: several threads take the pieces, so smaller pieces keep more of them busy (one
// H100, 4 MiB: 0.46 -> 0.28 ms, 8 MiB 0.88 -> 0.45 ms against 8 MiB pieces from 16 MiB).
constexpr size_t kPiecesFrom = size_t{4} << 20;
size_t pieceFor(size_t bytes) {
    constexpr size_t kAlign = 4096;
    return std::clamp((bytes / 4 + kAlign - 1) / kAlign * kAlign, size_t{1} << 20, size_t{8} << 20);
}
// A ring transfer waits for each piece on one thread and copies it with several: 8 MiB pieces, from
// two on (smaller ones made 8-16 MiB reads slower than direct ones on one H100).
constexpr size_t kRingPiece = size_t{8} << 20;

// What piece k of a transfer waits for: the transfer's wait list for the first piece; the others
// follow it on the same in-order backend queue (Hetero makes none out of order).
backend::WaitList waitsOfPiece(size_t k, const std::vector<cl_event>& wait) {
    return k == 0 ? backend::WaitList(wait) : backend::WaitList();
}
}  // namespace

cl_event stagedWrite(cl_command_queue queue, cl_mem to, unsigned char* staging, const void* from, size_t bytes,
                     const std::vector<cl_event>& wait, bool oneTransfer) {
    cl_event done = nullptr;
    if (bytes < kPiecesFrom || oneTransfer) {
        copyForTransfer(staging, from, bytes);
        check(backend::enqueueWrite(queue, to, 0, bytes, staging, wait, &done));
        return done;
    }
    const size_t pieceSize = pieceFor(bytes);
    const size_t pieces = (bytes + pieceSize - 1) / pieceSize;
    // The other threads copy pieces; the enqueuing thread sends each one, in order, as soon as it is
    // in (copying it itself when no other thread has taken it). Only that thread calls the backend:
    // on one H100, pieces sent from several threads made every later launch of the process slower
    // (adi 16.0 against 12.4-13.3 ms, convolution-3d 2.56 against 1.57: docs/results/h100-session19).
    std::vector<cl_event> sent(pieces, nullptr);
    std::unique_ptr<std::atomic<bool>[]> copied(new std::atomic<bool>[pieces]);
    for (size_t k = 0; k < pieces; ++k) copied[k].store(false, std::memory_order_relaxed);
    std::atomic<size_t> next{0};
    std::atomic<cl_int> failed{CL_SUCCESS};
    const auto* source = static_cast<const unsigned char*>(from);
    auto copyPiece = [&](size_t k) {
        const size_t first = k * pieceSize;
        copyBypassingCaches(staging + first, source + first, std::min(pieceSize, bytes - first));
        copied[k].store(true, std::memory_order_release);
    };
    parallelFor(static_cast<unsigned>(std::min<size_t>(pieces, parallelThreads())), [&](unsigned thread) {
        if (thread != 0) {
            for (size_t k = next++; k < pieces; k = next++) copyPiece(k);
            return;
        }
        for (size_t k = 0; k < pieces && failed.load() == CL_SUCCESS; ++k) {
            // It copies piece k itself only if no other thread has taken it: copying a later
            // piece would leave k's bytes unsent while it copies.
            for (unsigned spins = 0; !copied[k].load(std::memory_order_acquire);)
                if (size_t untaken = k; next.compare_exchange_strong(untaken, k + 1))
                    copyPiece(k);
                else
                    spinPause(spins);
            const size_t first = k * pieceSize, len = std::min(pieceSize, bytes - first);
            if (cl_int err = backend::enqueueWrite(queue, to, first, len, staging + first, waitsOfPiece(k, wait), &sent[k]);
                err != CL_SUCCESS)
                failed = err;
            else
                backend::flush(queue);
        }
    });
    cl_int err = failed.load();
    std::vector<cl_event> enqueued;
    for (cl_event e : sent)
        if (e) enqueued.push_back(e);
    if (err == CL_SUCCESS) err = backend::enqueueMarker(queue, enqueued, &done);
    if (err != CL_SUCCESS) backend::waitAll(enqueued);  // nothing reads `staging` once it throws
    backend::releaseAll(enqueued);
    check(err);
    return done;
}

bool transferStaged(size_t bytes) { return bytes >= 2 * kRingPiece; }

namespace {

// A blocking transfer between the application's memory and `mem` at `offset`, through a ring of
// pinned blocks: piece k goes through ring[k % kRing]. Writing (from `in`), each piece is copied in
// once the piece that used its block before has left, then sent; reading (into `out`), each is
// copied out once it has arrived, while the next ones arrive. Done when it returns; null when the
// pool has no ring to spare.
cl_event throughRing(cl_command_queue queue, cl_mem mem, size_t offset, const unsigned char* in, unsigned char* out,
                     size_t bytes, const std::vector<cl_event>& wait, PinnedPool& pool) {
    constexpr size_t kRing = 3;
    const size_t pieceSize = kRingPiece;
    const size_t pieces = (bytes + pieceSize - 1) / pieceSize;
    PinnedPool::Block ring = pool.take(kRing * pieceSize);
    if (!ring) return nullptr;
    std::vector<cl_event> moved(pieces, nullptr);
    auto piece = [&](size_t k) { return std::min(pieceSize, bytes - k * pieceSize); };
    auto slot = [&](size_t k) { return ring.data + (k % kRing) * pieceSize; };
    auto read = [&](size_t k) {
        check(backend::enqueueRead(queue, mem, offset + k * pieceSize, piece(k), slot(k), waitsOfPiece(k, wait), &moved[k]));
        backend::flush(queue);
    };
    size_t arrived = 0;  // pieces waited for, in order
    auto waitThrough = [&](size_t k) {
        for (; arrived <= k; ++arrived) check(backend::waitFor(moved[arrived]));
    };
    cl_int err = CL_SUCCESS;
    try {
        if (in) {
            for (size_t k = 0; k < pieces; ++k) {
                if (k >= kRing) waitThrough(k - kRing);
                copyForTransfer(slot(k), in + k * pieceSize, piece(k));
                check(backend::enqueueWrite(queue, mem, offset + k * pieceSize, piece(k), slot(k), waitsOfPiece(k, wait),
                                            &moved[k]));
                backend::flush(queue);
            }
            waitThrough(pieces - 1);
        } else {
            for (size_t k = 0; k < std::min(kRing, pieces); ++k) read(k);
            for (size_t k = 0; k < pieces; ++k) {
                waitThrough(k);
                copyInParallel(out + k * pieceSize, slot(k), piece(k));
                if (k + kRing < pieces) read(k + kRing);
            }
        }
    } catch (const Error& e) {
        err = e.code;
    }
    // The ring goes back to the pool only once nothing moves through it any more.
    std::vector<cl_event> enqueued;
    for (cl_event e : moved)
        if (e) enqueued.push_back(e);
    if (err != CL_SUCCESS) backend::waitAll(enqueued);
    cl_event last = err == CL_SUCCESS ? enqueued.back() : nullptr;
    if (last) enqueued.pop_back();
    backend::releaseAll(enqueued);
    pool.give(ring);
    check(err);
    return last;
}

}  // namespace

cl_event stagedRead(cl_command_queue queue, cl_mem from, size_t offset, void* to, size_t bytes,
                    const std::vector<cl_event>& wait, PinnedPool& pool) {
    return throughRing(queue, from, offset, nullptr, static_cast<unsigned char*>(to), bytes, wait, pool);
}

cl_event stagedBlockingWrite(cl_command_queue queue, cl_mem to, size_t offset, const void* from, size_t bytes,
                             const std::vector<cl_event>& wait, PinnedPool& pool) {
    return throughRing(queue, to, offset, static_cast<const unsigned char*>(from), nullptr, bytes, wait, pool);
}

}  // namespace hetero
