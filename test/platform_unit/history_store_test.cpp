// Auto mode's history between runs (platform/split/history_store.hpp): a file per device set in the
// cache directory, read back as written, and what is not one, or cannot be written, ignored.
#include "platform/split/history_store.hpp"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using hetero::LaunchSize;
using hetero::SplitHistory;
namespace store = hetero::history_store;

namespace {

// XDG_CACHE_HOME pointed at a fresh directory for the test's life.
struct CacheHome {
    std::string dir;
    CacheHome() {
        char pattern[] = "/tmp/hetero-history-test-XXXXXX";
        REQUIRE(mkdtemp(pattern) != nullptr);
        dir = pattern;
        setenv("XDG_CACHE_HOME", dir.c_str(), 1);
    }
    ~CacheHome() {
        unsetenv("XDG_CACHE_HOME");
        std::string command = "rm -rf '" + dir + "'";
        (void)std::system(command.c_str());
    }
};

LaunchSize size(size_t n) {
    LaunchSize s;
    s.global[0] = n;
    return s;
}

// A history that learned something: kernel k timed at two sizes, one of them split.
void learn(SplitHistory& h) {
    h.decide("abc/k", size(1));
    h.decide("abc/k", size(1024));
    h.recordWhole("abc/k", size(1024), 0.01);
    SplitHistory::Decision probe = h.decide("abc/k", size(1024));
    REQUIRE(probe.split);
    h.recordSplit("abc/k", size(1024), 0.004, true, 0.6);
}

std::string contents(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("history store: written for a device set, read back the same, next to the transform cache", "[history_store]") {
    CacheHome home;
    SplitHistory written;
    learn(written);
    REQUIRE(store::save(written, "Hetero 1; slot 0: A | driver 1"));
    const std::string path = store::pathFor("Hetero 1; slot 0: A | driver 1");
    CHECK(path.rfind(home.dir + "/hetero/split-history-", 0) == 0);
    CHECK(contents(path).rfind("device set: Hetero 1; slot 0: A | driver 1\n", 0) == 0);
    SplitHistory read;
    REQUIRE(store::load(read, "Hetero 1; slot 0: A | driver 1"));
    CHECK(read.serialize() == written.serialize());
    // The next run's first launch splits at once: the history says it pays.
    CHECK(read.decide("abc/k", size(1024)).split);
}

TEST_CASE("history store: another Hetero or another driver starts afresh", "[history_store]") {
    CacheHome home;
    SplitHistory written;
    learn(written);
    REQUIRE(store::save(written, "Hetero 1; slot 0: A | driver 1"));
    SplitHistory other;
    CHECK_FALSE(store::load(other, "Hetero 1; slot 0: A | driver 2"));
    CHECK_FALSE(store::load(other, "Hetero 2; slot 0: A | driver 1"));
    CHECK(other.serialize() == SplitHistory().serialize());
}

TEST_CASE("history store: a damaged file is ignored and replaced, an unwritable directory is not an error",
          "[history_store]") {
    CacheHome home;
    const std::string set = "Hetero 1; slot 0: A | driver 1";
    SplitHistory written;
    learn(written);
    REQUIRE(store::save(written, set));
    const std::string path = store::pathFor(set);
    const std::string good = contents(path);
    for (const std::string& damaged : {good.substr(0, good.size() / 2) + "\xff\x01 nonsense\n", std::string("\0\0\0", 3),
                                       "device set: " + set + "\nnot a history\n", std::string()}) {
        {
            std::ofstream out(path, std::ios::trunc | std::ios::binary);
            out << damaged;
        }
        SplitHistory read;
        CHECK_FALSE(store::load(read, set));
        CHECK(read.serialize() == SplitHistory().serialize());
    }
    REQUIRE(store::save(written, set));  // what the process learned replaces it at exit
    CHECK(contents(path) == good);
    // A cache "directory" that is a file: nothing written, nothing thrown.
    const std::string file = home.dir + "/plain-file";
    { std::ofstream(file) << "x"; }
    setenv("XDG_CACHE_HOME", file.c_str(), 1);
    CHECK_FALSE(store::save(written, set));
    SplitHistory read;
    CHECK_FALSE(store::load(read, set));
}

TEST_CASE("history store: a kernel's key names its program's source and options", "[history_store]") {
    CHECK(store::programKey("kernel void k() {}", "") == store::programKey("kernel void k() {}", ""));
    CHECK(store::programKey("kernel void k() {}", "") != store::programKey("kernel void k() { }", ""));
    CHECK(store::programKey("kernel void k() {}", "") != store::programKey("kernel void k() {}", "-DN=2"));
    CHECK(store::programKey("a", "b") != store::programKey("ab", ""));
}
