// Short data-parallel work on kept threads (platform/support/parallel_for.hpp).
#include "platform/support/parallel_for.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

using namespace hetero;

TEST_CASE("parallelFor calls the body once per index and returns after the last call", "[parallel_for]") {
    for (unsigned count : {0u, 1u, 2u, 7u, 64u}) {
        std::vector<std::atomic<int>> calls(count);
        std::atomic<int> running{0};
        parallelFor(count, [&](unsigned i) {
            ++running;
            std::this_thread::sleep_for(std::chrono::microseconds(200 * (i % 3)));
            ++calls[i];
            --running;
        });
        CHECK(running.load() == 0);
        for (unsigned i = 0; i < count; ++i) CHECK(calls[i].load() == 1);
    }
}

TEST_CASE("parallelFor from several threads at once: each batch complete when its call returns", "[parallel_for]") {
    std::vector<std::thread> callers;
    std::atomic<int> wrong{0};
    for (int c = 0; c < 4; ++c)
        callers.emplace_back([&wrong, c] {
            for (int round = 0; round < 50; ++round) {
                const unsigned count = 2 + (c + round) % 9;
                std::vector<std::atomic<int>> calls(count);
                parallelFor(count, [&](unsigned i) { ++calls[i]; });
                for (unsigned i = 0; i < count; ++i) wrong += calls[i].load() != 1;
            }
        });
    for (auto& t : callers) t.join();
    CHECK(wrong.load() == 0);
}

TEST_CASE("copyInParallel copies every byte, whatever the size", "[parallel_for]") {
    // Below, at and above where it starts using threads, and sizes no thread count divides.
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{4095}, (size_t{4} << 20) - 1, size_t{4} << 20,
                         (size_t{17} << 20) + 12345}) {
        std::vector<uint8_t> from(bytes), to(bytes + 64, 0xee);
        for (size_t i = 0; i < bytes; ++i) from[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
        copyInParallel(to.data() + 32, from.data(), bytes);
        size_t wrong = 0;
        for (size_t i = 0; i < bytes; ++i) wrong += to[32 + i] != from[i];
        for (size_t i = 0; i < 32; ++i) wrong += (to[i] != 0xee) + (to[32 + bytes + i] != 0xee);
        INFO("bytes " << bytes);
        CHECK(wrong == 0);
    }
}

TEST_CASE("copyForTransfer copies every byte, whatever the size and the alignment", "[parallel_for]") {
    // Its stores go 64 bytes at a time from a 16-byte boundary of the destination: heads and tails of
    // every length around that, and the sizes where threads take over.
    for (size_t bytes : {size_t{0}, size_t{1}, size_t{15}, size_t{16}, size_t{63}, size_t{64}, size_t{65}, size_t{127},
                         size_t{4095}, (size_t{4} << 20) - 1, size_t{4} << 20, (size_t{17} << 20) + 12345})
        for (size_t toOffset : {0, 1, 7, 15, 16, 33})
            for (size_t fromOffset : {0, 3}) {
                std::vector<uint8_t> from(bytes + fromOffset), to(bytes + 96, 0xee);
                for (size_t i = 0; i < from.size(); ++i) from[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
                uint8_t* dest = to.data() + 32 + toOffset;
                copyForTransfer(dest, from.data() + fromOffset, bytes);
                size_t wrong = 0;
                for (size_t i = 0; i < bytes; ++i) wrong += dest[i] != from[fromOffset + i];
                for (uint8_t* p = to.data(); p < dest; ++p) wrong += *p != 0xee;
                for (uint8_t* p = dest + bytes; p < to.data() + to.size(); ++p) wrong += *p != 0xee;
                INFO("bytes " << bytes << ", destination offset " << toOffset << ", source offset " << fromOffset);
                CHECK(wrong == 0);
            }
}
