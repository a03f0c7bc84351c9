// Where each part of a kernel's last N-way launch changed each object it wrote, kept per kernel so
// that the next launch of the same shape can start reading a part's results back right behind its
// kernel, before its span search says where they are (nway_split.cpp): the host's round trip
// between the two was the tail's largest step (four H100s, docs/results/h100-session18). A guess
// is only a guess: the launch uses what it read only where the span found covers no byte outside
// it (merge/changed_span.hpp: outside the found span the part's copy equals orig, so a wider read
// merges to the same result).
#pragma once

#include "merge/changed_span.hpp"
#include "transform/transform.hpp"

#include <map>
#include <mutex>

namespace hetero {

class SpanGuesses {
public:
    // What a part's span is known by: its slot, the written object (its index among the launch's
    // targets, and its size) and the launch's NDRange. Not the part's work-groups: where shares
    // move a little, last time's span is still the best guess there is.
    struct Key {
        unsigned slot = 0;
        size_t target = 0, bytes = 0;
        transform::NDRange range;
        bool operator<(const Key& o) const;
    };
    // The span found last time ({0, 0}: none known, or nothing changed).
    merge::ByteRange guess(const Key& key);
    void remember(const Key& key, merge::ByteRange found);

private:
    static constexpr size_t kMostKept = 256;
    std::mutex mutex_;
    std::map<Key, merge::ByteRange> spans_;
};

// Whether a read of `read` holds every byte of the span `found` changed (true when nothing changed).
inline bool covers(merge::ByteRange read, merge::ByteRange found) {
    return found.first >= found.second || (read.first <= found.first && found.second <= read.second);
}

}  // namespace hetero
