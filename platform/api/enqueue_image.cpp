// Image commands: read/write/copy/fill, image<->buffer copies, map. Same model as buffers: the
// command runs on a slot holding the current contents; maps go through the host copy.
#include "platform/api/api.hpp"
#include "platform/api/enqueue.hpp"

#include <algorithm>

using namespace hetero;

namespace {

void requireRegion(Mem* image, const size_t* origin, const size_t* region) {
    require(origin != nullptr && region != nullptr, CL_INVALID_VALUE);
    const ImageLayout& l = image->image();
    for (int d = 0; d < 3; ++d) {
        require(region[d] > 0, CL_INVALID_VALUE);
        require(origin[d] <= l.region[d] && region[d] <= l.region[d] - origin[d], CL_INVALID_VALUE);
    }
}

// The command replaces every byte of the image's storage (an image viewing a buffer may cover
// only part of it: never).
bool coversImage(Mem* image, const size_t* origin, const size_t* region) {
    if (image->viewsBuffer()) return false;
    const ImageLayout& l = image->image();
    for (int d = 0; d < 3; ++d)
        if (origin[d] != 0 || region[d] != l.region[d]) return false;
    return true;
}

// The bytes of `region` of an image, for the trace.
size_t regionBytes(Mem* image, const size_t* region) {
    return region[0] * region[1] * region[2] * image->image().elementSize;
}

// The bytes from the host pointer on that a read of `region` with these pitches can write. A 1-D
// image array's images lie slice_pitch apart (row_pitch when it is 0); PoCL (3.1, 5.0) puts them
// row_pitch apart whatever slice_pitch says, so the extent covers both.
size_t hostExtent(Mem* image, const size_t* region, size_t row_pitch, size_t slice_pitch) {
    const size_t rowBytes = region[0] * image->image().elementSize;
    const size_t row = row_pitch ? row_pitch : rowBytes;
    if (image->type() == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
        const size_t slice = slice_pitch ? slice_pitch : row;
        return (region[1] - 1) * std::max(row, slice) + rowBytes;
    }
    const size_t slice = slice_pitch ? slice_pitch : region[1] * row;
    return (region[2] - 1) * slice + (region[1] - 1) * row + rowBytes;
}

struct Box {
    size_t origin[3], region[3];
};
Box box(const size_t* origin, const size_t* region) {
    return {{origin[0], origin[1], origin[2]}, {region[0], region[1], region[2]}};
}

}  // namespace

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                      const size_t* origin, const size_t* region, size_t row_pitch, size_t slice_pitch,
                                      void* ptr, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                      cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = imageOf(queue, image);
        require(ptr != nullptr, CL_INVALID_VALUE);
        requireRegion(m, origin, region);
        require(!(m->flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        Box b = box(origin, region);
        auto ev = queue->enqueue({CL_COMMAND_READ_IMAGE, {}, regionBytes(m, region)}, std::move(deps), [keep] { return placeFor({{keep.get(), false, false}}); },
                                 [keep, b, row_pitch, slice_pitch, ptr](Submission& sub) -> cl_event {
                                     return submitWith(sub, {{keep.get(), false, false}}, [&](std::vector<cl_event>& wait) {
                                         cl_event e = nullptr;
                                         check(backend::enqueueReadImage(sub.backendQueue, keep->backendMem(sub.slot), b.origin,
                                                                         b.region, row_pitch, slice_pitch, ptr, wait, &e));
                                         return e;
                                     });
                                 });
        if (!blocking_read) queue->hostReads().note(ptr, hostExtent(m, region, row_pitch, slice_pitch), ev);
        return finishEnqueue(std::move(ev), event, blocking_read);
    });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                                       const size_t* origin, const size_t* region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void* ptr, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = imageOf(queue, image);
        require(ptr != nullptr, CL_INVALID_VALUE);
        requireRegion(m, origin, region);
        require(!(m->flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)), CL_INVALID_OPERATION);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        Box b = box(origin, region);
        bool whole = coversImage(m, origin, region);
        auto ev = queue->enqueue(
            {CL_COMMAND_WRITE_IMAGE, {}, regionBytes(m, region)}, std::move(deps), [keep, whole] { return placeFor({{keep.get(), true, whole}}); },
            [keep, b, whole, input_row_pitch, input_slice_pitch, ptr](Submission& sub) -> cl_event {
                return submitWith(sub, {{keep.get(), true, whole}}, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    check(backend::enqueueWriteImage(sub.backendQueue, keep->backendMem(sub.slot), b.origin, b.region,
                                                     input_row_pitch, input_slice_pitch, ptr, wait, &e));
                    return e;
                });
            });
        return finishEnqueue(std::move(ev), event, blocking_write);
    });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                      const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                                      cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                      cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto src = imageOf(queue, src_image);
        auto dst = imageOf(queue, dst_image);
        requireRegion(src, src_origin, region);
        requireRegion(dst, dst_origin, region);
        const auto& fs = src->image().format;
        const auto& fd = dst->image().format;
        require(fs.image_channel_order == fd.image_channel_order && fs.image_channel_data_type == fd.image_channel_data_type,
                CL_IMAGE_FORMAT_MISMATCH);
        if (src == dst) {
            // Two boxes of one image overlap when they overlap in every dimension.
            bool overlap = true;
            for (int k = 0; k < 3; ++k)
                overlap = overlap && src_origin[k] < dst_origin[k] + region[k] && dst_origin[k] < src_origin[k] + region[k];
            require(!overlap, CL_MEM_COPY_OVERLAP);
        }
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keepSrc(src), keepDst(dst);
        Box s = box(src_origin, region), d = box(dst_origin, region);
        bool whole = coversImage(dst, dst_origin, region) && src != dst;
        auto ev = queue->enqueue(
            {CL_COMMAND_COPY_IMAGE, {}, regionBytes(src, region)}, std::move(deps),
            [keepSrc, keepDst, whole] { return placeFor({{keepSrc.get(), false, false}, {keepDst.get(), true, whole}}); },
            [keepSrc, keepDst, s, d, whole](Submission& sub) -> cl_event {
                return submitWith(sub, {{keepSrc.get(), false, false}, {keepDst.get(), true, whole}},
                                  [&](std::vector<cl_event>& wait) {
                                      cl_event e = nullptr;
                                      check(backend::enqueueCopyImage(sub.backendQueue, keepSrc->backendMem(sub.slot),
                                                                      keepDst->backendMem(sub.slot), s.origin, d.origin,
                                                                      s.region, wait, &e));
                                      return e;
                                  });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                                      const size_t* origin, const size_t* region, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto m = imageOf(queue, image);
        require(fill_color != nullptr, CL_INVALID_VALUE);
        requireRegion(m, origin, region);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keep(m);
        Box b = box(origin, region);
        bool whole = coversImage(m, origin, region);
        std::vector<unsigned char> color(static_cast<const unsigned char*>(fill_color),
                                         static_cast<const unsigned char*>(fill_color) + 16);
        auto ev = queue->enqueue(
            {CL_COMMAND_FILL_IMAGE, {}, regionBytes(m, region)}, std::move(deps), [keep, whole] { return placeFor({{keep.get(), true, whole}}); },
            [keep, b, whole, color](Submission& sub) -> cl_event {
                return submitWith(sub, {{keep.get(), true, whole}}, [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    check(backend::enqueueFillImage(sub.backendQueue, keep->backendMem(sub.slot), color.data(), b.origin,
                                                    b.region, wait, &e));
                    return e;
                });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_buffer,
                                              const size_t* src_origin, const size_t* region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto src = imageOf(queue, src_image);
        auto dst = bufferOf(queue, dst_buffer);
        requireRegion(src, src_origin, region);
        size_t bytes = region[0] * region[1] * region[2] * src->image().elementSize;
        require(dst_offset <= dst->size() && bytes <= dst->size() - dst_offset, CL_INVALID_VALUE);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keepSrc(src), keepDst(dst);
        Box s = box(src_origin, region);
        auto ev = queue->enqueue(
            {CL_COMMAND_COPY_IMAGE_TO_BUFFER, {}, bytes}, std::move(deps),
            [keepSrc, keepDst] { return placeFor({{keepSrc.get(), false, false}, {keepDst.get(), true, false}}); },
            [keepSrc, keepDst, s, dst_offset](Submission& sub) -> cl_event {
                return submitWith(sub, {{keepSrc.get(), false, false}, {keepDst.get(), true, false}},
                                  [&](std::vector<cl_event>& wait) {
                                      cl_event e = nullptr;
                                      check(backend::enqueueCopyImageToBuffer(sub.backendQueue, keepSrc->backendMem(sub.slot),
                                                                              keepDst->storage().backendMem(sub.slot), s.origin,
                                                                              s.region, keepDst->origin() + dst_offset, wait, &e));
                                      return e;
                                  });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_image,
                                              size_t src_offset, const size_t* dst_origin, const size_t* region,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) {
    return guarded([&] {
        auto queue = queueOf(command_queue);
        auto src = bufferOf(queue, src_buffer);
        auto dst = imageOf(queue, dst_image);
        requireRegion(dst, dst_origin, region);
        size_t bytes = region[0] * region[1] * region[2] * dst->image().elementSize;
        require(src_offset <= src->size() && bytes <= src->size() - src_offset, CL_INVALID_VALUE);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Mem> keepSrc(src), keepDst(dst);
        Box d = box(dst_origin, region);
        bool whole = coversImage(dst, dst_origin, region);
        auto ev = queue->enqueue(
            {CL_COMMAND_COPY_BUFFER_TO_IMAGE, {}, bytes}, std::move(deps),
            [keepSrc, keepDst, whole] { return placeFor({{keepSrc.get(), false, false}, {keepDst.get(), true, whole}}); },
            [keepSrc, keepDst, d, whole, src_offset](Submission& sub) -> cl_event {
                return submitWith(sub, {{keepSrc.get(), false, false}, {keepDst.get(), true, whole}},
                                  [&](std::vector<cl_event>& wait) {
                                      cl_event e = nullptr;
                                      check(backend::enqueueCopyBufferToImage(sub.backendQueue, keepSrc->storage().backendMem(sub.slot),
                                                                              keepDst->backendMem(sub.slot),
                                                                              keepSrc->origin() + src_offset, d.origin, d.region,
                                                                              wait, &e));
                                      return e;
                                  });
            });
        return finishEnqueue(std::move(ev), event, false);
    });
}

void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                    cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                    size_t* image_row_pitch, size_t* image_slice_pitch, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> void* {
        auto queue = queueOf(command_queue);
        auto m = imageOf(queue, image);
        requireRegion(m, origin, region);
        require(image_row_pitch != nullptr, CL_INVALID_VALUE);
        require((map_flags & ~(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) == 0, CL_INVALID_VALUE);
        require(!((map_flags & CL_MAP_WRITE_INVALIDATE_REGION) && (map_flags & (CL_MAP_READ | CL_MAP_WRITE))),
                CL_INVALID_VALUE);
        const ImageLayout& l = m->image();
        bool hasSlices = m->type() == CL_MEM_OBJECT_IMAGE3D || m->type() == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         m->type() == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        require(!hasSlices || image_slice_pitch != nullptr, CL_INVALID_VALUE);
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        size_t offset = m->origin() + origin[0] * l.elementSize;  // in the host copy of the storage
        if (m->type() == CL_MEM_OBJECT_IMAGE1D_ARRAY)
            offset += origin[1] * l.slicePitch;
        else
            offset += origin[1] * l.rowPitch + origin[2] * l.slicePitch;
        *image_row_pitch = l.rowPitch;
        if (image_slice_pitch) *image_slice_pitch = hasSlices ? l.slicePitch : 0;
        return enqueueMap(queue.get(), m.get(), CL_COMMAND_MAP_IMAGE, std::move(deps), map_flags, offset, 0,
                          coversImage(m, origin, region), blocking_map, event);
    });
}
