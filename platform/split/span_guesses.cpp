#include "platform/split/span_guesses.hpp"

#include <tuple>

namespace hetero {

bool SpanGuesses::Key::operator<(const Key& o) const {
    auto tie = [](const Key& k) {
        const transform::NDRange& r = k.range;
        return std::tie(k.slot, k.target, k.bytes, r.dims, r.offset[0], r.offset[1], r.offset[2], r.global[0],
                        r.global[1], r.global[2], r.local[0], r.local[1], r.local[2]);
    };
    return tie(*this) < tie(o);
}

merge::ByteRange SpanGuesses::guess(const Key& key) {
    std::lock_guard lock(mutex_);
    auto it = spans_.find(key);
    return it == spans_.end() ? merge::ByteRange{0, 0} : it->second;
}

void SpanGuesses::remember(const Key& key, merge::ByteRange found) {
    std::lock_guard lock(mutex_);
    // A kernel launched at ever new shapes would grow the map without end: keep the latest few.
    if (spans_.size() >= kMostKept && !spans_.count(key)) spans_.clear();
    spans_[key] = found;
}

}  // namespace hetero
