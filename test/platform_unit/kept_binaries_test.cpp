// Which builds keep their binary (platform/objects/kept_binaries.hpp): only those whose result the
// source and the options alone decide, on backends whose binaries keep argument information.
#include "platform/objects/kept_binaries.hpp"

#include <catch2/catch.hpp>

using hetero::Slot;

namespace {

Slot slotOf(const char* platform) {
    Slot s;
    s.platformName = platform;
    return s;
}

bool keepable(const Slot& slot, const std::string& source, const std::string& options = "") {
    return hetero::kept_binaries::keepable(slot, source, options);
}

}  // namespace

TEST_CASE("kept binaries: a source that includes a file, in any spelling, is not kept", "[kept-binaries]") {
    const Slot pocl = slotOf("Portable Computing Language");
    CHECK(keepable(pocl, "__kernel void k(__global int* v) { v[0] = 1; }"));
    CHECK(keepable(pocl, "#define INCLUDED 1\n#define include_me 2\n#includes\n__kernel void k() {}"));
    CHECK_FALSE(keepable(pocl, "#include \"a.h\"\n__kernel void k() {}"));
    CHECK_FALSE(keepable(pocl, "  #  include <a.h>\n"));
    CHECK_FALSE(keepable(pocl, "#\tinclude \"a.h\""));
    CHECK_FALSE(keepable(pocl, "%:include \"a.h\""));
    CHECK_FALSE(keepable(pocl, "#\\\ninclude \"a.h\""));
    CHECK_FALSE(keepable(pocl, "#include"));
}

TEST_CASE("kept binaries: options that read a file keep nothing", "[kept-binaries]") {
    const Slot pocl = slotOf("Portable Computing Language");
    const char* source = "__kernel void k() {}";
    CHECK(keepable(pocl, source, "-DN=4 -I /tmp -cl-fast-relaxed-math"));
    CHECK_FALSE(keepable(pocl, source, "-include /tmp/a.h"));
    CHECK_FALSE(keepable(pocl, source, "-DN=4 -imacros /tmp/a.h"));
}

TEST_CASE("kept binaries: a source whose build depends on the time is not kept", "[kept-binaries]") {
    const Slot pocl = slotOf("Portable Computing Language");
    CHECK_FALSE(keepable(pocl, "__constant char when[] = __DATE__;"));
    CHECK_FALSE(keepable(pocl, "__constant char when[] = __TIME__;"));
}

TEST_CASE("kept binaries: only backends checked to keep argument information keep binaries", "[kept-binaries]") {
    const char* source = "__kernel void k() {}";
    CHECK(keepable(slotOf("Portable Computing Language"), source));
    CHECK(keepable(slotOf("NVIDIA CUDA"), source));
    CHECK_FALSE(keepable(slotOf("Some Other OpenCL"), source));
}
