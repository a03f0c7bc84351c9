#include "platform/engine/host_reads.hpp"

#include "platform/engine/event.hpp"

#include <algorithm>

namespace hetero {

void HostReadsInFlight::note(const void* begin, size_t bytes, Ref<Event> event) {
    if (!event || bytes == 0) return;
    const auto at = reinterpret_cast<uintptr_t>(begin);
    std::lock_guard lock(mutex_);
    pruneLocked();
    reads_.push_back({at, at + bytes, std::move(event)});
}

void HostReadsInFlight::takeOver(HostReadsInFlight& other) {
    if (&other == this) return;
    std::vector<Read> theirs = other.snapshot();
    if (theirs.empty()) return;
    std::lock_guard lock(mutex_);
    pruneLocked();
    for (auto& r : theirs)
        if (std::none_of(reads_.begin(), reads_.end(), [&](const Read& mine) { return mine.event.get() == r.event.get(); }))
            reads_.push_back(std::move(r));
}

void HostReadsInFlight::waitForReadsInto(const void* begin, size_t bytes) {
    const auto from = reinterpret_cast<uintptr_t>(begin), to = from + bytes;
    std::vector<Ref<Event>> overlapping;
    {
        std::lock_guard lock(mutex_);
        pruneLocked();
        for (const auto& r : reads_)
            if (r.begin < to && from < r.end) overlapping.push_back(r.event);
    }
    // Outside the lock: a read's completion may run callbacks that enqueue onto this queue.
    for (const auto& e : overlapping)
        if (e->isResolvable()) e->wait();
}

std::vector<HostReadsInFlight::Read> HostReadsInFlight::snapshot() {
    std::lock_guard lock(mutex_);
    pruneLocked();
    return reads_;
}

void HostReadsInFlight::pruneLocked() {
    reads_.erase(std::remove_if(reads_.begin(), reads_.end(), [](const Read& r) { return r.event->knownComplete(); }),
                 reads_.end());
}

}  // namespace hetero
