// The hetero-transform tool: analysis, variants and the whole program, on a file of the corpus kind.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace {

std::string run(const std::string& args, int& status) {
    const std::string cmd = std::string("HETERO_TRANSFORM_CACHE=off '") + HETERO_TRANSFORM_CLI + "' " + args + " 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    status = pclose(p);
    return out;
}

const std::string kFile = std::string(HETERO_TRANSFORM_UNIT_DATA) + "/cli_sample.cl";

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("transform_unit.cli.analysis_of_every_kernel") {
    int status = 0;
    const std::string out = run("'" + kFile + "'", status);
    INFO(out);
    CHECK(status == 0);
    CHECK(has(out, "kernel scale_rows: splittable"));
    CHECK(has(out, "kernel count_all: NOT splittable"));
    CHECK(has(out, "atomic"));
    CHECK(has(out, "written"));
}

TEST_CASE("transform_unit.cli.variants_of_one_kernel") {
    int status = 0;
    const std::string out = run("--kernel scale_rows --all '" + kFile + "'", status);
    INFO(out);
    CHECK(status == 0);
    CHECK(has(out, "scale_rows__hetero_chunk("));
    CHECK(has(out, "row_of__hetero_chunk("));  // the helper calling get_group_id gets a chunk copy
    CHECK(has(out, "scale_rows__hetero_abort("));
    CHECK_FALSE(has(out, "count_all"));
}

TEST_CASE("transform_unit.cli.whole_program_and_errors") {
    int status = 0;
    const std::string out = run("--options '-DFACTOR=3.0f' --source '" + kFile + "'", status);
    INFO(out);
    CHECK(status == 0);
    CHECK(has(out, "#line 1"));
    CHECK(has(out, "__kernel void count_all("));
    run("--kernel no_such_kernel '" + kFile + "'", status);
    CHECK(status != 0);
    run("/nonexistent/file.cl", status);
    CHECK(status != 0);
}
