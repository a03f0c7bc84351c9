// slotOwnBuildOptions (devices/backend.hpp): a slot whose PoCL device an earlier slot also has
// builds with options of its own, so that PoCL 4.0-5.0 give its kernels a hash of their own (two
// slots of one PoCL device sharing a hash aborted split launches on the GPU machine).
#include "devices/backend.hpp"

#include <catch2/catch.hpp>

namespace {
cl_device_id fakeDevice(uintptr_t n) { return reinterpret_cast<cl_device_id>(n); }

std::vector<hetero::Slot> slotsOn(std::initializer_list<uintptr_t> devices,
                                  const char* platform = "Portable Computing Language") {
    std::vector<hetero::Slot> slots;
    for (uintptr_t d : devices) {
        hetero::Slot s;
        s.index = static_cast<unsigned>(slots.size());
        s.device = fakeDevice(d);
        s.platformName = platform;
        slots.push_back(s);
    }
    return slots;
}
}  // namespace

TEST_CASE("slots of one PoCL device build with options of their own", "[slots]") {
    const auto slots = slotsOn({1, 1, 1});
    const std::string options = "-cl-std=CL1.2";
    CHECK(hetero::slotOwnBuildOptions(slots, 0, options) == options);
    const std::string second = hetero::slotOwnBuildOptions(slots, 1, options);
    const std::string third = hetero::slotOwnBuildOptions(slots, 2, options);
    CHECK(second != options);
    CHECK(third != options);
    CHECK(second != third);
    // The application's options stay, first: a define only adds to them.
    CHECK(second.rfind(options + " -D", 0) == 0);
    CHECK(hetero::slotOwnBuildOptions(slots, 1, "").rfind("-D", 0) == 0);
}

TEST_CASE("slots of different devices, or not PoCL's, build with the application's options", "[slots]") {
    const auto slots = slotsOn({1, 2, 3});
    for (unsigned s = 0; s < 3; ++s) CHECK(hetero::slotOwnBuildOptions(slots, s, "-DN=4") == "-DN=4");
    // A device shared by slots 0 and 2 only: slot 1 keeps the options.
    const auto mixed = slotsOn({1, 2, 1});
    CHECK(hetero::slotOwnBuildOptions(mixed, 1, "-DN=4") == "-DN=4");
    CHECK(hetero::slotOwnBuildOptions(mixed, 2, "-DN=4") != "-DN=4");
    // Another backend's device keeps the options (the bug is PoCL's).
    const auto nvidia = slotsOn({1, 1}, "NVIDIA CUDA");
    CHECK(hetero::slotOwnBuildOptions(nvidia, 1, "-DN=4") == "-DN=4");
}
