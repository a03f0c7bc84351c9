// A whole write in pieces (platform/memory/staged_transfer.hpp) on a fake backend: every piece is
// sent by the thread that asked for the write, in order, each once its bytes are in the staging
// copy, only the first naming the write's wait list (the rest follow it on the in-order queue);
// then one marker after all of them.
#include "platform/memory/staged_transfer.hpp"
#include "platform/support/object.hpp"  // the handles' dispatch-first layout

#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace {

struct Sent {
    std::thread::id by;
    size_t offset, bytes;
    bool bytesIn;  // the piece's staging bytes equal the source's when it was sent
    cl_uint waits;
};
std::mutex sentMutex;
std::vector<Sent> sent;
const unsigned char* source = nullptr;
const unsigned char* staging = nullptr;
cl_uint markerWaits = 0;
_cl_event pieceEvent, markerEvent, before[2];

cl_int CL_API_CALL fakeWrite(cl_command_queue, cl_mem, cl_bool, size_t offset, size_t bytes, const void* from, cl_uint waits,
                             const cl_event*, cl_event* done) {
    // Slow enough that, were other threads allowed to send, they would send some of the pieces.
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    std::lock_guard lock(sentMutex);
    sent.push_back({std::this_thread::get_id(), offset, bytes,
                    from == staging + offset && std::memcmp(staging + offset, source + offset, bytes) == 0, waits});
    if (done) *done = &pieceEvent;
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeFlush(cl_command_queue) { return CL_SUCCESS; }
cl_int CL_API_CALL fakeMarker(cl_command_queue, cl_uint n, const cl_event*, cl_event* done) {
    markerWaits = n;
    *done = &markerEvent;
    return CL_SUCCESS;
}
cl_int CL_API_CALL fakeRelease(cl_event) { return CL_SUCCESS; }

}  // namespace

TEST_CASE("a whole write in pieces is sent by the writing thread, in order, each piece once it is in",
          "[staged_transfer]") {
    cl_icd_dispatch table{};
    table.clEnqueueWriteBuffer = fakeWrite;
    table.clFlush = fakeFlush;
    table.clEnqueueMarkerWithWaitList = fakeMarker;
    table.clReleaseEvent = fakeRelease;
    _cl_command_queue queue{};
    _cl_mem mem{};
    queue.dispatch = mem.dispatch = pieceEvent.dispatch = markerEvent.dispatch = &table;
    before[0].dispatch = before[1].dispatch = &table;

    const size_t bytes = (size_t{30} << 20) + 12345;  // 8 MiB pieces and a remainder
    std::vector<unsigned char> from(bytes), to(bytes, 0);
    for (size_t i = 0; i < bytes; ++i) from[i] = static_cast<unsigned char>(i * 7 + i / 4096);
    source = from.data();
    staging = to.data();
    sent.clear();

    const std::vector<cl_event> wait = {&before[0], &before[1]};
    cl_event done = hetero::stagedWrite(&queue, &mem, to.data(), from.data(), bytes, wait, false);
    CHECK(done == &markerEvent);
    REQUIRE(sent.size() >= 2);
    CHECK(markerWaits == sent.size());
    size_t covered = 0;
    for (const Sent& s : sent) {
        CHECK(s.by == std::this_thread::get_id());
        CHECK(s.offset == covered);
        CHECK(s.bytesIn);
        CHECK(s.waits == (s.offset == 0 ? wait.size() : 0));
        covered = s.offset + s.bytes;
    }
    CHECK(covered == bytes);
    CHECK(to == from);
}
