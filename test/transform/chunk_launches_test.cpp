// transform.chunk_launches.*: the launch helpers decompose flattened work-group ranges into
// sub-launches that run exactly the requested work-groups (no OpenCL needed).
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <set>
#include <sstream>

namespace {

namespace tf = hetero::transform;

uint64_t groupsIn(const tf::NDRange& range, unsigned d)
{
    return d < range.dims ? (range.global[d] + range.local[d] - 1) / range.local[d] : 1;
}

std::string describe(const tf::NDRange& range, uint64_t begin, uint64_t end)
{
    std::ostringstream text;
    text << range.dims << "-D global";
    for (unsigned d = 0; d < range.dims; d++)
        text << " " << range.global[d];
    text << " local";
    for (unsigned d = 0; d < range.dims; d++)
        text << " " << range.local[d];
    text << " offset";
    for (unsigned d = 0; d < range.dims; d++)
        text << " " << range.offset[d];
    text << " groups [" << begin << "," << end << ")";
    return text.str();
}

// The flattened IDs of the work-groups the sub-launches run; fails on overlap or misplaced boxes.
std::multiset<uint64_t> coveredGroups(const tf::NDRange& range, const std::vector<tf::SubLaunch>& subs)
{
    std::multiset<uint64_t> covered;
    for (const tf::SubLaunch& sub : subs) {
        REQUIRE(sub.dims == range.dims);
        uint64_t origin[3] = {0, 0, 0}, count[3] = {1, 1, 1};
        for (unsigned d = 0; d < range.dims; d++) {
            INFO("dimension " << d);
            REQUIRE(sub.local[d] == range.local[d]);
            REQUIRE(sub.offset[d] >= range.offset[d]);
            REQUIRE((sub.offset[d] - range.offset[d]) % range.local[d] == 0);
            REQUIRE(sub.global[d] > 0);
            // Within the original NDRange; only a box reaching its end may have a partial group.
            REQUIRE(sub.offset[d] + sub.global[d] <= range.offset[d] + range.global[d]);
            if (sub.offset[d] + sub.global[d] != range.offset[d] + range.global[d])
                REQUIRE(sub.global[d] % range.local[d] == 0);
            origin[d] = (sub.offset[d] - range.offset[d]) / range.local[d];
            count[d] = (sub.global[d] + range.local[d] - 1) / range.local[d];
        }
        const uint64_t n0 = groupsIn(range, 0), n1 = groupsIn(range, 1);
        for (uint64_t g2 = origin[2]; g2 < origin[2] + count[2]; g2++)
            for (uint64_t g1 = origin[1]; g1 < origin[1] + count[1]; g1++)
                for (uint64_t g0 = origin[0]; g0 < origin[0] + count[0]; g0++)
                    covered.insert(g0 + n0 * (g1 + n1 * g2));
    }
    return covered;
}

tf::NDRange randomRange(std::mt19937_64& rng, bool uniform)
{
    tf::NDRange range;
    range.dims = 1 + static_cast<unsigned>(rng() % 3);
    for (unsigned d = 0; d < range.dims; d++) {
        range.local[d] = 1 + rng() % 8;
        size_t groups = 1 + rng() % (range.dims == 1 ? 40 : range.dims == 2 ? 9 : 5);
        range.global[d] = groups * range.local[d];
        if (!uniform && range.local[d] > 1 && rng() % 2)
            range.global[d] -= 1 + rng() % (range.local[d] - 1);  // last group partial
        range.offset[d] = rng() % 3 == 0 ? 0 : rng() % 100;
    }
    return range;
}

void checkDecomposition(const tf::NDRange& range, uint64_t begin, uint64_t end)
{
    INFO(describe(range, begin, end));
    std::vector<tf::SubLaunch> subs = tf::chunkLaunches(range, begin, end);
    const size_t maxBoxes[] = {0, 1, 3, 5};
    CHECK(subs.size() <= maxBoxes[range.dims]);
    std::multiset<uint64_t> covered = coveredGroups(range, subs);
    std::multiset<uint64_t> wanted;
    for (uint64_t g = begin; g < end; g++)
        wanted.insert(g);
    REQUIRE(covered == wanted);
    for (const tf::SubLaunch& sub : subs)
        CHECK(sub.extraArgs.size() == subs.front().extraArgs.size());
}

}  // namespace

TEST_CASE("transform.chunk_launches.num_groups", "[transform]")
{
    tf::NDRange range;
    range.dims = 3;
    range.global[0] = 10; range.global[1] = 6; range.global[2] = 4;
    range.local[0] = 4; range.local[1] = 3; range.local[2] = 4;
    CHECK(range.numGroups() == 3 * 2 * 1);
    range.dims = 1;
    CHECK(range.numGroups() == 3);
}

TEST_CASE("transform.chunk_launches.cover_exactly_the_range", "[transform]")
{
    std::mt19937_64 rng(7);
    for (int i = 0; i < 400; i++) {
        tf::NDRange range = randomRange(rng, true);
        uint64_t n = range.numGroups();
        uint64_t begin = rng() % (n + 1);
        uint64_t end = begin + rng() % (n - begin + 1);
        checkDecomposition(range, begin, end);
    }
}

TEST_CASE("transform.chunk_launches.whole_and_single_groups", "[transform]")
{
    std::mt19937_64 rng(11);
    for (int i = 0; i < 60; i++) {
        tf::NDRange range = randomRange(rng, true);
        uint64_t n = range.numGroups();
        checkDecomposition(range, 0, n);
        checkDecomposition(range, n - 1, n);
        checkDecomposition(range, 0, 1);
        checkDecomposition(range, n / 2, n / 2);  // empty: runs nothing
    }
}

TEST_CASE("transform.chunk_launches.partial_last_groups", "[transform]")
{
    std::mt19937_64 rng(13);
    for (int i = 0; i < 300; i++) {
        tf::NDRange range = randomRange(rng, false);
        uint64_t n = range.numGroups();
        uint64_t begin = rng() % (n + 1);
        checkDecomposition(range, begin, n);
    }
}

TEST_CASE("transform.abort_extra_args.carry_the_launch_id", "[transform]")
{
    tf::NDRange range;
    range.global[0] = 64;
    range.local[0] = 8;
    std::vector<tf::ExtraArg> extra = tf::abortExtraArgs(range, 0xC0FFEEu);
    REQUIRE_FALSE(extra.empty());
    REQUIRE(extra[0].size == sizeof(uint32_t));
    REQUIRE(extra[0].value.size() == sizeof(uint32_t));
    uint32_t id = 0;
    std::memcpy(&id, extra[0].value.data(), sizeof id);
    CHECK(id == 0xC0FFEEu);
}

TEST_CASE("transform.chunk_launches.group_split", "[transform]")
{
    // FluidiCL 6.3: a split chunk runs the same work-items, in work-groups `split` times smaller
    // along dimension 0, and tells the variant the factor (ulong16 word sc).
    std::mt19937_64 rng(17);
    for (int i = 0; i < 200; i++) {
        tf::NDRange range = randomRange(rng, true);
        const uint64_t n = range.numGroups();
        const uint64_t begin = rng() % (n + 1), end = begin + rng() % (n - begin + 1);
        const unsigned split = 1 + static_cast<unsigned>(rng() % 8);
        INFO(describe(range, begin, end) << " split " << split);
        const auto whole = tf::chunkLaunches(range, begin, end);
        const auto parts = tf::chunkLaunches(range, begin, end, split);
        REQUIRE(parts.size() == whole.size());
        const unsigned used = range.local[0] % split == 0 ? split : 1;  // not a divisor: not split
        for (size_t s = 0; s < parts.size(); s++) {
            for (unsigned d = 0; d < 3; d++) {
                CHECK(parts[s].offset[d] == whole[s].offset[d]);
                CHECK(parts[s].global[d] == whole[s].global[d]);
                CHECK(parts[s].local[d] == (d == 0 ? whole[s].local[d] / used : whole[s].local[d]));
            }
            uint64_t info[16];
            REQUIRE(parts[s].extraArgs.at(0).value.size() == sizeof info);
            std::memcpy(info, parts[s].extraArgs[0].value.data(), sizeof info);
            CHECK(info[12] == used);
        }
    }
}

TEST_CASE("transform.group_split_for.keeps_the_compute_units_busy", "[transform]")
{
    tf::NDRange range;
    range.global[0] = 1024;
    range.local[0] = 256;
    CHECK(tf::groupSplitFor(range, 16, 16) == 1);   // enough work-groups
    CHECK(tf::groupSplitFor(range, 100, 16) == 1);
    CHECK(tf::groupSplitFor(range, 4, 16) == 4);    // 4 groups x 4 = 16
    CHECK(tf::groupSplitFor(range, 1, 16) == 16);
    CHECK(tf::groupSplitFor(range, 3, 16) == 4);    // ceil(16/3) = 6: the largest divisor of 256 up to 6
    CHECK(tf::groupSplitFor(range, 1, 1000) == 256);  // never below one work-item per group
    range.local[0] = 7;
    CHECK(tf::groupSplitFor(range, 1, 4) == 1);     // 7 has no divisor from 2 to 4
    CHECK(tf::groupSplitFor(range, 1, 16) == 7);
    CHECK(tf::groupSplitFor(range, 0, 16) == 1);
}

TEST_CASE("transform.group_split_allowed.only_without_barriers_local_memory_or_partial_groups", "[transform]")
{
    tf::KernelAnalysis k;
    k.splittable = true;
    tf::NDRange range;
    range.global[0] = 1024;
    range.local[0] = 64;
    CHECK(tf::groupSplitAllowed(k, range));
    tf::KernelAnalysis barrier = k, local = k, localAtomics = k, whole = k;
    barrier.usesBarrier = true;            // sub-groups and work_group_* count as barriers
    local.usesLocalMemory = true;
    localAtomics.usesLocalAtomics = true;
    whole.splittable = false;
    CHECK_FALSE(tf::groupSplitAllowed(barrier, range));
    CHECK_FALSE(tf::groupSplitAllowed(local, range));
    CHECK_FALSE(tf::groupSplitAllowed(localAtomics, range));
    CHECK_FALSE(tf::groupSplitAllowed(whole, range));
    tf::NDRange partial = range;
    partial.global[0] = 1000;              // a partial last group along dimension 0
    CHECK_FALSE(tf::groupSplitAllowed(k, partial));
    tf::NDRange single = range;
    single.local[0] = 1;
    CHECK_FALSE(tf::groupSplitAllowed(k, single));
}
