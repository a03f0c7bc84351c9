// The transform cache: a program analysed twice is parsed once (memory), a new process finds the
// disk entry, a different transform version or different input misses, a damaged or unwritable
// cache never changes results, and HETERO_TRANSFORM_CACHE=off parses every time.
#include "cache.hpp"
#include "parse.hpp"
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

#include <dirent.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace tf = hetero::transform;
namespace dt = hetero::transform::detail;

namespace {

// A private cache directory per test case, so runs never see each other's entries.
struct TempCache {
    std::string dir;
    std::string savedHome, savedSwitch;
    bool hadHome = false, hadSwitch = false;
    TempCache() {
        if (const char* h = std::getenv("XDG_CACHE_HOME")) hadHome = true, savedHome = h;
        if (const char* c = std::getenv("HETERO_TRANSFORM_CACHE")) hadSwitch = true, savedSwitch = c;
        char tmpl[] = "/tmp/hetero-transform-unit-XXXXXX";
        dir = mkdtemp(tmpl);
        setenv("XDG_CACHE_HOME", dir.c_str(), 1);
        setenv("HETERO_TRANSFORM_CACHE", "on", 1);
        dt::clearMemoryCache();
    }
    ~TempCache() {
        std::system(("rm -rf '" + dir + "'").c_str());
        // Later tests in this process must not write into the removed folder.
        hadHome ? setenv("XDG_CACHE_HOME", savedHome.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
        hadSwitch ? setenv("HETERO_TRANSFORM_CACHE", savedSwitch.c_str(), 1) : unsetenv("HETERO_TRANSFORM_CACHE");
        dt::clearMemoryCache();
    }
    static std::vector<std::string> list(const std::string& path) {
        std::vector<std::string> out;
        if (DIR* d = opendir(path.c_str())) {
            while (dirent* e = readdir(d))
                if (e->d_name[0] != '.') out.push_back(path + "/" + e->d_name);
            closedir(d);
        }
        return out;
    }
    std::vector<std::string> versionFolders() const { return list(dir + "/hetero"); }
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        for (const auto& folder : versionFolders())
            for (const auto& f : list(folder)) out.push_back(f);
        return out;
    }
};

const std::string kSource =
    "__kernel void k(__global float* o, __global const float* i) { o[get_global_id(0)] = 2.0f * i[0]; }\n";

void checkExpected(const tf::ProgramAnalysis& a) {
    REQUIRE(a.parsed);
    REQUIRE(a.kernels.size() == 1);
    CHECK(a.kernels[0].splittable);
    CHECK(a.kernels[0].params[0].mayWrite);
    CHECK(a.kernels[0].params[1].mayRead);
}

}  // namespace

TEST_CASE("transform_unit.cache.memory_then_disk_hit") {
    TempCache cache;
    const unsigned long before = dt::parseCount();
    checkExpected(tf::analyze({kSource}, "-DX=1"));
    CHECK(dt::parseCount() == before + 1);
    checkExpected(tf::analyze({kSource}, "-DX=1"));
    CHECK(dt::parseCount() == before + 1);  // memory hit
    CHECK(cache.entries().size() == 1);
    dt::clearMemoryCache();                 // as a new process would start
    checkExpected(tf::analyze({kSource}, "-DX=1"));
    CHECK(dt::parseCount() == before + 1);  // disk hit
}

TEST_CASE("transform_unit.cache.key_covers_sources_options_and_version") {
    TempCache cache;
    const unsigned long before = dt::parseCount();
    tf::analyze({kSource}, "");
    tf::analyze({kSource}, "-DY");                // other options
    tf::analyze({kSource, "\n"}, "");             // other sources
    tf::analyze({kSource.substr(0, 20), kSource.substr(20)}, "");  // same text, split differently
    CHECK(dt::parseCount() == before + 4);
    const std::string saved = dt::cacheVersion();
    dt::setCacheVersion(saved + " (next)");
    dt::clearMemoryCache();
    REQUIRE(cache.versionFolders().size() == 1);
    const std::string oldFolder = cache.versionFolders()[0];
    tf::analyze({kSource}, "");
    CHECK(dt::parseCount() == before + 5);        // an older version's entry is not used...
    REQUIRE(cache.versionFolders().size() == 1);  // ...and is removed when the new version writes
    CHECK(cache.versionFolders()[0] != oldFolder);
    CHECK(cache.entries().size() == 1);
    dt::setCacheVersion(saved);
}

TEST_CASE("transform_unit.cache.variants_cached_and_keyed_by_requested_kernels") {
    TempCache cache;
    const tf::ProgramAnalysis a = tf::analyze({kSource}, "");
    const unsigned long before = dt::parseCount();
    const tf::Variants v1 = tf::makeVariants({kSource}, "", a);
    const unsigned long afterFirst = dt::parseCount();
    CHECK(afterFirst > before);
    const tf::Variants v2 = tf::makeVariants({kSource}, "", a);
    CHECK(dt::parseCount() == afterFirst);
    CHECK(v1.source == v2.source);
    CHECK(v1.source.find("k__hetero_chunk") != std::string::npos);
    tf::ProgramAnalysis none = a;
    none.kernels[0].splittable = false;  // the caller decided against splitting k
    const tf::Variants v3 = tf::makeVariants({kSource}, "", none);
    CHECK(v3.source.find("k__hetero_chunk") == std::string::npos);
}

TEST_CASE("transform_unit.cache.damaged_entry_ignored") {
    TempCache cache;
    tf::analyze({kSource}, "");
    const auto files = cache.entries();
    REQUIRE(files.size() == 1);
    {
        std::ofstream out(files[0], std::ios::trunc);
        out << "12:not an entry";
    }
    dt::clearMemoryCache();
    const unsigned long before = dt::parseCount();
    checkExpected(tf::analyze({kSource}, ""));
    CHECK(dt::parseCount() == before + 1);
}

TEST_CASE("transform_unit.cache.unwritable_directory_still_works") {
    TempCache cache;
    setenv("XDG_CACHE_HOME", "/proc/hetero-cannot-write-here", 1);
    checkExpected(tf::analyze({kSource}, "-DUNWRITABLE"));
    dt::clearMemoryCache();
    checkExpected(tf::analyze({kSource}, "-DUNWRITABLE"));
}

TEST_CASE("transform_unit.cache.off_switch_parses_every_time") {
    TempCache cache;
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    const unsigned long before = dt::parseCount();
    checkExpected(tf::analyze({kSource}, ""));
    checkExpected(tf::analyze({kSource}, ""));
    CHECK(dt::parseCount() == before + 2);
    CHECK(cache.entries().empty());
}

TEST_CASE("transform_unit.cache.analysis_serialization_round_trip") {
    setenv("HETERO_TRANSFORM_CACHE", "off", 1);
    const tf::ProgramAnalysis a = tf::analyze({R"(
        __kernel void a(__global float4* restrict o, __constant int* c, __local float* l) { o[0].x = c[0]; }
        __kernel void b(__global int* o) { atomic_inc(o); }
    )"}, "");
    const auto back = dt::deserializeAnalysis(dt::serialize(a));
    REQUIRE(back.has_value());
    CHECK(dt::serialize(*back) == dt::serialize(a));
    REQUIRE(back->kernels.size() == 2);
    CHECK(back->kernels[1].reason == a.kernels[1].reason);
    CHECK(back->kernels[0].params[0].isRestrict);
    CHECK_FALSE(dt::deserializeAnalysis(dt::serialize(a) + "x").has_value());
}
