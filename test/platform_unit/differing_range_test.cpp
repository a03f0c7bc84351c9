// merge::differingRange (merge/diff.hpp): what a split launch's CPU side sends after its chunks.
// Large objects are compared in slices on several threads; the range must be exactly what one
// byte-by-byte pass finds, wherever the differences fall (slice edges, first and last byte).
#include "merge/diff.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

using hetero::merge::differingRange;

namespace {

std::pair<size_t, size_t> byteByByte(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                                     size_t elementSize) {
    size_t first = a.size(), last = 0;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) {
            first = std::min(first, i);
            last = i + 1;
        }
    if (first >= last) return {0, 0};
    first -= first % elementSize;
    last = std::min(a.size(), (last + elementSize - 1) / elementSize * elementSize);
    return {first, last};
}

}  // namespace

TEST_CASE("differingRange finds exactly the bytes that differ, in slices or not", "[diff]") {
    std::mt19937_64 random(23);
    for (size_t bytes : {size_t(1), size_t(4095), size_t(4097), size_t(1) << 20, (size_t(1) << 20) + 12,
                         (size_t(4) << 20) + 3, size_t(9) << 20}) {
        std::vector<unsigned char> a(bytes), b;
        for (auto& x : a) x = static_cast<unsigned char>(random());
        // Where the differences go: none, each end, both ends, every place a slice of 2 to 8
        // threads starts or ends, and random places.
        std::vector<std::vector<size_t>> layouts = {{}, {0}, {bytes - 1}, {0, bytes - 1}};
        for (size_t slices = 2; slices <= 8; ++slices) {
            const size_t slice = (bytes + slices - 1) / slices;
            for (size_t k = 1; k < slices; ++k)
                if (k * slice < bytes) layouts.push_back({k * slice - 1, std::min(bytes - 1, k * slice)});
        }
        for (int n = 0; n < 8; ++n) layouts.push_back({size_t(random() % bytes), size_t(random() % bytes)});
        for (const auto& at : layouts)
            for (size_t elementSize : {size_t(1), size_t(4), size_t(8)}) {
                b = a;
                for (size_t i : at) b[i] = static_cast<unsigned char>(b[i] ^ 0x5a);
                INFO(bytes << " bytes, element " << elementSize << ", " << at.size() << " differences from "
                           << (at.empty() ? 0 : at.front()));
                CHECK(differingRange(a.data(), b.data(), bytes, elementSize) == byteByByte(a, b, elementSize));
            }
    }
}
