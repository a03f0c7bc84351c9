// Buffer commands: read/write/copy/fill (and rect variants), map/unmap, migrate.
#include "platform/api/api.hpp"
#include "platform/api/enqueue.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/memory/staged_transfer.hpp"
#include "platform/support/parallel_for.hpp"

#include <algorithm>
#include <cstring>
#include <thread>

using namespace hetero;

namespace {

// Where the current contents of `m` can be read: a fresh slot, else the host copy. A single copy
// (unified memory) the host reads directly.
int placeReading(Mem* m) {
    Storage& s = m->storage();
    std::lock_guard lock(s.mutex);
    if (s.singleCopy()) return kHostSlot;
    int slot = s.freshSlot(Backends::instance().primarySlot());
    if (slot >= 0) return slot;
    return s.hostFresh() ? kHostSlot : static_cast<int>(Backends::instance().primarySlot());
}

bool coversStorage(Mem* m, size_t offset, size_t size) {
    return m->origin() + offset == 0 && size == m->storage().bytes();
}

// The pinned pool a large transfer with `sub`'s slot, whose caller waits for it anyway, goes
// through in pieces (staged_transfer.hpp); null when it goes directly: small, where the slot's copy
// is the host copy itself (the CPU slot's, which its backend moves with a memcpy of its own), on a
// profiling queue (the command's backend event must span the whole transfer), or without a pool.
std::shared_ptr<PinnedPool> stagingPool(Mem* m, const Submission& sub, size_t size) {
    DiscreteStorage* copies = m->storage().discrete();
    if (!transferStaged(size) || sub.queue.profiling() || (copies && copies->hostAliasSlot() == sub.slot))
        return nullptr;
    return m->context()->pinnedPool();
}

void requireHostRead(Mem* m) {
    require(!(m->flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
}
void requireHostWrite(Mem* m) {
    require(!(m->flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
}
void requireRange(Mem* m, size_t offset, size_t size) {
    require(size > 0 && offset <= m->size() && size <= m->size() - offset, CL_INVALID_VALUE);
}

// Rect geometry with the specification's defaults applied and checked.
struct Rect {
    size_t origin[3], region[3], rowPitch, slicePitch;
    size_t offsetOf() const { return origin[2] * slicePitch + origin[1] * rowPitch + origin[0]; }
    size_t extent() const { return (region[2] - 1) * slicePitch + (region[1] - 1) * rowPitch + region[0]; }
};

// A rectangle of a sub-buffer as the same rectangle of its root: transfers address the root
// storage (see clEnqueueReadBuffer). Shifting x by the origin shifts every row's bytes by it.
Rect inRoot(const Mem* m, Rect r) {
    r.origin[0] += m->origin();
    return r;
}

Rect makeRect(const size_t* origin, const size_t* region, size_t rowPitch, size_t slicePitch) {
    require(origin != nullptr && region != nullptr, CL_INVALID_VALUE);
    require(region[0] && region[1] && region[2], CL_INVALID_VALUE);
    Rect r{{origin[0], origin[1], origin[2]}, {region[0], region[1], region[2]}, rowPitch, slicePitch};
    if (r.rowPitch == 0) r.rowPitch = region[0];
    require(r.rowPitch >= region[0], CL_INVALID_VALUE);
    if (r.slicePitch == 0) r.slicePitch = region[1] * r.rowPitch;
    require(r.slicePitch >= region[1] * r.rowPitch && r.slicePitch % r.rowPitch == 0, CL_INVALID_VALUE);
    return r;
}

void requireRectInside(Mem* m, const Rect& r) {
    require(r.offsetOf() + r.extent() <= m->size(), CL_INVALID_VALUE);
}

// Whether two rects with the same region and pitches share a byte. Their rows start at
// offset + y*rowPitch + z*slicePitch; a row of `b` meets a row of `a` when their starts are less
// than a row's width apart, so only the row distances nearest to the shift need checking.
bool rectsOverlap(const Rect& a, const Rect& b) {
    const long long shift = static_cast<long long>(b.offsetOf()) - static_cast<long long>(a.offsetOf());
    const long long width = a.region[0], row = a.rowPitch, slice = a.slicePitch;
    const long long rows = a.region[1], slices = a.region[2];
    for (long long dz = 1 - slices; dz < slices; ++dz) {
        long long rest = shift - dz * slice;
        long long nearest = rest / row;
        for (long long dy = nearest - 1; dy <= nearest + 1; ++dy) {
            if (dy <= -rows || dy >= rows) continue;
            long long gap = rest - dy * row;
            if (gap > -width && gap < width) return true;
        }
    }
    return false;
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                       size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = bufferOf(queue, buffer);
        require(ptr != nullptr, CL_INVALID_VALUE);
        requireRange(m, offset, size);
        requireHostRead(m);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        auto ev = queue->enqueue(
            {CL_COMMAND_READ_BUFFER, {}, size}, std::move(deps), [keep] { return placeReading(keep.get()); },
            [keep, offset, size, ptr, blocking = blocking_read != CL_FALSE](Submission& sub) -> cl_event {
                Mem* m = keep.get();
                if (sub.slot == kHostSlot) {
                    std::lock_guard lock(m->storage().mutex);
                    m->storage().makeHostFresh(sub.queue);  // unified: waits for the last write
                    copyInParallel(ptr, m->storage().host() + m->origin() + offset, size);
                    return nullptr;
                }
                // Transfers (here and below, rectangles too) address a sub-buffer through its root
                // at its origin: a backend sub-buffer is made only for kernel arguments. (NVIDIA
                // crashed releasing a sub-buffer that had only served a copy, after split launches
                // on its parent.)
                return submitWith(sub, {{m, false, false}}, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    cl_mem from = m->storage().backendMem(sub.slot);
                    // A blocking read's caller waits for the bytes anyway: large ones come through
                    // pinned blocks, the submission waiting for each piece (staged_transfer.hpp).
                    if (auto pool = blocking ? stagingPool(m, sub, size) : nullptr)
                        e = stagedRead(sub.backendQueue, from, m->origin() + offset, ptr, size, wait, *pool);
                    if (!e) check(backend::enqueueRead(sub.backendQueue, from, m->origin() + offset, size, ptr, wait, &e));
                    return e;
                });
            });
        if (!blocking_read) queue->hostReads().note(ptr, size, ev);
        return finishEnqueue(std::move(ev), event, blocking_read);
    });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                        size_t offset, size_t size, const void* ptr, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = bufferOf(queue, buffer);
        require(ptr != nullptr, CL_INVALID_VALUE);
        requireRange(m, offset, size);
        requireHostWrite(m);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        bool whole = coversStorage(m, offset, size);
        // A single copy (unified memory): the host writes into it (once earlier writes are done).
        bool onHost = m->storage().singleCopy();
        // Discrete, whole, where the host copy is the CPU slot's: through it (DiscreteStorage::
        // writesThroughHostCopy), so the data reaches both devices once, before a launch needs it.
        DiscreteStorage* copies = m->storage().discrete();
        bool throughHost = whole && copies && copies->writesThroughHostCopy();
        const std::thread::id caller = std::this_thread::get_id();
        auto ev = queue->enqueue(
            {CL_COMMAND_WRITE_BUFFER, {}, size}, std::move(deps),
            [keep, whole, onHost] { return onHost ? kHostSlot : placeFor({{keep.get(), true, whole}}); },
            [keep, whole, throughHost, copies, offset, size, ptr, caller,
             blocking = blocking_write != CL_FALSE](Submission& sub) -> cl_event {
                Mem* m = keep.get();
                if (sub.slot == kHostSlot) {
                    std::lock_guard lock(m->storage().mutex);
                    m->storage().makeHostFresh(sub.queue);
                    copyInParallel(m->storage().host() + m->origin() + offset, ptr, size);
                    m->storage().wroteOnHost();
                    return nullptr;
                }
                const bool viaHost = throughHost && static_cast<int>(sub.slot) != copies->hostAliasSlot();
                // As a large blocking read (clEnqueueReadBuffer): through pinned pieces. So is a
                // non-blocking one that the application's thread submits with nothing ahead of it
                // still running: it is done when the call returns, where the backend's own write from
                // ordinary memory holds the caller as long (NVIDIA: 64 MiB in 6.4 ms at the call,
                // then 9 ms more to finish) and slowed the next launch (52 against 26-35 us,
                // docs/results/h200-session35). Behind running work, the pieces would hold the
                // caller until it ends: it goes directly.
                auto pool = viaHost ? nullptr : stagingPool(m, sub, size);
                if (pool && !blocking && !(std::this_thread::get_id() == caller && sub.dependenciesDone())) pool = nullptr;
                // Nor what the write itself waits for (another queue's launch reading the buffer).
                auto waitsForNothing = [](const std::vector<cl_event>& wait) {
                    return std::all_of(wait.begin(), wait.end(), [](cl_event w) { return backend::done(w); });
                };
                // Both copy from `ptr` on the host now, not when the backend gets to the write: an
                // earlier non-blocking read into `ptr` must have landed (host_reads.hpp).
                // Waited for before the storage's lock, which the work waited for may need (a
                // split's end).
                if (viaHost || pool) sub.queue.hostReads().waitForReadsInto(ptr, size);
                uint64_t written = 0;
                cl_event done = submitWith(sub, {{m, true, whole}}, [&](std::vector<cl_event>& wait) {
                    Storage& s = m->storage();
                    cl_event e = nullptr;
                    if (viaHost) {  // whole: from the host copy's start
                        copies->prepareHostOverwrite();
                        e = stagedWrite(sub.backendQueue, s.backendMem(sub.slot), s.host(), ptr, size, wait,
                                        sub.queue.profiling());
                        copies->hostCopyReadUntil(e);
                    } else {
                        cl_mem to = s.backendMem(sub.slot);
                        if (pool && (blocking || waitsForNothing(wait)))
                            e = stagedBlockingWrite(sub.backendQueue, to, m->origin() + offset, ptr, size, wait, *pool);
                        if (!e) check(backend::enqueueWrite(sub.backendQueue, to, m->origin() + offset, size, ptr, wait, &e));
                    }
                    written = s.version() + 1;  // what submitWith's wroteOn makes it
                    return e;
                });
                if (viaHost) {
                    std::lock_guard lock(copies->mutex);
                    copies->hostCopyHolds(written);
                    if (m->context()->splitNway()) copies->mirrorHostWrite(sub.queue, sub.slot);
                }
                return done;
            });
        return finishEnqueue(std::move(ev), event, blocking_write);
    });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                       size_t src_offset, size_t dst_offset, size_t size,
                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                       cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto src = bufferOf(queue, src_buffer);
        auto dst = bufferOf(queue, dst_buffer);
        requireRange(src, src_offset, size);
        requireRange(dst, dst_offset, size);
        if (&src->storage() == &dst->storage()) {
            size_t a = src->origin() + src_offset, b = dst->origin() + dst_offset;
            require(a + size <= b || b + size <= a, CL_MEM_COPY_OVERLAP);
        }
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keepSrc(src), keepDst(dst);
        bool whole = coversStorage(dst, dst_offset, size);
        auto ev = queue->enqueue(
            {CL_COMMAND_COPY_BUFFER, {}, size}, std::move(deps),
            [keepSrc, keepDst, whole] { return placeFor({{keepSrc.get(), false, false}, {keepDst.get(), true, whole}}); },
            [keepSrc, keepDst, whole, src_offset, dst_offset, size](Submission& sub) -> cl_event {
                return submitWith(sub, {{keepSrc.get(), false, false}, {keepDst.get(), true, whole}},
                                  [&](std::vector<cl_event>& wait) {
                                      cl_event e = nullptr;
                                      check(backend::enqueueCopy(sub.backendQueue, keepSrc->storage().backendMem(sub.slot),
                                                                 keepDst->storage().backendMem(sub.slot),
                                                                 keepSrc->origin() + src_offset, keepDst->origin() + dst_offset,
                                                                 size, wait, &e));
                                      return e;
                                  });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                       size_t pattern_size, size_t offset, size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = bufferOf(queue, buffer);
        require(pattern != nullptr, CL_INVALID_VALUE);
        bool powerOfTwo = pattern_size && (pattern_size & (pattern_size - 1)) == 0 && pattern_size <= 128;
        require(powerOfTwo, CL_INVALID_VALUE);
        require(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE);
        requireRange(m, offset, size);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        bool whole = coversStorage(m, offset, size);
        std::vector<unsigned char> bytes(static_cast<const unsigned char*>(pattern),
                                         static_cast<const unsigned char*>(pattern) + pattern_size);
        auto ev = queue->enqueue(
            {CL_COMMAND_FILL_BUFFER, {}, size}, std::move(deps), [keep, whole] { return placeFor({{keep.get(), true, whole}}); },
            [keep, whole, bytes, offset, size](Submission& sub) -> cl_event {
                Mem* m = keep.get();
                return submitWith(sub, {{m, true, whole}}, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    check(backend::enqueueFill(sub.backendQueue, m->storage().backendMem(sub.slot), bytes.data(), bytes.size(),
                                               m->origin() + offset, size, wait, &e));
                    return e;
                });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

namespace {

// Read and write rect share everything but the direction: a rect transfer between the buffer and
// host memory, on a slot holding the buffer's current contents.
cl_int enqueueRectTransfer(bool toBuffer, cl_command_queue command_queue, cl_mem buffer, cl_bool blocking,
                           const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                           size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                           size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = bufferOf(queue, buffer);
        require(ptr != nullptr, CL_INVALID_VALUE);
        Rect b = makeRect(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch);
        Rect h = makeRect(host_origin, region, host_row_pitch, host_slice_pitch);
        requireRectInside(m, b);
        toBuffer ? requireHostWrite(m) : requireHostRead(m);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        auto ev = queue->enqueue(
            {cl_command_type(toBuffer ? CL_COMMAND_WRITE_BUFFER_RECT : CL_COMMAND_READ_BUFFER_RECT), {},
             b.region[0] * b.region[1] * b.region[2]},
            std::move(deps),
            [keep, toBuffer] { return placeFor({{keep.get(), toBuffer, false}}); },
            [keep, toBuffer, b, h, ptr](Submission& sub) -> cl_event {
                Mem* m = keep.get();
                return submitWith(sub, {{m, toBuffer, false}}, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    cl_command_queue q = sub.backendQueue;
                    cl_mem bm = m->storage().backendMem(sub.slot);
                    Rect r = inRoot(m, b);
                    const backend::RectPitches pitches{r.rowPitch, r.slicePitch, h.rowPitch, h.slicePitch};
                    check(toBuffer ? backend::enqueueWriteRect(q, bm, r.origin, h.origin, r.region, pitches, ptr, wait, &e)
                                   : backend::enqueueReadRect(q, bm, r.origin, h.origin, r.region, pitches, ptr, wait, &e));
                    return e;
                });
            });
        if (!toBuffer && !blocking) queue->hostReads().note(static_cast<unsigned char*>(ptr) + h.offsetOf(), h.extent(), ev);
        return finishEnqueue(std::move(ev), event, blocking);
    });
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                                           const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                           size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return enqueueRectTransfer(false, command_queue, buffer, blocking_read, buffer_origin, host_origin, region,
                               buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr,
                               num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                                            const size_t* buffer_origin, const size_t* host_origin, const size_t* region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                            size_t host_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
                                            const cl_event* event_wait_list, cl_event* event) {
    // The backend only reads through ptr for a write; one helper serves both directions.
    return enqueueRectTransfer(true, command_queue, buffer, blocking_write, buffer_origin, host_origin, region,
                               buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch,
                               const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                                           const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                                           size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
                                           size_t dst_slice_pitch, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto src = bufferOf(queue, src_buffer);
        auto dst = bufferOf(queue, dst_buffer);
        Rect s = makeRect(src_origin, region, src_row_pitch, src_slice_pitch);
        Rect d = makeRect(dst_origin, region, dst_row_pitch, dst_slice_pitch);
        requireRectInside(src, s);
        requireRectInside(dst, d);
        if (src == dst) {
            require(s.rowPitch == d.rowPitch && s.slicePitch == d.slicePitch, CL_INVALID_VALUE);
            require(!rectsOverlap(s, d), CL_MEM_COPY_OVERLAP);
        }
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keepSrc(src), keepDst(dst);
        auto ev = queue->enqueue(
            {CL_COMMAND_COPY_BUFFER_RECT, {}, s.region[0] * s.region[1] * s.region[2]}, std::move(deps),
            [keepSrc, keepDst] { return placeFor({{keepSrc.get(), false, false}, {keepDst.get(), true, false}}); },
            [keepSrc, keepDst, s, d](Submission& sub) -> cl_event {
                return submitWith(sub, {{keepSrc.get(), false, false}, {keepDst.get(), true, false}},
                                  [&](std::vector<cl_event>& wait) {
                                      cl_event e = nullptr;
                                      Rect rs = inRoot(keepSrc.get(), s), rd = inRoot(keepDst.get(), d);
                                      check(backend::enqueueCopyRect(sub.backendQueue, keepSrc->storage().backendMem(sub.slot),
                                                                     keepDst->storage().backendMem(sub.slot), rs.origin,
                                                                     rd.origin, rs.region, rs.rowPitch, rs.slicePitch,
                                                                     rd.rowPitch, rd.slicePitch, wait, &e));
                                      return e;
                                  });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

// Maps go through the host copy: a map brings the current contents there (unless the whole
// object is invalidated), an unmap after writing makes the host copy the only current one.
void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                     cl_map_flags map_flags, size_t offset, size_t size,
                                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                     cl_event* event, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> void* {
        auto queue = queueOf(command_queue);
        auto m = bufferOf(queue, buffer);
        requireRange(m, offset, size);
        require((map_flags & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) == 0, CL_INVALID_VALUE);
        require(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
                CL_INVALID_VALUE);
        if (map_flags & CL_MAP_READ) requireHostRead(m);
        if (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) requireHostWrite(m);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        return enqueueMap(queue.get(), m.get(), CL_COMMAND_MAP_BUFFER, std::move(deps), map_flags, m->origin() + offset, size,
                          coversStorage(m, offset, size), blocking_map, event);
    });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                           cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = memOf(queue, memobj);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Mem::Mapping mapping{};
        require(m->takeMapping(mapped_ptr, mapping), CL_INVALID_VALUE);
        bool wrote = mapping.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
        Ref<Mem> keep(m);
        auto ev = queue->enqueue({CL_COMMAND_UNMAP_MEM_OBJECT, {}, mapping.size}, std::move(deps), [] { return kHostSlot; },
                                 [keep, wrote](Submission&) -> cl_event {
                                     if (wrote) {
                                         std::lock_guard lock(keep->storage().mutex);
                                         keep->storage().wroteOnHost();
                                     }
                                     return nullptr;
                                 });
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                              const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        require(num_mem_objects > 0 && mem_objects != nullptr, CL_INVALID_VALUE);
        require((flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) == 0, CL_INVALID_VALUE);
        std::vector<Ref<Mem>> mems;
        for (cl_uint i = 0; i < num_mem_objects; ++i) mems.emplace_back(memOf(queue, mem_objects[i]).get());
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        bool toHost = flags & CL_MIGRATE_MEM_OBJECT_HOST;
        bool undefined = flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
        uint64_t bytes = 0;
        for (auto& m : mems) bytes += m->size();
        auto ev = queue->enqueue(
            {CL_COMMAND_MIGRATE_MEM_OBJECTS, {}, bytes}, std::move(deps),
            [toHost] { return toHost ? kHostSlot : static_cast<int>(Backends::instance().primarySlot()); },
            [mems, undefined](Submission& sub) -> cl_event {
                if (undefined) return sub.slot == kHostSlot ? nullptr : [&] {
                    cl_event e = nullptr;
                    const auto waits = sub.waitsOn(sub.backendQueue);
                    check(backend::enqueueMarker(sub.backendQueue, waits, &e));
                    return e;
                }();
                if (sub.slot == kHostSlot) {
                    for (auto& m : mems) {
                        std::lock_guard lock(m->storage().mutex);
                        m->storage().makeHostFresh(sub.queue);
                    }
                    return nullptr;
                }
                std::vector<Access> accesses;
                for (auto& m : mems) accesses.push_back({m.get(), false, false});
                return submitWith(sub, accesses, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    check(backend::enqueueMarker(sub.backendQueue, wait, &e));
                    return e;
                });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}
