// chunkLaunches(): the sub-launches of a flattened work-group range run every group of the range
// exactly once and no other, with the original work-group shape, for 1/2/3-D, offsets and partial
// last groups; their extra argument describes the original launch.
#include "launch_layout.hpp"
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <map>
#include <random>

namespace tf = hetero::transform;
namespace dt = hetero::transform::detail;

namespace {

uint64_t groupsIn(const tf::NDRange& r, unsigned d) {
    return d < r.dims ? (r.global[d] + r.local[d] - 1) / r.local[d] : 1;
}

// Enumerates the work-groups a sub-launch runs, as original group coordinates, and checks that each
// has the size the original launch gave it.
void checkAndCount(const tf::NDRange& r, const tf::SubLaunch& s, std::map<uint64_t, int>& seen) {
    REQUIRE(s.dims == r.dims);
    uint64_t first[3], count[3];
    for (unsigned d = 0; d < 3; ++d) {
        REQUIRE(s.local[d] == (d < r.dims ? r.local[d] : 1));
        if (d >= r.dims) {
            REQUIRE(s.global[d] == 1);
            REQUIRE(s.offset[d] == 0);
            first[d] = 0;
            count[d] = 1;
            continue;
        }
        // Sub-launches start on a group boundary of the original launch.
        REQUIRE(s.offset[d] >= r.offset[d]);
        REQUIRE((s.offset[d] - r.offset[d]) % r.local[d] == 0);
        first[d] = (s.offset[d] - r.offset[d]) / r.local[d];
        count[d] = (s.global[d] + s.local[d] - 1) / s.local[d];
        REQUIRE(s.global[d] > 0);
        REQUIRE(s.offset[d] + s.global[d] <= r.offset[d] + r.global[d]);
        // Only the last group of the original launch may be partial, and it keeps its size.
        if (s.global[d] % s.local[d] != 0) REQUIRE(s.offset[d] + s.global[d] == r.offset[d] + r.global[d]);
    }
    const uint64_t n0 = groupsIn(r, 0), n1 = groupsIn(r, 1);
    for (uint64_t g2 = first[2]; g2 < first[2] + count[2]; ++g2)
        for (uint64_t g1 = first[1]; g1 < first[1] + count[1]; ++g1)
            for (uint64_t g0 = first[0]; g0 < first[0] + count[0]; ++g0) ++seen[g0 + n0 * (g1 + n1 * g2)];

    REQUIRE(s.extraArgs.size() == 1);
    REQUIRE(s.extraArgs[0].size == dt::kChunkInfoWords * 8);
    uint64_t info[dt::kChunkInfoWords];
    std::memcpy(info, s.extraArgs[0].value.data(), sizeof info);
    for (unsigned d = 0; d < 3; ++d) {
        CHECK(info[dt::kGroupOrigin + d] == first[d]);
        CHECK(info[dt::kNumGroups + d] == groupsIn(r, d));
        CHECK(info[dt::kGlobalSize + d] == (d < r.dims ? r.global[d] : 1));
        CHECK(info[dt::kGlobalOffset + d] == (d < r.dims ? r.offset[d] : 0));
    }
}

void checkRange(const tf::NDRange& r, uint64_t begin, uint64_t end) {
    INFO("dims " << r.dims << " global " << r.global[0] << "," << r.global[1] << "," << r.global[2] << " local "
                 << r.local[0] << "," << r.local[1] << "," << r.local[2] << " range [" << begin << "," << end << ")");
    const auto launches = tf::chunkLaunches(r, begin, end);
    const size_t maxBoxes[] = {0, 1, 3, 5};
    REQUIRE(launches.size() <= maxBoxes[r.dims]);
    std::map<uint64_t, int> seen;
    for (const auto& s : launches) checkAndCount(r, s, seen);
    REQUIRE(seen.size() == end - begin);
    for (auto& [id, times] : seen) {
        REQUIRE(id >= begin);
        REQUIRE(id < end);
        REQUIRE(times == 1);
    }
}

tf::NDRange randomRange(std::mt19937_64& rng, unsigned dims, bool partial) {
    tf::NDRange r;
    r.dims = dims;
    for (unsigned d = 0; d < dims; ++d) {
        r.local[d] = 1 + rng() % 8;
        const size_t groups = 1 + rng() % 7;
        r.global[d] = groups * r.local[d] - (partial && r.local[d] > 1 ? rng() % r.local[d] : 0);
        r.offset[d] = rng() % 3 == 0 ? rng() % 100 : 0;
    }
    return r;
}

}  // namespace

TEST_CASE("transform_unit.chunk_launches.num_groups_counts_partial_groups") {
    tf::NDRange r;
    r.dims = 2;
    r.global[0] = 10;
    r.local[0] = 4;
    r.global[1] = 6;
    r.local[1] = 3;
    CHECK(r.numGroups() == 3 * 2);
    r.dims = 1;
    CHECK(r.numGroups() == 3);
}

TEST_CASE("transform_unit.chunk_launches.random_ranges_cover_each_group_once") {
    std::mt19937_64 rng(12345);
    for (unsigned dims = 1; dims <= 3; ++dims) {
        for (int iter = 0; iter < 300; ++iter) {
            const tf::NDRange r = randomRange(rng, dims, iter % 2 == 1);
            const uint64_t n = r.numGroups();
            const uint64_t b = rng() % n;
            const uint64_t e = b + 1 + rng() % (n - b);
            checkRange(r, b, e);
        }
    }
}

TEST_CASE("transform_unit.chunk_launches.every_range_of_a_small_3d_grid") {
    tf::NDRange r;
    r.dims = 3;
    r.global[0] = 7; r.local[0] = 2;  // 4 groups, last partial
    r.global[1] = 9; r.local[1] = 3;  // 3 groups
    r.global[2] = 5; r.local[2] = 2;  // 3 groups, last partial
    r.offset[0] = 3; r.offset[1] = 0; r.offset[2] = 11;
    const uint64_t n = r.numGroups();
    REQUIRE(n == 36);
    for (uint64_t b = 0; b < n; ++b)
        for (uint64_t e = b + 1; e <= n; ++e) checkRange(r, b, e);
}

TEST_CASE("transform_unit.chunk_launches.empty_and_clamped_ranges") {
    tf::NDRange r;
    r.dims = 1;
    r.global[0] = 64;
    r.local[0] = 8;
    CHECK(tf::chunkLaunches(r, 3, 3).empty());
    CHECK(tf::chunkLaunches(r, 5, 2).empty());
    CHECK(tf::chunkLaunches(r, 8, 100).empty());
    const auto all = tf::chunkLaunches(r, 6, 100);  // end past the grid: clamped to 8 groups
    REQUIRE(all.size() == 1);
    CHECK(all[0].offset[0] == 48);
    CHECK(all[0].global[0] == 16);
}

TEST_CASE("transform_unit.abort_extra_args.launch_id_as_uint") {
    tf::NDRange r;
    const auto args = tf::abortExtraArgs(r, 0xA1B2C3D4u);
    REQUIRE(args.size() == 1);
    REQUIRE(args[0].size == 4);
    uint32_t v = 0;
    std::memcpy(&v, args[0].value.data(), 4);
    CHECK(v == 0xA1B2C3D4u);
}
