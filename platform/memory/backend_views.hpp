// The views one slot has of a buffer's backend memory (sub-buffers, images made from the buffer),
// in the order they were made, so that they go in an order every backend survives.
//
// NVIDIA's OpenCL (driver 580) crashes when a sub-buffer is released while a sub-buffer of the same
// parent that overlaps it, made after it and used, is still alive; released the other way round,
// or without overlap, they are fine (bench/tools/subbuffer_race.c, mode overlap). So a view whose
// object is gone is released only once no later view overlapping it remains; until then it waits
// here, and whatever is left goes, newest first, with the storage.
#pragma once

#include <CL/cl.h>

#include <cstddef>
#include <mutex>
#include <vector>

namespace hetero {

// Thread-safe on its own: a view's object may go on any thread, also one whose progress somebody
// holding the storage's mutex waits for (a split's worker), so retiring must not need that mutex.
class BackendViews {
public:
    void add(cl_mem view, size_t begin, size_t end);
    // `view`'s object is gone: returns the views that may be released now (the caller releases
    // them, outside any lock of its own: backend::releaseView).
    std::vector<cl_mem> retire(cl_mem view);
    // Every view left, newest first (the storage is going).
    std::vector<cl_mem> takeAll();

private:
    struct View {
        cl_mem mem;
        size_t begin, end;  // bytes within the root
        bool retired;
    };
    std::mutex mutex_;
    std::vector<View> views_;  // oldest first
};

}  // namespace hetero
