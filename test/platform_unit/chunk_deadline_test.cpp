// An adaptive split's CPU chunks end before the GPU gets to their work-groups
// (platform/split/chunk_deadline.hpp).
#include "platform/split/chunk_deadline.hpp"

#include <catch2/catch.hpp>

using hetero::groupsThatEndInTime;

namespace {

// When a chunk of n groups below `next`, started at `now`, ends sent, and when the GPU gets to it.
bool endsInTime(uint64_t n, uint64_t next, double now, double gpuFrom, double gpu, double cpu, double send) {
    return now + double(n) * cpu + send <= gpuFrom + double(next - n) * gpu;
}

}  // namespace

TEST_CASE("chunk deadline: the largest chunk that ends before the GPU gets to it, and no more",
          "[chunk_deadline]") {
    // syr2k STANDARD on an H200: 4,096 groups in 9.2 ms run whole, the CPU 28.6 us a group.
    const double gpu = 9.2e-3 / 4096, cpu = 28.6e-6, send = 0.1e-3;
    for (uint64_t next : {uint64_t{4014}, uint64_t{3850}, uint64_t{2000}, uint64_t{300}})
        for (double now : {0.0, 0.5e-3, 2.5e-3, 7.2e-3, 8.5e-3}) {
            INFO("next " << next << ", now " << now * 1e3 << " ms");
            const uint64_t n = groupsThatEndInTime(next, now, 0.0, gpu, cpu, send, 16);
            if (n > 0) {
                CHECK(n >= 16);
                CHECK(endsInTime(n, next, now, 0.0, gpu, cpu, send));
            }
            if (n < next) CHECK_FALSE(endsInTime(std::max<uint64_t>(n + 1, 16), next, now, 0.0, gpu, cpu, send));
        }
    // A third chunk of 328 groups wanted 7.2 ms into the launch: 46 end in time.
    CHECK(groupsThatEndInTime(3850, 7.2e-3, 0.0, gpu, cpu, 0.0, 16) == 46);
}

TEST_CASE("chunk deadline: none once the GPU is there, or when fewer than the CPU's cores would fit",
          "[chunk_deadline]") {
    const double gpu = 1e-6, cpu = 20e-6;
    CHECK(groupsThatEndInTime(1000, 2e-3, 0.0, gpu, cpu, 0.0, 1) == 0);         // the GPU reached group 2000
    CHECK(groupsThatEndInTime(1000, 1e-3 - 1e-9, 0.0, gpu, cpu, 0.0, 1) == 0);  // room for none
    CHECK(groupsThatEndInTime(1000, 0.0, 0.0, gpu, cpu, 0.0, 16) == 47);        // 1 ms / 21 us
    CHECK(groupsThatEndInTime(1000, 0.0, 0.0, gpu, cpu, 0.0, 48) == 0);
    // A GPU that started late leaves the CPU more time; one far slower than the CPU, every group
    // but the one it starts with.
    CHECK(groupsThatEndInTime(1000, 0.0, 1e-3, gpu, cpu, 0.0, 16) == 95);
    CHECK(groupsThatEndInTime(1000, 0.0, 0.0, 1.0, cpu, 0.0, 16) == 999);
}
