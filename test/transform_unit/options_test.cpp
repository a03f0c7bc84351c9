// Build options become the clang arguments a backend would parse with; others are dropped.
#include "options.hpp"

#include <catch2/catch.hpp>

namespace dt = hetero::transform::detail;

TEST_CASE("transform_unit.options.split_with_quotes") {
    CHECK(dt::splitOptions("  -DA=1   -I \"dir with space\" '-DB=x y'") ==
          std::vector<std::string>{"-DA=1", "-I", "dir with space", "-DB=x y"});
    CHECK(dt::splitOptions("").empty());
}

TEST_CASE("transform_unit.options.translated_for_clang") {
    const auto o = dt::translateOptions("-D N=4 -DM -U X -I inc -Iinc2 -cl-std=CL2.0 -cl-fast-relaxed-math "
                                        "-cl-kernel-arg-info -g -O3 -Werror -w");
    CHECK(o.clStd == "CL2.0");
    CHECK(o.args == std::vector<std::string>{"-DN=4", "-DM", "-UX", "-Iinc", "-Iinc2", "-cl-fast-relaxed-math", "-w"});
    CHECK(o.ignored == std::vector<std::string>{"-cl-kernel-arg-info", "-g", "-O3", "-Werror"});
    CHECK_FALSE(o.unsupported);
    CHECK(dt::translateOptions("").clStd == "CL1.2");
    CHECK(dt::translateOptions("-cl-std=CLC++").unsupported);
}
