// Storage in discrete memory: a copy per slot, created on first use, and one on the host, each
// holding a version; moving work to a slot moves only what is stale there (through the host).
// A buffer's host copy is also the CPU slot's copy (its backend buffer is created on the host
// copy's memory with CL_MEM_USE_HOST_PTR), and that memory is pinned where it can be
// (platform/memory/host_memory.hpp): the two versions move together, and the CPU slot never needs
// a transfer of its own.
#pragma once

#include "merge/changed_span.hpp"
#include "platform/memory/storage.hpp"
#include "platform/observe/counters.hpp"

namespace hetero {

class HostMemory;

class DiscreteStorage final : public Storage {
public:
    DiscreteStorage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image);
    ~DiscreteStorage() override;

    bool singleCopy() const override { return false; }
    DiscreteStorage* discrete() override { return this; }

    // --- all of these need `mutex` held ---
    cl_event readyFor(unsigned slot, cl_command_queue target) override;
    void makeFresh(unsigned slot, Queue& queue, std::vector<cl_event>& waitList, cl_command_queue target = nullptr) override;
    void makeHostFresh(Queue& queue) override;
    void wroteOn(unsigned slot, cl_event ready, cl_command_queue readyQueue = nullptr) override;
    void wroteOn(unsigned slot, const std::shared_ptr<DeferredEvent>& ready) override;
    void wroteOnHost() override;
    // The slot whose copy is the host copy (-1: none; images, application memory, no CPU slot).
    int hostAliasSlot() const { return aliasSlot_; }
    // `slot`'s copy is the host copy and in pinned memory: the GPU's driver moves it by DMA. (No
    // `mutex` needed once that copy exists: a host copy never changes its memory.)
    bool pinnedCopyOn(unsigned slot) const { return static_cast<int>(slot) == aliasSlot_ && hostPinned(); }
    // An application's write of every byte goes through the host copy when that is the CPU slot's
    // copy: copied there (prepareHostOverwrite() first), then transferred from there to the slot the
    // write runs on (from pinned memory where it is), so that it is current on both at once. Without
    // a CPU slot it does so once the context has split a launch N-way: from the host copy the write
    // goes on to every other GPU (mirrorHostWrite), which would otherwise bring it from the first
    // while the next launch runs (four H100s: docs/results/h100-session17).
    // HETERO_TEST_WRITES_DIRECT=1 (measuring only) turns it off: writes go straight to their slot as
    // with no CPU slot (docs/results/h100-session12 and -13 used it to find what a PoCL slot costs).
    bool writesThroughHostCopy() const;
    static bool testWritesDirect();
    // HETERO_TEST_FAIL_MIRROR=1 (tests only): the process's first mirrorHostWrite transfer fails.
    static bool testFailMirror();
    // Before the host overwrites every byte of the host copy: whatever still uses it is done.
    void prepareHostOverwrite();
    // A transfer reads the host copy until `sent` (an event of another slot) completes: the memory
    // is held until then, and neither the host nor the CPU slot may overwrite it before. Nothing
    // waits on `sent` by callback unless the CPU slot uses the copy while it still runs
    // (settleHostCopyReader).
    void hostCopyReadUntil(cl_event sent);
    // The write that made `version` current copied it from the host copy: that copy (and the CPU
    // slot's) holds it too, unless something was written since.
    void hostCopyHolds(uint64_t version);
    // After hostCopyHolds: the write goes on from the (pinned) host copy to every other GPU slot
    // than `writtenOn` and those of its device (they split over its objects: one_device_split.hpp),
    // on `queue`'s backend queues, without waiting, so that an N-way split finds
    // its inputs there instead of bringing them while it runs: data the host wrote reaches each
    // device once. Each transfer reads the host copy until it completes, as the write's own does.
    // A transfer that fails leaves that copy stale (Storage::checkMirrors finds out).
    void mirrorHostWrite(Queue& queue, unsigned writtenOn);
    // For a launch that submits at once (launch.cpp, launchDirect), whose argument's copy on `slot`
    // is stale: whether the current contents can be sent there from the pinned host copy without a
    // wait in this thread (the host copy is current and nothing the CPU slot runs still uses it).
    bool canSendWithoutWaiting(unsigned slot);
    // Then, with `mutex` held since: sends them on `target` (a queue of the slot), so that work
    // enqueued there after it needs no wait for the copy; false when the backend refused.
    bool sendWithoutWaiting(unsigned slot, cl_command_queue target);
    // `slot`'s copy will hold the current contents once `ready` (an event of that slot) completes:
    // a split launch brings them there in the background.
    void freshLater(unsigned slot, cl_event ready);
    // The launch that promised `slot`'s copy (freshLater with `ready`) need not bring it after all:
    // the copy is stale again (whoever needs it brings it, after `ready`), so a split whose CPU
    // computed nothing streams nothing back. Only while nobody relied on the promise (asked for the
    // copy's ready event since): false, and the promise stands, otherwise, and when the storage is
    // locked (never waits for the lock: its holder may be waiting for the caller's launch).
    bool withdrawFreshLater(unsigned slot, cl_event ready);
    // A launch uses `slot`'s copy until `done` (an event of that slot) completes, on a queue that
    // nothing else orders: whoever overwrites the copy (or the host copy, when it is this one) waits
    // for `done` first. Its version is unchanged (an N-way split's other slots, nway_split.hpp).
    // Call after makeFresh(slot): `done` must come after everything that used the copy before.
    void usedUntil(unsigned slot, cl_event done) { setReady(slot, done); }
    // `slot`'s copy is stale and a split launch's thread brings the current contents there itself
    // (from another slot's copy, through a pinned block) before its kernel on that slot: the copy
    // counts as current from now on. `earlierUsers` gets (retained) what must be done before the
    // thread overwrites the copy; usedUntil(slot, ...) must follow with an event that completes
    // only after the bring, with an error if it failed (then bringFailed(slot, version())).
    void bringLater(unsigned slot, std::vector<cl_event>& earlierUsers);
    // The version `slot`'s copy holds (kNoVersion: none), whether current or not: what a bring
    // starts from (refreshRanges).
    uint64_t copyVersion(unsigned slot) const { return copies_[slot].version; }

    // --- these need no `mutex` (a split launch's thread, while a submission may hold it) ---
    // After an N-way launch wrote this object from version `from` to `to`: `slot`'s copy, which
    // still says `from`, differs from `to` only in `ranges` (merge::lackedRanges), so a bring
    // from `to` may send it only those. The slot's earlier record goes.
    void recordRefresh(unsigned slot, uint64_t from, uint64_t to, std::vector<merge::ByteRange> ranges);
    // What a bring to `slot`, whose copy held `from` before, of version `to` must send: the
    // recorded ranges, if a record says so (true), else the whole object (false).
    bool refreshRanges(unsigned slot, uint64_t from, uint64_t to, std::vector<merge::ByteRange>& ranges);

private:
    cl_mem createBackendMem(unsigned slot) override;
    unsigned char* allocateHost() override;
    void settle(unsigned slot) override;
    bool hostPinned() const;
    // Whoever overwrites `slot`'s copy must first wait for `event` (a split launch still reads it).
    void setReady(unsigned slot, cl_event event);
    size_t transferRowPitch() const;
    size_t transferSlicePitch() const;
    void upload(unsigned slot, Queue& queue);    // host -> slot, blocking
    bool sendsHostCopy() const;  // the host copy goes to a slot without waiting (sendHostCopy)
    // Host -> slot from the pinned, current host copy, on `q` (a queue of the slot) without waiting:
    // the transfer's event becomes the copy's `ready` (on `q`, so work enqueued there after it needs
    // no wait list), and it reads the host copy until it completes (hostCopyReaders_). A transfer
    // that fails on the backend leaves the copy stale for whoever looks next (Storage::checkMirrors).
    // `failOnBackend` (HETERO_TEST_FAIL_MIRROR) stands in for such a failure.
    cl_int sendHostCopy(unsigned slot, cl_command_queue q, bool failOnBackend = false);
    void download(unsigned slot, Queue& queue);  // slot -> host, blocking
    // Waits for the transfers that still read the host copy and, where the host copy is the alias
    // slot's, for the command that last wrote it there (or still reads it there, setReady), so the
    // host may read or overwrite it.
    void waitForHostCopyUsers();
    // The alias slot is about to use its copy while hostCopyReaders_ may still read it: forgotten
    // when done, else the slot's users wait for them through a user event of the slot's backend.
    void settleHostCopyReader();
    void setHostVersion(uint64_t v);  // the host copy's version, and the alias slot's with it
    void countMigration(counters::Counter bytes, counters::Counter ns, const char* direction, unsigned slot, double seconds);

    HostMemory* hostMemory_ = nullptr;  // host_'s allocation when it is ours
    int aliasSlot_ = -1;
    const bool hostCopyOurs_;  // the host copy is our allocation (not an image's, not the application's)
    // Per slot: freshLater's promise, and nobody has asked for the copy's `ready` since (withdrawFreshLater).
    std::vector<bool> promised_;
    // Transfers of other slots that read the host copy (hostCopyReadUntil, mirrorHostWrite), kept
    // as those slots' events: a user event of the alias slot completed from a callback is made only
    // when the alias slot needs one while a transfer still runs.
    std::vector<backend::Event> hostCopyReaders_;
    struct Refresh {
        unsigned slot;
        uint64_t from, to;
        std::vector<merge::ByteRange> ranges;
    };
    std::mutex refreshMutex_;
    std::vector<Refresh> refreshes_;  // one per slot at most, guarded by refreshMutex_
};

}  // namespace hetero
