// DistinctBuild (devices/distinct_build.hpp): on a PoCL device, builds of one source and options
// alive at once each get a rank and, above 0, a define of their own; ranks start again from 0 only
// once none is alive; other sources, options, devices and backends are apart.
#include "devices/distinct_build.hpp"

#include <catch2/catch.hpp>

#include <memory>

namespace {

hetero::Slot slotOn(cl_device_id device, const char* platform) {
    hetero::Slot s;
    s.device = device;
    s.platformName = platform;
    return s;
}

cl_device_id fakeDevice(int n) { return reinterpret_cast<cl_device_id>(static_cast<uintptr_t>(0x1000 + n)); }

}  // namespace

TEST_CASE("live builds of one source on one PoCL device get names of their own", "[distinct_build]") {
    const hetero::Slot pocl = slotOn(fakeDevice(1), "Portable Computing Language");
    auto first = std::make_unique<hetero::DistinctBuild>(pocl, "kernel A", "-DN=4");
    CHECK(first->rank() == 0);
    CHECK(first->options() == "-DN=4");
    auto second = std::make_unique<hetero::DistinctBuild>(pocl, "kernel A", "-DN=4");
    CHECK(second->rank() == 1);
    CHECK(second->options() == "-DN=4 -DHETERO_BUILD_1");
    hetero::DistinctBuild noOptions(pocl, "kernel A", "");
    CHECK(noOptions.options().empty());  // another key: its own ranks
    // The first goes while the second lives: its rank is not handed out again yet.
    first.reset();
    hetero::DistinctBuild third(pocl, "kernel A", "-DN=4");
    CHECK(third.rank() == 2);
    // Other sources and devices are apart.
    CHECK(hetero::DistinctBuild(pocl, "kernel B", "-DN=4").rank() == 0);
    CHECK(hetero::DistinctBuild(slotOn(fakeDevice(2), "Portable Computing Language"), "kernel A", "-DN=4").rank() == 0);
}

TEST_CASE("ranks start again once no build of the source is alive", "[distinct_build]") {
    const hetero::Slot pocl = slotOn(fakeDevice(3), "Portable Computing Language");
    { hetero::DistinctBuild a(pocl, "kernel C", ""), b(pocl, "kernel C", ""); CHECK(b.rank() == 1); }
    // One after another: one name, which the compiled-kernel caches serve.
    for (int i = 0; i < 3; ++i) {
        hetero::DistinctBuild again(pocl, "kernel C", "");
        CHECK(again.rank() == 0);
        CHECK(again.options().empty());
    }
}

TEST_CASE("other backends keep their options", "[distinct_build]") {
    const hetero::Slot nvidia = slotOn(fakeDevice(4), "NVIDIA CUDA");
    hetero::DistinctBuild a(nvidia, "kernel D", "-DX"), b(nvidia, "kernel D", "-DX");
    CHECK(a.options() == "-DX");
    CHECK(b.options() == "-DX");
}
