// Storage in discrete memory: copies kept coherent with versions (discrete_storage.hpp).
#include "platform/memory/discrete_storage.hpp"

#include "devices/backend.hpp"
#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/memory/host_memory.hpp"
#include "platform/objects/context.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/config.hpp"
#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include "platform/engine/queue.hpp"
#include "platform/observe/trace.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace hetero {
namespace {

// The slot whose copy of a buffer is its host copy: a CPU slot, not the primary one (that is the
// GPU, or the slot everything runs on) nor one standing in for a GPU; -1 when there is none.
int cpuSlotForHostCopy(Context* context) {
    Device* device = Device::instance();
    if (!device || context->slotCount() < 2) return -1;
    const Backends& backends = Backends::instance();
    for (const Slot& s : device->slots())
        if (s.index != backends.primarySlot() && (s.type & CL_DEVICE_TYPE_CPU) && !backends.isGpuSlot(s.index))
            return static_cast<int>(s.index);
    return -1;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

DiscreteStorage::DiscreteStorage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image)
    : Storage(context, bytes, useHostPtr, image), hostCopyOurs_(!image && !useHostPtr), promised_(copies_.size(), false) {
    if (hostCopyOurs_) aliasSlot_ = cpuSlotForHostCopy(context);
}

bool DiscreteStorage::writesThroughHostCopy() const {
    return (aliasSlot_ >= 0 || (hostCopyOurs_ && context_->splitNway())) && !testWritesDirect();
}

DiscreteStorage::~DiscreteStorage() {
    releaseCopies();
    if (hostMemory_) hostMemory_->drop();  // the alias slot's buffer holds it until that is gone
}

cl_mem DiscreteStorage::createBackendMem(unsigned slot) {
    Copy& c = copies_[slot];
    cl_context ctx = context_->backend(slot);
    cl_int err = CL_SUCCESS;
    // Always read-write: Hetero itself reads and writes every copy to keep them coherent.
    if (isImage_) {
        cl_image_desc desc = image_.desc;
        desc.image_row_pitch = 0;
        desc.image_slice_pitch = 0;
        desc.mem_object = nullptr;
        c.mem = backend::image(ctx, CL_MEM_READ_WRITE, image_.format, desc, nullptr, &err).release();
    } else if (static_cast<int>(slot) == aliasSlot_) {
        // PoCL computes in CL_MEM_USE_HOST_PTR memory in place (its device pointer is the host
        // pointer; page alignment satisfies every CL_DEVICE_MEM_BASE_ADDR_ALIGN), so this copy
        // and the host copy are one.
        c.mem = backend::buffer(ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes_, host(), &err).release();
        if (c.mem) {
            hostMemory_->hold();
            // Without the backend's word the memory is never freed: a leak rather than a use after free.
            if (backend::whenFreed(c.mem, HostMemory::backendBufferGone, hostMemory_) != CL_SUCCESS)
                HETERO_LOG(Warn, "slot %u cannot report when a buffer is gone; its host memory is kept", slot);
        }
    } else {
        c.mem = backend::buffer(ctx, CL_MEM_READ_WRITE, bytes_, nullptr, &err).release();
    }
    if (!c.mem) {
        HETERO_LOG(Warn, "allocating %zu bytes on slot %u failed: %s", bytes_, slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    return c.mem;
}

unsigned char* DiscreteStorage::allocateHost() {
    hostMemory_ = HostMemory::allocate(*context_, bytes_);
    host_ = hostMemory_->data();
    return host_;
}

bool DiscreteStorage::hostPinned() const { return hostMemory_ && hostMemory_->pinned(); }

void DiscreteStorage::setHostVersion(uint64_t v) {
    hostVersion_ = v;
    if (aliasSlot_ >= 0) copies_[aliasSlot_].version = v;
}

void DiscreteStorage::waitForHostCopyUsers() {
    for (auto& reader : hostCopyReaders_) backend::waitFor(reader.get());
    hostCopyReaders_.clear();
    if (aliasSlot_ < 0) return;
    Copy& c = copies_[aliasSlot_];
    cl_event e = readyOn(static_cast<unsigned>(aliasSlot_));
    if (!e) return;
    backend::waitFor(e);
    cl_int st = backend::status(e);
    c.ready.reset();
    // A write that failed (a split launch's stream-back that could not finish) left the copy stale.
    if (st < 0 && c.version == version_) setHostVersion(kNoVersion);
}

// Pitches of the host copy as clEnqueue{Read,Write}Image take them: 0 where they are implied, and
// never a slice pitch for images without slices (NVIDIA refuses one for a 2D image).
size_t DiscreteStorage::transferRowPitch() const {
    return image_.rowPitch == image_.region[0] * image_.elementSize ? 0 : image_.rowPitch;
}

size_t DiscreteStorage::transferSlicePitch() const {
    cl_mem_object_type t = image_.desc.image_type;
    bool slices = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    return slices ? image_.slicePitch : 0;
}

void DiscreteStorage::settleHostCopyReader() {
    std::vector<backend::Event> readers = std::move(hostCopyReaders_);
    hostCopyReaders_.clear();
    readers.erase(std::remove_if(readers.begin(), readers.end(), [](const backend::Event& r) { return backend::done(r.get()); }),
                  readers.end());
    if (readers.empty()) return;
    Copy& c = copies_[aliasSlot_];
    // One reader still running is bridged; more (a write's mirrors) are rare enough to wait for.
    for (size_t i = 0; i + 1 < readers.size(); ++i) backend::waitFor(readers[i].get());
    backend::Event reader = std::move(readers.back());
    if (c.ready || c.later) {  // not expected: hostCopyReadUntil left neither, and users settle first
        backend::waitFor(reader.get());
        return;
    }
    c.ready = backend::Event(completesWith(context_->backend(static_cast<unsigned>(aliasSlot_)), reader.get()));
    c.readyQueue = nullptr;
}

void DiscreteStorage::settle(unsigned slot) {
    Copy& c = copies_[slot];
    promised_[slot] = false;  // whoever asks for the copy's event relies on what it promises
    if (!hostCopyReaders_.empty() && static_cast<int>(slot) == aliasSlot_) settleHostCopyReader();
    if (!c.later) return;
    cl_event marker = c.later->get();  // null: its queue was finished, the copy is ready
    cl_command_queue queue = c.later->queue();
    c.ready = backend::Event::retained(marker);
    c.readyQueue = marker ? queue : nullptr;
    c.later.reset();
}

cl_event DiscreteStorage::readyFor(unsigned slot, cl_command_queue target) {
    Copy& c = copies_[slot];
    promised_[slot] = false;
    if (!hostCopyReaders_.empty() && static_cast<int>(slot) == aliasSlot_) settleHostCopyReader();
    if (target && c.later && c.later->queue() == target) return nullptr;
    if (target && !c.later && c.ready && c.readyQueue == target) return nullptr;
    // Another queue's event seen complete orders nothing, and naming it costs the work a wait
    // between queues (on NVIDIA, microseconds): e.g. a launch after a timed one (launch_timing.hpp).
    // Kept, not released: an event this returned before may still be in a caller's wait list.
    cl_int status = CL_QUEUED;
    if (target && c.later && c.later->seenComplete(status) && status == CL_COMPLETE) return nullptr;
    if (target && !c.later && c.ready && backend::status(c.ready.get()) == CL_COMPLETE) return nullptr;
    return readyOn(slot);
}

void DiscreteStorage::upload(unsigned slot, Queue& queue) {
    trace::Scope span({static_cast<int>(slot), "migrations"}, "upload");
    span.add(trace::num("bytes", static_cast<double>(bytes_)));
    const auto t0 = std::chrono::steady_clock::now();
    cl_command_queue q = queue.backendQueue(slot);
    cl_mem m = backendMem(slot);
    // Whatever still uses the old contents of this copy finishes first.
    cl_event ready = readyOn(slot);
    const backend::WaitList wait(&ready, ready ? 1 : 0);
    cl_int err = backend::enqueueAndWait([&](cl_event* done) {
        if (!isImage_) return backend::enqueueWrite(q, m, 0, bytes_, host(), wait, done);
        size_t origin[3] = {0, 0, 0};
        return backend::enqueueWriteImage(q, m, origin, image_.region, transferRowPitch(), transferSlicePitch(), host(),
                                          wait, done);
    });
    if (err != CL_SUCCESS) {
        HETERO_LOG(Warn, "copying to slot %u failed: %s", slot, errorName(err));
        fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    countMigration(counters::BytesHostToDevice, counters::NsHostToDevice, "to", slot, secondsSince(t0));
}

void DiscreteStorage::download(unsigned slot, Queue& queue) {
    trace::Scope span({static_cast<int>(slot), "migrations"}, "download");
    span.add(trace::num("bytes", static_cast<double>(bytes_)));
    const auto t0 = std::chrono::steady_clock::now();
    cl_command_queue q = queue.backendQueue(slot);
    Copy& c = copies_[slot];
    cl_event ready = readyOn(slot);
    const backend::WaitList wait(&ready, ready ? 1 : 0);
    cl_int err = backend::enqueueAndWait([&](cl_event* done) {
        if (!isImage_) return backend::enqueueRead(q, c.mem, 0, bytes_, host(), wait, done);
        size_t origin[3] = {0, 0, 0};
        return backend::enqueueReadImage(q, c.mem, origin, image_.region, transferRowPitch(), transferSlicePitch(), host(),
                                         wait, done);
    });
    if (err != CL_SUCCESS) {
        HETERO_LOG(Warn, "copying from slot %u failed: %s", slot, errorName(err));
        fail(CL_OUT_OF_RESOURCES);
    }
    countMigration(counters::BytesDeviceToHost, counters::NsDeviceToHost, "from", slot, secondsSince(t0));
}

void DiscreteStorage::countMigration(counters::Counter bytes, counters::Counter ns, const char* direction, unsigned slot,
                             double seconds) {
    counters::add(bytes, bytes_);
    counters::add(ns, static_cast<uint64_t>(seconds * 1e9));
    HETERO_LOG(Info, "moved %zu bytes %s slot %u in %.3f ms (%.2f GB/s, %s host memory)", bytes_, direction, slot,
               seconds * 1e3, seconds > 0 ? double(bytes_) / seconds / 1e9 : 0.0, hostPinned() ? "pinned" : "ordinary");
}

void DiscreteStorage::makeHostFresh(Queue& queue) {
    waitForHostCopyUsers();
    if (hostFresh()) return;
    int from = freshSlot(Backends::instance().primarySlot());
    if (from < 0) {  // nothing was ever written: any contents are right
        host();
        setHostVersion(version_);
        return;
    }
    download(static_cast<unsigned>(from), queue);
    setHostVersion(version_);
}

void DiscreteStorage::prepareHostOverwrite() {
    waitForHostCopyUsers();
    host();
    // Until the write that overwrites it is recorded, the old contents are gone from here.
    setHostVersion(kNoVersion);
}

bool DiscreteStorage::testFailMirror() {
    static std::atomic<bool> pending = [] {
        auto v = config::get("HETERO_TEST_FAIL_MIRROR", "test_fail_mirror");
        return v && *v == "1";
    }();
    return pending.load(std::memory_order_relaxed) && pending.exchange(false);
}

bool DiscreteStorage::testWritesDirect() {
    static const bool on = [] {
        auto v = config::get("HETERO_TEST_WRITES_DIRECT", "test_writes_direct");
        return v && *v == "1";
    }();
    return on;
}

void DiscreteStorage::hostCopyReadUntil(cl_event sent) {
    hostMemory_->readUntil(sent);
    if (aliasSlot_ >= 0) {
        Copy& cpu = copies_[aliasSlot_];
        if (cpu.ready || cpu.later || !hostCopyReaders_.empty()) waitForHostCopyUsers();
    }
    hostCopyReaders_.push_back(backend::Event::retained(sent));
}

void DiscreteStorage::hostCopyHolds(uint64_t version) {
    if (version == version_) setHostVersion(version_);
}

bool DiscreteStorage::sendsHostCopy() const {
    // From ordinary memory a transfer is not asynchronous; an image's host copy has its own pitches.
    return hostPinned() && !isImage_;
}

void DiscreteStorage::mirrorHostWrite(Queue& queue, unsigned writtenOn) {
    if (!sendsHostCopy() || hostVersion_ != version_) return;
    for (unsigned slot : Backends::instance().gpuSlots()) {
        Copy& c = copies_[slot];
        // A slot of writtenOn's device splits over writtenOn's objects (one_device_split.hpp).
        if (slot == writtenOn || static_cast<int>(slot) == aliasSlot_ || c.version == version_ ||
            context_->sameBackend(slot, writtenOn))
            continue;
        cl_int err = sendHostCopy(slot, queue.backendQueue(slot), testFailMirror());
        if (err != CL_SUCCESS)  // the copy stays stale: whoever needs it brings it
            HETERO_LOG(Warn, "copying a host write on to slot %u failed: %s", slot, errorName(err));
    }
}

cl_int DiscreteStorage::sendHostCopy(unsigned slot, cl_command_queue q, bool failOnBackend) {
    trace::Scope span({static_cast<int>(slot), "migrations"}, "send");
    span.add(trace::num("bytes", static_cast<double>(bytes_)));
    Copy& c = copies_[slot];
    cl_mem m = backendMem(slot);
    cl_event earlier = readyFor(slot, q);  // whatever still uses the old contents there
    cl_event sent = nullptr;
    cl_int err = CL_SUCCESS;
    if (failOnBackend) {  // the transfer fails on the backend, after what it waited for
        if (earlier) backend::waitFor(earlier);
        sent = backend::userEvent(context_->backend(slot), &err).release();
        if (sent) backend::complete(sent, CL_OUT_OF_RESOURCES);
    } else {
        err = backend::enqueueWrite(q, m, 0, bytes_, host(), backend::WaitList(&earlier, earlier ? 1 : 0), &sent);
    }
    if (err != CL_SUCCESS) return err;
    // Flushed: work of another queue may wait for it (a split's kernel).
    backend::flush(q);
    c.ready = backend::Event(sent);
    c.readyQueue = q;
    c.later.reset();
    c.version = version_;
    promised_[slot] = false;
    mirrors_.push_back({slot, version_, backend::Event::retained(sent)});
    hostMemory_->readUntil(sent);
    hostCopyReaders_.push_back(backend::Event::retained(sent));
    counters::add(counters::BytesHostToDevice, bytes_);
    HETERO_LOG(Info, "sent %zu bytes to slot %u from pinned host memory, without waiting", bytes_, slot);
    return CL_SUCCESS;
}

bool DiscreteStorage::canSendWithoutWaiting(unsigned slot) {
    if (!sendsHostCopy() || static_cast<int>(slot) == aliasSlot_ || !hostFresh()) return false;
    if (aliasSlot_ < 0) return true;
    // The host copy may be current only once the CPU slot's command on it completes, and a backend
    // queue of another device cannot wait for that: makeFresh waits in this thread.
    const Copy& cpu = copies_[aliasSlot_];
    if (cpu.later) return false;
    return !cpu.ready || (backend::done(cpu.ready.get()) && backend::status(cpu.ready.get()) >= 0);
}

bool DiscreteStorage::sendWithoutWaiting(unsigned slot, cl_command_queue target) {
    try {
        backendMem(slot);
    } catch (const Error&) {
        return false;  // the ordinary way reports it
    }
    return sendHostCopy(slot, target) == CL_SUCCESS;
}

void DiscreteStorage::makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList, cl_command_queue target) {
    backendMem(slot);
    dropFailedBrings();
    Copy& c = copies_[slot];
    if (c.version != version_) {
        makeHostFresh(queue);  // (a host copy that is another slot's: once that slot's write is done)
        const bool alias = static_cast<int>(slot) == aliasSlot_;
        // sendHostCopy records the copy current itself; the others are done when they return.
        if (alias || !sendsHostCopy() || sendHostCopy(slot, target ? target : queue.backendQueue(slot)) != CL_SUCCESS) {
            if (!alias) upload(slot, queue);  // blocking: settles and waits for `ready` first
            c.ready.reset();
            c.readyQueue = nullptr;
            c.version = version_;
        }
    }
    if (cl_event ready = readyFor(slot, target)) waitList.push_back(ready);
}

void DiscreteStorage::bringLater(unsigned slot, std::vector<cl_event>& earlierUsers) {
    backendMem(slot);
    if (cl_event e = readyOn(slot)) earlierUsers.push_back(backend::retainEvent(e));
    Copy& c = copies_[slot];
    c.ready.reset();
    c.readyQueue = nullptr;
    promised_[slot] = false;
    c.version = version_;
}

void DiscreteStorage::wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue) {
    ++version_;
    Copy& c = copies_[slot];
    promised_[slot] = false;
    c.ready = backend::Event::retained(ready);
    c.readyQueue = ready ? readyQueue : nullptr;
    c.later.reset();
    c.version = version_;
    if (static_cast<int>(slot) == aliasSlot_) hostVersion_ = version_;
}

void DiscreteStorage::wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) {
    ++version_;
    Copy& c = copies_[slot];
    promised_[slot] = false;
    c.ready.reset();
    c.readyQueue = nullptr;
    c.later = ready;
    c.version = version_;
    if (static_cast<int>(slot) == aliasSlot_) hostVersion_ = version_;
}

void DiscreteStorage::setReady(unsigned slot, cl_event event) {
    Copy& c = copies_[slot];
    promised_[slot] = false;
    c.later.reset();
    c.ready = backend::Event::retained(event);
    c.readyQueue = nullptr;
}

void DiscreteStorage::freshLater(unsigned slot, cl_event ready) {
    setReady(slot, ready);
    copies_[slot].version = version_;
    promised_[slot] = true;
    if (static_cast<int>(slot) == aliasSlot_) hostVersion_ = version_;
}

bool DiscreteStorage::withdrawFreshLater(unsigned slot, cl_event ready) {
    std::unique_lock lock(mutex, std::try_to_lock);
    if (!lock) return false;
    Copy& c = copies_[slot];
    if (!promised_[slot] || c.ready.get() != ready) return false;
    // `ready` stays: nothing may bring the copy up to date before the launch is done with it.
    promised_[slot] = false;
    c.version = kNoVersion;
    if (static_cast<int>(slot) == aliasSlot_) hostVersion_ = kNoVersion;
    return true;
}

void DiscreteStorage::recordRefresh(unsigned slot, uint64_t from, uint64_t to,
                                    std::vector<merge::ByteRange> ranges) {
    std::lock_guard lock(refreshMutex_);
    for (Refresh& r : refreshes_)
        if (r.slot == slot) {
            r = Refresh{slot, from, to, std::move(ranges)};
            return;
        }
    refreshes_.push_back(Refresh{slot, from, to, std::move(ranges)});
}

bool DiscreteStorage::refreshRanges(unsigned slot, uint64_t from, uint64_t to,
                                    std::vector<merge::ByteRange>& ranges) {
    std::lock_guard lock(refreshMutex_);
    for (const Refresh& r : refreshes_)
        if (r.slot == slot && r.from == from && r.to == to) {  // (a record's `from` is a real version)
            ranges = r.ranges;
            return true;
        }
    return false;
}

void DiscreteStorage::wroteOnHost() {
    ++version_;
    setHostVersion(version_);
}

}  // namespace hetero
