// merge::lackedRanges (merge/changed_span.hpp): after an N-way launch, where a part's copy of an
// object lacks the merged result, from the spans each part changed (spans[0]: the primary's).
#include "merge/changed_span.hpp"

#include <catch2/catch.hpp>

#include <vector>

using hetero::merge::ByteRange;
using hetero::merge::lackedRanges;

namespace {
const ByteRange kNothing{0, 0};
}

TEST_CASE("lacked ranges: two halves lack each other's", "[lacked_ranges]") {
    const std::vector<ByteRange> spans{{0, 100}, {100, 200}};
    CHECK(lackedRanges(spans, 1) == std::vector<ByteRange>{{0, 100}});
    CHECK(lackedRanges(spans, 0) == std::vector<ByteRange>{{100, 200}});
}

TEST_CASE("lacked ranges: a middle part lacks both sides, not its own span", "[lacked_ranges]") {
    const std::vector<ByteRange> spans{{0, 100}, {100, 200}, {200, 300}, {300, 400}};
    CHECK(lackedRanges(spans, 1) == std::vector<ByteRange>{{0, 100}, {200, 400}});
    CHECK(lackedRanges(spans, 2) == std::vector<ByteRange>{{0, 200}, {300, 400}});
    CHECK(lackedRanges(spans, 3) == std::vector<ByteRange>{{0, 300}});
}

TEST_CASE("lacked ranges: where another part's span reaches into its own, all of the others'", "[lacked_ranges]") {
    // Interleaved writes: every span covers nearly everything; the part's own values there may
    // not be the merged ones.
    const std::vector<ByteRange> spans{{0, 396}, {4, 400}};
    CHECK(lackedRanges(spans, 1) == std::vector<ByteRange>{{0, 396}});
    const std::vector<ByteRange> touching{{0, 150}, {100, 200}, {300, 400}};
    CHECK(lackedRanges(touching, 1) == std::vector<ByteRange>{{0, 400}});
}

TEST_CASE("lacked ranges: nothing changed elsewhere, nothing lacked", "[lacked_ranges]") {
    CHECK(lackedRanges({kNothing, {100, 200}}, 1).empty());
    CHECK(lackedRanges({kNothing, kNothing, kNothing}, 2).empty());
    // The part changed nothing itself: it lacks everything the others changed.
    CHECK(lackedRanges({{0, 64}, kNothing, {640, 700}}, 1) == std::vector<ByteRange>{{0, 700}});
    // Its span outside the others' bounds: one range.
    CHECK(lackedRanges({{100, 200}, {500, 600}}, 1) == std::vector<ByteRange>{{100, 200}});
    CHECK(lackedRanges({{100, 200}, {200, 300}}, 1) == std::vector<ByteRange>{{100, 200}});
}
