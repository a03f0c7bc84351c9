// partBounds(): an N-way split's parts cover the flattened work-groups in order, in proportion to
// their weights, and, aligned, each part of a 2-D launch runs as one sub-launch (whole rows of
// work-groups) and of a 3-D one as few.
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <vector>

namespace tf = hetero::transform;

namespace {

tf::NDRange range(unsigned dims, std::vector<size_t> global, std::vector<size_t> local) {
    tf::NDRange r;
    r.dims = dims;
    for (unsigned d = 0; d < dims; ++d) r.global[d] = global[d], r.local[d] = local[d];
    return r;
}

void checkCover(const tf::NDRange& r, const std::vector<uint64_t>& b, size_t parts) {
    REQUIRE(b.size() == parts + 1);
    CHECK(b.front() == 0);
    CHECK(b.back() == r.numGroups());
    for (size_t i = 0; i + 1 < b.size(); ++i) CHECK(b[i] <= b[i + 1]);
}

}  // namespace

TEST_CASE("part bounds: whole rows, one sub-launch per part of a 2-D launch", "[part_bounds]") {
    // 3mm's F at EXTRALARGE: 69 x 225 work-groups, 15,525 in all; halves at 7,762 would split row 112.
    const tf::NDRange r = range(2, {2208, 1800}, {32, 8});
    REQUIRE(r.numGroups() == 15525);
    const auto b = tf::partBounds(r, {1, 1});
    checkCover(r, b, 2);
    CHECK(b[1] % 69 == 0);
    CHECK((b[1] == 7728 || b[1] == 7797));  // the row boundary nearest to half
    for (size_t i = 0; i < 2; ++i) CHECK(tf::chunkLaunches(r, b[i], b[i + 1]).size() == 1);
    // Unaligned, the bound falls inside a row, and a part runs as two sub-launches.
    const auto loose = tf::partBounds(r, {1, 1}, false);
    CHECK(loose[1] == 7762);
    CHECK(tf::chunkLaunches(r, loose[0], loose[1]).size() == 2);
    // Four unequal parts: whole rows still, and near their weights.
    const auto four = tf::partBounds(r, {1, 2, 3, 4});
    checkCover(r, four, 4);
    for (size_t i = 0; i < 4; ++i) {
        CHECK(four[i] % 69 == 0);
        CHECK(tf::chunkLaunches(r, four[i], four[i + 1]).size() == 1);
        CHECK(double(four[i + 1] - four[i]) == Approx(15525.0 * double(i + 1) / 10).margin(69));
    }
}

TEST_CASE("part bounds: a small part beside large ones is whole rows too, or none", "[part_bounds]") {
    // Two GPUs and a CPU at 1 % of 3mm's F (225 rows of 69): the CPU's part does not make the GPUs'
    // parts start inside rows; it is the two whole rows nearest to its weight.
    const tf::NDRange r = range(2, {2208, 1800}, {32, 8});
    const auto b = tf::partBounds(r, {1, 1, 0.0202});
    checkCover(r, b, 3);
    for (size_t i = 0; i < 3; ++i) {
        CHECK(b[i] % 69 == 0);
        CHECK(tf::chunkLaunches(r, b[i], b[i + 1]).size() == 1);
    }
    CHECK(b[3] - b[2] == 2 * 69);
    // Under half a row: no part at all.
    const auto none = tf::partBounds(r, {1, 1, 0.003});
    checkCover(r, none, 3);
    CHECK(none[2] == none[3]);
    CHECK(none[1] % 69 == 0);
}

TEST_CASE("part bounds: planes of a 3-D launch where they are small, else rows", "[part_bounds]") {
    // 8 x 8 groups a plane, 64 planes: a part of 2,048 groups is 32 planes.
    const tf::NDRange small = range(3, {64, 64, 64}, {8, 8, 1});
    const auto b = tf::partBounds(small, {1, 1});
    checkCover(small, b, 2);
    CHECK(b[1] % 64 == 0);
    for (size_t i = 0; i < 2; ++i) CHECK(tf::chunkLaunches(small, b[i], b[i + 1]).size() == 1);
    // 64 x 64 groups a plane, 4 planes: a plane is half a part, so rows (3 sub-launches at most).
    const tf::NDRange big = range(3, {512, 512, 4}, {8, 8, 1});
    const auto rows = tf::partBounds(big, {1, 2});
    checkCover(big, rows, 2);
    CHECK(rows[1] % 64 == 0);
    for (size_t i = 0; i < 2; ++i) CHECK(tf::chunkLaunches(big, rows[i], rows[i + 1]).size() <= 3);
}

TEST_CASE("part bounds: 1-D launches, long rows and empty parts fall where the weights say", "[part_bounds]") {
    const tf::NDRange line = range(1, {1000 * 64}, {64});
    CHECK(tf::partBounds(line, {1, 1, 2}) == std::vector<uint64_t>{0, 250, 500, 1000});
    // One row of 1,000 groups: a row is more than 1/16 of a part, so no alignment.
    const tf::NDRange wide = range(2, {64000, 8}, {64, 8});
    CHECK(tf::partBounds(wide, {1, 1}) == std::vector<uint64_t>{0, 500, 1000});
    // A weight of zero: an empty part, never a negative one.
    const auto b = tf::partBounds(line, {1, 0, 1});
    checkCover(line, b, 3);
    CHECK(b[1] == b[2]);
}
