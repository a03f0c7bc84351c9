// The direct way's kept verdict (platform/split/whole_verdict.hpp): which launches it decides, and
// that the launches it decided reach the history.
#include "platform/split/whole_verdict.hpp"

#include <catch2/catch.hpp>

#include <string>

using hetero::LaunchSize;
using hetero::SplitHistory;
using hetero::WholeVerdict;

namespace {

WholeVerdict::Key key() {
    WholeVerdict::Key k;
    k.slot = 0;
    k.size.dims = 2;
    k.size.global[0] = 1024;
    k.size.global[1] = 512;
    k.workGroups = 128;
    k.bytesWritten = 4096;
    k.variantsReady = true;
    k.historyChanges = 7;
    return k;
}

// The launch count the process-wide history holds for `kernel` (its "kernel" line).
unsigned launchesOf(const std::string& kernel) {
    const std::string text = SplitHistory::instance().serialize();
    const std::string line = "kernel " + kernel + " ";
    const size_t at = text.find(line);
    if (at == std::string::npos) return 0;
    return static_cast<unsigned>(std::stoul(text.substr(at + line.size())));
}

}  // namespace

TEST_CASE("whole verdict: decides as many launches as it was given, of the same key only", "[whole_verdict]") {
    WholeVerdict v;
    CHECK_FALSE(v.decides(key()));  // none kept yet
    v.keep(key(), 3, true);
    CHECK(v.decides(key()));
    CHECK(v.decides(key()));
    CHECK(v.decides(key()));
    CHECK_FALSE(v.decides(key()));
    // Anything it rests on that differs: a fresh decision.
    auto differs = [](void (*change)(WholeVerdict::Key&)) {
        WholeVerdict w;
        w.keep(key(), 10, true);
        WholeVerdict::Key k = key();
        change(k);
        return !w.decides(k) && w.decides(key());
    };
    CHECK(differs([](WholeVerdict::Key& k) { k.slot = 1; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.size.dims = 3; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.size.global[0] = 2048; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.size.global[1] = 256; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.size.global[2] = 2; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.workGroups = 64; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.bytesWritten = 8192; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.variantsReady = false; }));
    CHECK(differs([](WholeVerdict::Key& k) { k.historyChanges = 8; }));
}

TEST_CASE("whole verdict: the launches it decided are counted in the history when it settles, once", "[whole_verdict]") {
    const std::string kernel = "0123456789abcdef/verdict_counted";
    WholeVerdict v;
    v.keep(key(), 10, true);
    for (int i = 0; i < 4; ++i) REQUIRE(v.decides(key()));
    CHECK(launchesOf(kernel) == 0);
    v.settle(kernel);
    CHECK(launchesOf(kernel) == 4);
    CHECK_FALSE(v.decides(key()));  // settled: dropped
    v.settle(kernel);
    CHECK(launchesOf(kernel) == 4);

    // A verdict on launches the GPU runs in one go: the history never hears of those.
    const std::string fits = "0123456789abcdef/verdict_fits";
    v.keep(key(), 10, false);
    REQUIRE(v.decides(key()));
    v.settle(fits);
    CHECK(launchesOf(fits) == 0);
}
