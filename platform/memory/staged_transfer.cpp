#include "platform/memory/staged_transfer.hpp"

#include "devices/backend_call.hpp"
#include "devices/backend_commands.hpp"
#include "platform/memory/pinned_pool.hpp"
#include "platform/support/error.hpp"
#include "platform/support/parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace hetero {

namespace {
// A piece takes 0.1-0.2 ms to copy or to send on the GPU machine: long enough to hide a flush.
constexpr size_t kPiece = size_t{8} << 20;
}  // namespace

cl_event stagedWrite(cl_command_queue queue, cl_mem to, unsigned char* staging, const void* from, size_t bytes,
                     const std::vector<cl_event>& wait) {
    const size_t pieces = (bytes + kPiece - 1) / kPiece;
    cl_event done = nullptr;
    if (pieces <= 1) {
        std::memcpy(staging, from, bytes);
        check(backend::enqueueWrite(queue, to, 0, bytes, staging, wait, &done));
        return done;
    }
    // The threads take pieces in turn: copy one, send it, take the next. Writes of different bytes
    // may reach the queue in any order.
    std::vector<cl_event> sent(pieces, nullptr);
    std::atomic<size_t> next{0};
    std::atomic<cl_int> failed{CL_SUCCESS};
    const auto* source = static_cast<const unsigned char*>(from);
    parallelFor(static_cast<unsigned>(std::min<size_t>(pieces, parallelThreads())), [&](unsigned) {
        for (size_t k = next++; k < pieces && failed.load() == CL_SUCCESS; k = next++) {
            const size_t first = k * kPiece, len = std::min(kPiece, bytes - first);
            std::memcpy(staging + first, source + first, len);
            if (cl_int err = backend::enqueueWrite(queue, to, first, len, staging + first, wait, &sent[k]); err != CL_SUCCESS)
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

bool readsStaged(size_t bytes) { return bytes >= 2 * kPiece; }

cl_event stagedRead(cl_command_queue queue, cl_mem from, size_t offset, void* to, size_t bytes,
                    const std::vector<cl_event>& wait, PinnedPool& pool) {
    // Pieces go round a ring of blocks: piece k lands in ring[k % kRing] while earlier ones are
    // copied out.
    constexpr size_t kRing = 3;
    const size_t pieces = (bytes + kPiece - 1) / kPiece;
    PinnedPool::Block ring = pool.take(kRing * kPiece);
    if (!ring) return nullptr;
    std::vector<cl_event> read(pieces, nullptr);
    auto piece = [&](size_t k) { return std::min(kPiece, bytes - k * kPiece); };
    auto slot = [&](size_t k) { return ring.data + (k % kRing) * kPiece; };
    auto start = [&](size_t k) {
        check(backend::enqueueRead(queue, from, offset + k * kPiece, piece(k), slot(k), wait, &read[k]));
        backend::flush(queue);
    };
    cl_int err = CL_SUCCESS;
    try {
        for (size_t k = 0; k < std::min(kRing, pieces); ++k) start(k);
        for (size_t k = 0; k < pieces; ++k) {
            check(backend::waitFor(read[k]));
            copyInParallel(static_cast<unsigned char*>(to) + k * kPiece, slot(k), piece(k));
            if (k + kRing < pieces) start(k + kRing);
        }
    } catch (const Error& e) {
        err = e.code;
    }
    cl_event last = read.back();
    read.back() = nullptr;
    std::vector<cl_event> enqueued;
    for (cl_event e : read)
        if (e) enqueued.push_back(e);
    if (err != CL_SUCCESS) {
        if (last) enqueued.push_back(last);
        backend::waitAll(enqueued);  // the ring goes back to the pool only once nothing lands in it
        backend::releaseAll(enqueued);
        pool.give(ring);
        check(err);
    }
    backend::releaseAll(enqueued);
    pool.give(ring);
    return last;
}

}  // namespace hetero
