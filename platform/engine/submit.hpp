// How a command uses memory objects, and its submission with them: where it should run
// (placeFor), and its backend work enqueued after every object was brought to the slot, with the
// writes recorded (submitWith). Used by the API's enqueue functions and the launch policy.
#pragma once

#include "devices/backend_commands.hpp"
#include "platform/engine/queue.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/support/error.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace hetero {

// How a command uses a memory object.
struct Access {
    Mem* mem;
    bool writes;
    bool overwritesAll;  // writes every byte of the storage: no need to bring the old contents
};

// Where a command touching `accesses` should run: a slot holding the current contents of the
// objects it reads (or partially writes), preferring the primary slot.
inline int placeFor(const std::vector<Access>& accesses) {
    unsigned primary = Backends::instance().primarySlot();
    for (const auto& a : accesses) {
        if (a.overwritesAll) continue;
        std::lock_guard lock(a.mem->storage().mutex);
        int s = a.mem->storage().freshSlot(primary);
        if (s >= 0) return s;
    }
    return static_cast<int>(primary);
}

// Runs `enqueue` on the submission's slot after bringing every object there, then records the
// writes. `enqueue` gets the full wait list, enqueues its work on sub.backendQueue and returns its
// backend event (or null with Submission::deferredDone set).
inline cl_event submitWith(Submission& sub, const std::vector<Access>& accesses,
                           const std::function<cl_event(std::vector<cl_event>&)>& enqueue) {
    // Lock each storage once, in address order (sub-buffers share their root's storage).
    std::vector<Storage*> storages;
    for (const auto& a : accesses) storages.push_back(&a.mem->storage());
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    std::vector<std::unique_lock<std::mutex>> locks;
    for (Storage* s : storages) locks.emplace_back(s->mutex);

    unsigned slot = static_cast<unsigned>(sub.slot);
    std::vector<cl_event> waitList = sub.waitsOn(sub.backendQueue);
    for (const auto& a : accesses) {
        Storage& s = a.mem->storage();
        if (a.overwritesAll) {
            s.backendMem(slot);
            if (cl_event ready = s.readyFor(slot, sub.backendQueue)) waitList.push_back(ready);
        } else {
            s.makeFresh(slot, sub.queue, waitList, sub.backendQueue);
        }
    }
    if (sub.backendQueue) waitList = waitsForCommandOn(sub.backendQueue, waitList);
    cl_event done = enqueue(waitList);
    // `enqueue` may leave the work without an event (Submission::deferredDone).
    for (const auto& a : accesses) {
        if (!a.writes) continue;
        if (sub.deferredDone && !done)
            a.mem->storage().wroteOn(slot, sub.deferredDone);
        else
            a.mem->storage().wroteOn(slot, done, sub.backendQueue);
    }
    return done;
}

}  // namespace hetero
