#include "platform/memory/storage.hpp"

#include "platform/observe/counters.hpp"
#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include "platform/engine/queue.hpp"
#include "platform/observe/trace.hpp"

#include <cstdlib>
#include <cstring>

namespace hetero {

Storage::Storage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image)
    : context_(context), bytes_(bytes), isImage_(image != nullptr), copies_(context->slotCount()) {
    if (image) image_ = *image;
    if (useHostPtr) host_ = static_cast<unsigned char*>(useHostPtr);
    unified_ = unifiedInit(context, useHostPtr, image);
}

Storage::~Storage() {
    if (unified_) {
        unifiedRelease();
        return;
    }
    for (auto& c : copies_) {
        if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
        if (c.mem) BACKEND(c.mem, clReleaseMemObject)(c.mem);
    }
    if (hostOwned_) std::free(host_);
}

cl_mem Storage::backendMem(unsigned slot) {
    Copy& c = copies_[slot];
    if (c.mem) return c.mem;
    if (unified_) return unifiedBackendMem(slot);
    cl_context ctx = context_->backend(slot);
    cl_int err = CL_SUCCESS;
    // Always read-write: Hetero itself reads and writes every copy to keep them coherent.
    if (isImage_) {
        cl_image_desc desc = image_.desc;
        desc.image_row_pitch = 0;
        desc.image_slice_pitch = 0;
        desc.mem_object = nullptr;
        c.mem = BACKEND(ctx, clCreateImage)(ctx, CL_MEM_READ_WRITE, &image_.format, &desc, nullptr, &err);
    } else {
        c.mem = BACKEND(ctx, clCreateBuffer)(ctx, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    }
    if (!c.mem) {
        HETERO_LOG(Warn, "allocating %zu bytes on slot %u failed: %s", bytes_, slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    return c.mem;
}

unsigned char* Storage::host() {
    if (unified_) return unifiedHost();
    if (!host_) {
        // Page-aligned, so that any sub-buffer origin keeps the alignment backends expect.
        void* p = nullptr;
        if (posix_memalign(&p, 4096, bytes_ ? bytes_ : 1) != 0) fail(CL_OUT_OF_HOST_MEMORY);
        host_ = static_cast<unsigned char*>(p);
        hostOwned_ = true;
    }
    return host_;
}

int Storage::freshSlot(unsigned preferred) const {
    if (preferred < copies_.size() && copies_[preferred].version == version_) return static_cast<int>(preferred);
    for (size_t s = 0; s < copies_.size(); ++s)
        if (copies_[s].version == version_) return static_cast<int>(s);
    return -1;
}

// Pitches of the host copy as clEnqueue{Read,Write}Image take them: 0 where they are implied, and
// never a slice pitch for images without slices (NVIDIA refuses one for a 2D image).
size_t Storage::transferRowPitch() const {
    return image_.rowPitch == image_.region[0] * image_.elementSize ? 0 : image_.rowPitch;
}

size_t Storage::transferSlicePitch() const {
    cl_mem_object_type t = image_.desc.image_type;
    bool slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    return slices ? image_.slicePitch : 0;
}

void Storage::settle(unsigned slot) {
    Copy& c = copies_[slot];
    if (!c.later) return;
    cl_event marker = c.later->get();  // null: its queue was finished, the copy is ready
    cl_command_queue queue = c.later->queue();
    if (unified_) {
        marker = unifiedSettle(slot, marker);  // another slot's context needs a bridge
        if (slot != lastWriteSlot_) queue = nullptr;
    } else if (marker) {
        BACKEND(marker, clRetainEvent)(marker);
    }
    if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
    c.ready = marker;
    c.readyQueue = marker ? queue : nullptr;
    c.later.reset();
}

cl_event Storage::readyOn(unsigned slot) {
    settle(slot);
    return copies_[slot].ready;
}

cl_event Storage::readyFor(unsigned slot, cl_command_queue target) {
    Copy& c = copies_[slot];
    if (target && c.later && c.later->queue() == target && (!unified_ || slot == lastWriteSlot_)) return nullptr;
    if (target && !c.later && c.ready && c.readyQueue == target) return nullptr;
    return readyOn(slot);
}

void Storage::upload(unsigned slot, Queue& queue) {
    trace::Scope span({static_cast<int>(slot), "migrations"}, "upload");
    span.add(trace::num("bytes", static_cast<double>(bytes_)));
    cl_command_queue q = queue.backendQueue(slot);
    cl_mem m = backendMem(slot);
    // Whatever still uses the old contents of this copy finishes first.
    cl_event ready = readyOn(slot);
    cl_uint waits = ready ? 1 : 0;
    cl_int err;
    if (isImage_) {
        size_t origin[3] = {0, 0, 0};
        err = BACKEND(q, clEnqueueWriteImage)(q, m, CL_TRUE, origin, image_.region, transferRowPitch(), transferSlicePitch(),
                                              host(), waits, waits ? &ready : nullptr, nullptr);
    } else {
        err = BACKEND(q, clEnqueueWriteBuffer)(q, m, CL_TRUE, 0, bytes_, host(), waits, waits ? &ready : nullptr, nullptr);
    }
    if (err != CL_SUCCESS) {
        HETERO_LOG(Warn, "copying to slot %u failed: %s", slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    counters::add(counters::BytesHostToDevice, bytes_);
}

void Storage::download(unsigned slot, Queue& queue) {
    trace::Scope span({static_cast<int>(slot), "migrations"}, "download");
    span.add(trace::num("bytes", static_cast<double>(bytes_)));
    cl_command_queue q = queue.backendQueue(slot);
    Copy& c = copies_[slot];
    settle(slot);
    cl_uint waits = c.ready ? 1 : 0;
    cl_int err;
    if (isImage_) {
        size_t origin[3] = {0, 0, 0};
        err = BACKEND(q, clEnqueueReadImage)(q, c.mem, CL_TRUE, origin, image_.region, transferRowPitch(),
                                             transferSlicePitch(), host(), waits, waits ? &c.ready : nullptr, nullptr);
    } else {
        err = BACKEND(q, clEnqueueReadBuffer)(q, c.mem, CL_TRUE, 0, bytes_, host(), waits, waits ? &c.ready : nullptr,
                                              nullptr);
    }
    if (err != CL_SUCCESS) {
        HETERO_LOG(Warn, "copying from slot %u failed: %s", slot, errorName(err));
        fail(CL_OUT_OF_RESOURCES);
    }
    counters::add(counters::BytesDeviceToHost, bytes_);
}

void Storage::makeHostFresh(Queue& queue) {
    if (unified_) return unifiedWaitForWrites();
    if (hostFresh()) return;
    int from = freshSlot(Backends::instance().primarySlot());
    if (from < 0) {  // nothing was ever written: any contents are right
        host();
        hostVersion_ = version_;
        return;
    }
    download(static_cast<unsigned>(from), queue);
    hostVersion_ = version_;
}

void Storage::makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList, cl_command_queue target) {
    backendMem(slot);
    Copy& c = copies_[slot];
    if (c.version != version_) {
        if (!hostFresh()) makeHostFresh(queue);
        upload(slot, queue);  // blocking: settles and waits for `ready` first
        if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
        c.ready = nullptr;
        c.readyQueue = nullptr;
        c.version = version_;
        HETERO_LOG(Debug, "moved %zu bytes to slot %u (version %llu)", bytes_, slot, (unsigned long long)version_);
    }
    if (cl_event ready = readyFor(slot, target)) waitList.push_back(ready);
}

void Storage::wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue) {
    if (unified_) return unifiedWroteOn(slot, ready);
    ++version_;
    Copy& c = copies_[slot];
    if (ready) BACKEND(ready, clRetainEvent)(ready);
    if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
    c.ready = ready;
    c.readyQueue = ready ? readyQueue : nullptr;
    c.later.reset();
    c.version = version_;
}

void Storage::wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) {
    if (unified_) return unifiedWroteOn(slot, ready);
    ++version_;
    Copy& c = copies_[slot];
    if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
    c.ready = nullptr;
    c.readyQueue = nullptr;
    c.later = ready;
    c.version = version_;
}

void Storage::setReady(unsigned slot, cl_event event) {
    Copy& c = copies_[slot];
    c.later.reset();
    BACKEND(event, clRetainEvent)(event);
    if (c.ready) BACKEND(c.ready, clReleaseEvent)(c.ready);
    c.ready = event;
    c.readyQueue = nullptr;
}

void Storage::freshLater(unsigned slot, cl_event ready) {
    setReady(slot, ready);
    copies_[slot].version = version_;
}

void Storage::wroteOnHost() {
    if (unified_) return unifiedWroteOnHost();
    ++version_;
    hostVersion_ = version_;
}

void Storage::initialContentsOnHost() { wroteOnHost(); }

}  // namespace hetero
