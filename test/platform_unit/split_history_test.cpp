// Auto mode's policy (platform/split/split_history.hpp) on synthetic timings: when a launch splits, how
// probes are rationed, and what they may cost where splitting never pays.
#include "platform/split/split_history.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using hetero::LaunchCost;
using hetero::LaunchSize;
using hetero::SplitHistory;

namespace {

constexpr double kMs = 1e-3;

LaunchSize size(size_t n) {
    LaunchSize s;
    s.global[0] = n;
    return s;
}

// The kernel's first launch, at a size of its own: it also loads the kernel, so it is not timed
// (tests of other rules start after it).
// The kernel's first launch and its first split have happened (neither is a measurement).
void loaded(SplitHistory& h, const char* kernel = "k") {
    SplitHistory::Decision first = h.decide(kernel, size(1));
    REQUIRE_FALSE(first.timeWhole);
    REQUIRE_FALSE(first.split);
    h.recordSplit(kernel, size(1), 1.0, false);
}

// Runs `launches` launches of one kernel at one size against a machine where running whole takes
// `whole` seconds and a split `split` seconds; every probe reports before the next decision.
struct Simulation {
    Simulation() { loaded(history); }
    SplitHistory history;
    double wholeTime = 0, splitTime = 0, probeLoss = 0;
    unsigned splits = 0, probes = 0;

    void run(unsigned launches, double whole, double split, LaunchSize key = size(1024)) {
        for (unsigned i = 0; i < launches; ++i) {
            SplitHistory::Decision d = history.decide("k", key);
            if (d.split) {
                ++splits;
                splitTime += split;
                if (d.probe) {
                    ++probes;
                    probeLoss += std::max(0.0, split - whole);
                }
                history.recordSplit("k", key, split, d.probe != nullptr);
            } else {
                wholeTime += whole;
                if (d.timeWhole) history.recordWhole("k", key, whole);
            }
        }
    }
};

}  // namespace

TEST_CASE("split history: a size runs whole and is timed first, one too short never splits", "[split_history]") {
    SplitHistory h;
    loaded(h);
    SplitHistory::Decision first = h.decide("k", size(64));
    CHECK_FALSE(first.split);
    CHECK(first.timeWhole);
    h.recordWhole("k", size(64), 0.1 * kMs);
    unsigned timed = 0;
    for (unsigned i = 2; i <= 1024; ++i) {
        SplitHistory::Decision d = h.decide("k", size(64));
        REQUIRE_FALSE(d.split);
        if (d.timeWhole) {
            ++timed;
            h.recordWhole("k", size(64), 0.1 * kMs);
        }
    }
    CHECK(timed == 3);  // at 256, 512 and 1024: the kernel may grow with its data, but ever more rarely
}

TEST_CASE("split history: a size that cannot gain is timed ever more rarely, and as often again once it can",
          "[split_history]") {
    SplitHistory h;
    loaded(h);
    REQUIRE(h.decide("k", size(64)).timeWhole);
    h.recordWhole("k", size(64), 0.1 * kMs);
    unsigned timed = 0;
    for (unsigned i = 2; i <= (1u << 18); ++i) {
        SplitHistory::Decision d = h.decide("k", size(64));
        REQUIRE_FALSE(d.split);
        if (d.timeWhole) {
            ++timed;
            h.recordWhole("k", size(64), 0.1 * kMs);
        }
    }
    // 256, 512, ..., 65536, then every 65536th: 131072, 196608, 262144.
    CHECK(timed == 12);
    // Its data grew: a timing of 10 s could gain, and the size is timed every 16th launch again.
    unsigned launches = 0;
    SplitHistory::Decision d;
    do {
        d = h.decide("k", size(64));
        ++launches;
    } while (!d.timeWhole && launches < (1u << 17));
    REQUIRE(d.timeWhole);
    h.recordWhole("k", size(64), 10000 * kMs);
    timed = 0;
    for (unsigned i = 0; i < 64; ++i) {
        d = h.decide("k", size(64));
        if (d.split) break;  // (a probe)
        if (d.timeWhole) {
            ++timed;
            h.recordWhole("k", size(64), 10000 * kMs);
        }
    }
    CHECK((timed >= 1 || d.split));
}

TEST_CASE("split history: a long kernel is probed once timed, one probe at a time", "[split_history]") {
    SplitHistory h;
    loaded(h);
    h.decide("k", size(1024));
    h.recordWhole("k", size(1024), 10 * kMs);
    SplitHistory::Decision probe = h.decide("k", size(1024));
    REQUIRE(probe.split);
    REQUIRE(probe.probe);
    CHECK(probe.wholeSeconds == Approx(10 * kMs));  // what its CPU chunks must end within
    // Until it reports (or is let go), no other launch of the kernel probes, at any size.
    for (int i = 0; i < 100; ++i) CHECK_FALSE(h.decide("k", size(1024)).split);
    h.decide("k", size(2048));
    h.recordWhole("k", size(2048), 10 * kMs);
    for (int i = 0; i < 100; ++i) CHECK_FALSE(h.decide("k", size(2048)).split);
    // A probe let go without a report (its launch failed) frees the kernel for the next one.
    probe.probe.reset();
    CHECK(h.decide("k", size(2048)).split);
}

TEST_CASE("split history: a split that wins is kept, and running whole is re-tried every 16th launch", "[split_history]") {
    Simulation sim;
    sim.run(2, 10 * kMs, 4 * kMs);
    CHECK(sim.probes == 1);
    unsigned whole = 0;
    for (unsigned i = 0; i < 64; ++i) {
        SplitHistory::Decision d = sim.history.decide("k", size(1024));
        CHECK_FALSE(d.probe);
        if (!d.split) ++whole;
    }
    CHECK(whole == 4);
}

TEST_CASE("split history: a split faster by no more than noise is a loss, one faster by more is kept", "[split_history]") {
    // syr2k LARGE on an H200 (docs/results/h200-session31): run whole 5.203 ms, an adaptive probe
    // 5.182 ms. Taken as a win, the next process split every launch, at 7.5-8.9 ms.
    // The launches after the first timing and the first probe.
    auto splitsAfter = [](double whole, double split) {
        Simulation sim;
        sim.run(2, whole, split);
        REQUIRE(sim.probes == 1);
        sim.splits = 0;
        sim.run(16, whole, split);
        return sim.splits;
    };
    CHECK(splitsAfter(5.203 * kMs, 5.182 * kMs) == 0);
    CHECK(splitsAfter(5.203 * kMs, 5.203 * kMs * (1 - SplitHistory::kMinSplitWin) * 0.999) >= 15);
    CHECK(splitsAfter(5.203 * kMs, 5.100 * kMs) >= 15);
}

TEST_CASE("split history: where splitting never pays, probes cost at most the budget", "[split_history]") {
    // gramschmidt on an H100 with PoCL: a 1 ms kernel whose split moves whole matrices (0.5 s).
    const double whole = 1 * kMs, split = 500 * kMs;
    Simulation sim;
    sim.run(200000, whole, split);
    const double firstLoss = split - whole;
    INFO("probes " << sim.probes << ", lost " << sim.probeLoss << " s of " << sim.wholeTime << " s run whole");
    CHECK(sim.probes >= 2);  // it keeps looking
    CHECK(sim.probeLoss <= SplitHistory::kProbeBudget * sim.wholeTime + firstLoss);
}

TEST_CASE("split history: a split that loses a little is re-probed more often than one that loses a lot", "[split_history]") {
    Simulation close, far;
    close.run(100000, 10 * kMs, 11 * kMs);
    far.run(100000, 10 * kMs, 1000 * kMs);
    CHECK(close.probes > far.probes);
    CHECK(far.probeLoss <= SplitHistory::kProbeBudget * far.wholeTime + 990 * kMs);
}

TEST_CASE("split history: kernels launched at ever new sizes are probed rarely once a split lost", "[split_history]") {
    SplitHistory h;
    loaded(h);
    unsigned probes = 0;
    for (unsigned n = 1; n <= 2000; ++n) {
        const LaunchSize key = size(n);
        for (int launch = 0; launch < 2; ++launch) {
            SplitHistory::Decision d = h.decide("k", key);
            if (d.split) {
                ++probes;
                h.recordSplit("k", key, 5 * kMs, true);
            } else if (d.timeWhole) {
                h.recordWhole("k", key, 1 * kMs);
            }
        }
    }
    // 2,000 sizes, each launched twice: without rationing every size would probe once.
    CHECK(probes >= 1);
    CHECK(probes <= 20);
}

TEST_CASE("split history: one timing at a time, and a lost one stops counting", "[split_history]") {
    SplitHistory h;
    loaded(h);
    CHECK(h.decide("k", size(64)).timeWhole);
    // Its report has not come yet: the launches enqueued meanwhile are not timed too.
    for (int i = 0; i < 100; ++i) CHECK_FALSE(h.decide("k", size(64)).timeWhole);
    h.recordWhole("k", size(64), 1e-4);
    SplitHistory::Decision d;
    unsigned launches = 101;
    do {
        d = h.decide("k", size(64));
        ++launches;
    } while (!d.timeWhole && launches < 1000);
    CHECK(d.timeWhole);
    CHECK(launches % 256 == 0);
    // That timing is lost (its launch failed before it was heard): after kTimingLost launches
    // another may start.
    unsigned waited = 0;
    while (!h.decide("k", size(64)).timeWhole && waited < 10 * SplitHistory::kTimingLost) ++waited;
    CHECK(waited >= SplitHistory::kTimingLost - 1);
    CHECK(waited < 10 * SplitHistory::kTimingLost);
    // A failed timing (negative) frees the size at once and keeps the last measurement.
    h.recordWhole("k", size(64), -1);
    CHECK_FALSE(h.decide("k", size(64)).split);
}

TEST_CASE("split history: a kernel's first launch is not timed, a program launching each kernel once learns nothing",
          "[split_history]") {
    // A first launch pays for loading the kernel (milliseconds on NVIDIA): timed, it would make a
    // 20 us kernel look worth a probe, and a program that launches each kernel once would pay for
    // the side queue and the event of a timing that can never pay back.
    SplitHistory h;
    for (const char* kernel : {"a", "b", "c"}) {
        SplitHistory::Decision d = h.decide(kernel, size(64));
        CHECK_FALSE(d.timeWhole);
        CHECK_FALSE(d.split);
        CHECK(d.timeNext);  // the timing's side queue can be made while the first launch runs
    }
    // The second launch is timed, and goes by its own timing: a short one never splits.
    SplitHistory::Decision second = h.decide("a", size(64));
    CHECK_FALSE(second.split);
    REQUIRE(second.timeWhole);
    CHECK_FALSE(second.timeNext);
    h.recordWhole("a", size(64), 0.02 * kMs);
    for (int i = 0; i < 1000; ++i) REQUIRE_FALSE(h.decide("a", size(64)).split);
    // Later sizes of a loaded kernel go by their first timing: a long one is probed next.
    REQUIRE(h.decide("a", size(1 << 20)).timeWhole);
    h.recordWhole("a", size(1 << 20), 2 * kMs);
    CHECK(h.decide("a", size(1 << 20)).split);
}

TEST_CASE("split history: a split launch leaves no whole timing pending, so a stale whole time is re-measured",
          "[split_history]") {
    // Splitting seemed to win against whole timings that were too long; a launch that splits must
    // not hold the size's one timing, or running whole would go unmeasured for kTimingLost launches.
    Simulation sim;
    sim.run(2, 10 * kMs, 4 * kMs);  // timed whole, then a probe that wins
    REQUIRE(sim.splits == 1);
    sim.splits = 0;
    sim.run(64, 1 * kMs, 4 * kMs);  // running whole got faster: the next whole re-try is timed
    CHECK(sim.splits <= 16);
    const unsigned before = sim.splits;
    sim.run(1000, 1 * kMs, 4 * kMs);
    // Only re-probes from now on, each twice as rare after a loss (every 16th, 32nd, ... launch).
    CHECK(sim.splits - before <= 6);
}

TEST_CASE("split history: where the CPU showed itself slow, only launches long enough to gain are timed or probed",
          "[split_history][model]") {
    // An H100 with PoCL: splits in which the CPU did 1 % of the work in about the GPU's time, in
    // two kernels (one alone does not speak for the device set).
    SplitHistory h;
    for (const char* kernel : {"first", "second"}) {
        loaded(h, kernel);
        h.decide(kernel, size(4096));
        h.recordWhole(kernel, size(4096), 20 * kMs);
        SplitHistory::Decision probe = h.decide(kernel, size(4096));
        REQUIRE(probe.split);
        h.recordSplit(kernel, size(4096), 20 * kMs, true, 0.01);
        if (std::string(kernel) == "first") CHECK(h.gainBound("other", 2 * kMs, {}) > 0);  // not yet
    }
    // Another kernel: its 2 ms launches could gain 20 us at most, less a split's fixed costs.
    loaded(h, "other");
    REQUIRE(h.decide("other", size(1024)).timeWhole);  // nothing known of it yet
    h.recordWhole("other", size(1024), 2 * kMs);
    CHECK(h.gainBound("other", 2 * kMs, {}) < 0);
    unsigned timed = 0, splits = 0;
    for (int i = 0; i < 1024; ++i) {
        SplitHistory::Decision d = h.decide("other", size(1024));
        splits += d.split;
        if (d.timeWhole) {
            ++timed;
            h.recordWhole("other", size(1024), 2 * kMs);
        }
    }
    CHECK(splits == 0);
    CHECK(timed <= 4);  // every 256th: its time may grow with its data
    // A new size of it is estimated from the measured one (per work-item): not timed at once either.
    CHECK_FALSE(h.decide("other", size(2048)).timeWhole);
    // One of 10 s could gain: it is timed, then probed.
    loaded(h, "long");
    REQUIRE(h.decide("long", size(1024)).timeWhole);
    h.recordWhole("long", size(1024), 10000 * kMs);
    CHECK(h.decide("long", size(1024)).split);
}

TEST_CASE("split history: the bytes a split would move count against it", "[split_history][model]") {
    SplitHistory h;
    loaded(h);
    h.decide("k", size(1024));
    h.recordWhole("k", size(1024), 4 * kMs);
    // 4 ms could gain up to 2 ms with a CPU as fast; 60 MB at 6 GB/s take 10 ms.
    LaunchCost heavy;
    heavy.bytesMoved = 60e6;
    for (int i = 0; i < 100; ++i) CHECK_FALSE(h.decide("k", size(1024), heavy).split);
    CHECK(h.decide("k", size(1024)).split);  // without them it may
}

TEST_CASE("split history: a split's own link speed and the others' expected speed", "[split_history][model]") {
    // 1.2 ms whole, writing 5.76 MB (syrk at LARGE). The pair's model moves it twice at host-memory
    // speed (1.9 ms); even half of it at that speed (0.48 ms) leaves nothing to gain. From another
    // GPU through pinned memory at 20 GB/s, half takes 0.14 ms: it may gain.
    SplitHistory h;
    loaded(h);
    h.decide("k", size(1024));
    h.recordWhole("k", size(1024), 1.2 * kMs);
    LaunchCost pair;
    pair.bytesMoved = 2 * 5.76e6;
    LaunchCost half;
    half.bytesMoved = 5.76e6 / 2;
    for (int i = 0; i < 100; ++i) {
        CHECK_FALSE(h.decide("k", size(1024), pair).split);
        CHECK_FALSE(h.decide("k", size(1024), half).split);
    }
    LaunchCost nway = half;
    nway.linkBytesPerSecond = 20e9;
    nway.priorRatio = 1;
    CHECK(h.decide("k", size(1024), nway).split);
    // Three other GPUs as fast as the first take three quarters: 0.45 ms may gain, against a
    // quarter millisecond of fixed costs, where one other GPU's half would not.
    CHECK(h.gainBound("k", 0.45 * kMs, {}) < 0);
    LaunchCost four;
    four.priorRatio = 3;
    CHECK(h.gainBound("k", 0.45 * kMs, four) > 0);
}

TEST_CASE("split history: a launch the GPU runs in one go is never timed or split", "[split_history][model]") {
    SplitHistory h;
    loaded(h);
    // 16 work-groups on 132 compute units (gesummv at STANDARD on the H100): the GPU's part takes
    // as long whatever the CPU takes, however long the launch.
    LaunchCost fits;
    fits.workGroups = 16;
    fits.gpuComputeUnits = 132;
    unsigned timed = 0, splits = 0;
    for (int i = 0; i < 2000; ++i) {
        SplitHistory::Decision d = h.decide("k", size(4096), fits);
        timed += d.timeWhole, splits += d.split;
        if (d.timeWhole) h.recordWhole("k", size(4096), 100 * kMs);
    }
    CHECK(timed == 0);
    CHECK(splits == 0);
    // One more work-group than compute units: as any launch whose time is not known, timed first.
    LaunchCost fills = fits;
    fills.workGroups = 133;
    CHECK(h.decide("k", size(8192), fills).timeWhole);
}

TEST_CASE("split history: the history read back decides as the one written", "[split_history][store]") {
    Simulation sim;  // a kernel whose split wins: 10 ms whole, 4 ms split
    sim.run(40, 10 * kMs, 4 * kMs);
    const std::string text = sim.history.serialize();
    SplitHistory second;
    REQUIRE(second.deserialize(text));
    CHECK(second.serialize() == text);
    // A new process: the kernel's first launch splits at once (the history says it pays), and
    // nothing is timed first.
    SplitHistory::Decision d = second.decide("k", size(1024));
    CHECK(d.split);
    CHECK_FALSE(d.timeWhole);
    // What is not a history leaves an empty one as it was.
    SplitHistory third;
    CHECK_FALSE(third.deserialize("hetero split history 1\nkernel k 1 2 nonsense\n"));
    CHECK_FALSE(third.deserialize("something else\n"));
    CHECK_FALSE(third.deserialize(text.substr(0, text.size() / 2) + "garbage"));
    CHECK(third.serialize() == SplitHistory().serialize());
}

TEST_CASE("split history: a split measured faster is kept whatever the model expected", "[split_history][model]") {
    // The CPU looked slow in the kernel's first split (it did nothing), but splitting this size
    // was measured faster: measurements win over the model.
    SplitHistory h;
    loaded(h);
    h.decide("k", size(1024));
    h.recordWhole("k", size(1024), 3 * kMs);
    REQUIRE(h.decide("k", size(1024)).split);
    h.recordSplit("k", size(1024), 2 * kMs, true, 0.0);
    CHECK(h.gainBound("k", 3 * kMs, {}) < 0);
    unsigned splits = 0;
    for (int i = 0; i < 64; ++i) splits += h.decide("k", size(1024)).split;
    CHECK(splits >= 60);
}

TEST_CASE("split history: a kernel's first split loads its variants, so a slow one is probed again at once",
          "[split_history]") {
    SplitHistory h;
    REQUIRE_FALSE(h.decide("k", size(1024)).split);  // its first launch (loading)
    REQUIRE(h.decide("k", size(1024)).timeWhole);
    h.recordWhole("k", size(1024), 18 * kMs);
    SplitHistory::Decision probe = h.decide("k", size(1024));
    REQUIRE(probe.split);
    REQUIRE(probe.probe);
    h.recordSplit("k", size(1024), 212 * kMs, true);  // first use of everything
    probe.probe.reset();
    SplitHistory::Decision again = h.decide("k", size(1024));
    CHECK(again.split);
    CHECK(again.probe);
    h.recordSplit("k", size(1024), 13 * kMs, true);
    again.probe.reset();
    // Measured faster: kept split (whole every 16th launch, to see whether splitting still pays).
    unsigned splits = 0;
    for (int i = 0; i < 16; ++i) splits += h.decide("k", size(1024)).split;
    CHECK(splits >= 15);
}

namespace {

// syr2k at STANDARD on the H100 machine (docs/results/h100-session23): 1024 x 1024 work-items in
// 4,096 work-groups, 9.27 ms run whole; an adaptive probe took 13.5 ms, its CPU doing 5 % in chunks
// whose largest (128 work-groups) took 4.73 ms, its first starting 0.56 ms into the split.
// syr2k's launch of n x n work-items (16 x 16 a work-group) on one H100: its size and its cost.
LaunchSize syr2kSize(size_t n = 1024) {
    LaunchSize s;
    s.dims = 2;
    s.global[0] = s.global[1] = n;
    return s;
}
LaunchCost syr2kCost(size_t n = 1024) {
    LaunchCost c;
    c.workGroups = (n / 16) * (n / 16);
    c.gpuComputeUnits = 132;
    c.bytesWritten = 4.0 * double(n * n);
    c.bytesMoved = 2 * c.bytesWritten;
    c.plannable = true;
    return c;
}
constexpr double kSyr2kWhole = 9.27 * kMs;

// The history after syr2k's first launches: loaded, timed whole, one adaptive probe.
void syr2kProbed(SplitHistory& h) {
    loaded(h);
    h.decide("k", syr2kSize(), syr2kCost());
    h.recordWhole("k", syr2kSize(), kSyr2kWhole);
    SplitHistory::Decision probe = h.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(probe.split);
    REQUIRE(probe.plannedShare < 0);  // the CPU's speed is not known yet: adaptive
    h.recordCpuSpeed("k", 128 * 256, 4.73 * kMs, 0.56 * kMs);
    h.recordSplit("k", syr2kSize(), 13.5 * kMs, true, 0.05);
}

}  // namespace

TEST_CASE("split history: once a split measured the CPU's speed, a split is planned where the CPU ends before the GPU",
          "[split_history][plan]") {
    SplitHistory h;
    syr2kProbed(h);
    // The adaptive probe lost 4.2 ms, but the plan promises a gain: it is tried at the next launch.
    SplitHistory::Decision d = h.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(d.split);
    CHECK(d.probe);
    // Both sides' predicted times: the CPU (its start, its share, its send) ends before the GPU's part.
    const double share = d.plannedShare, items = 1024.0 * 1024.0;
    const double cpuPerItem = 4.73 * kMs / (128 * 256), gpuPerItem = kSyr2kWhole / items;
    const double cpuEnds = 0.56 * kMs + SplitHistory::kSplitFixedSeconds + (4 << 20) / SplitHistory::kSendBytesPerSecond +
                           share * items * cpuPerItem;
    const double gpuEnds = (1 - share) * items * gpuPerItem;
    CHECK(share > 0.03);
    CHECK(share < 0.07);
    CHECK(cpuEnds < gpuEnds);
    CHECK(cpuEnds > 0.8 * gpuEnds);  // not far below: the CPU takes most of what it can
    // The planned split won (8.8 ms): splitting goes on, as planned, with the speed it measured.
    h.recordCpuSpeed("k", share * items, 8.03 * kMs * share / 0.06, 0.5 * kMs);
    h.recordSplit("k", syr2kSize(), 8.8 * kMs, true, share, true);
    d.probe.reset();
    unsigned planned = 0;
    for (int i = 0; i < 32; ++i) {
        SplitHistory::Decision next = h.decide("k", syr2kSize(), syr2kCost());
        planned += next.split && next.plannedShare > 0;
    }
    CHECK(planned >= 30);
    // Kept between runs: a history read back plans the same share.
    SplitHistory second;
    REQUIRE(second.deserialize(h.serialize()));
    CHECK(second.planShare("k", kSyr2kWhole, items, syr2kCost()) == h.planShare("k", kSyr2kWhole, items, syr2kCost()));
}

TEST_CASE("split history: a CPU too slow for any share to gain runs whole, and a plan that lost is tried rarely",
          "[split_history][plan]") {
    SplitHistory h;
    syr2kProbed(h);
    // The CPU measured 40 times slower than above: no share gains 2 %.
    h.recordCpuSpeed("k", 128 * 256, 40 * 4.73 * kMs, 0.56 * kMs);
    CHECK(h.planShare("k", kSyr2kWhole, 1024.0 * 1024.0, syr2kCost()) == 0);
    unsigned splits = 0;
    for (int i = 0; i < 256; ++i) splits += h.decide("k", syr2kSize(), syr2kCost()).split;
    CHECK(splits == 0);

    // Fast again: the plan is tried, and loses (the CPU was busy): re-tried ever more rarely.
    SplitHistory l;
    syr2kProbed(l);
    SplitHistory::Decision d = l.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(d.plannedShare > 0);
    l.recordSplit("k", syr2kSize(), 12 * kMs, true, d.plannedShare, true);
    d.probe.reset();
    splits = 0;
    for (int i = 0; i < 256; ++i) {
        SplitHistory::Decision next = l.decide("k", syr2kSize(), syr2kCost());
        if (next.split) {
            ++splits;
            l.recordSplit("k", syr2kSize(), 12 * kMs, next.probe != nullptr, next.plannedShare, next.plannedShare > 0);
        } else if (next.timeWhole) {
            l.recordWhole("k", syr2kSize(), kSyr2kWhole);
        }
    }
    CHECK(splits <= 8);
}

TEST_CASE("split history: a planned split that was a process's first split (not measured), or ran whole, is tried again",
          "[split_history][plan]") {
    SplitHistory h;
    syr2kProbed(h);
    // The next run of the program: its first split loads the variants and is not measured.
    SplitHistory next;
    REQUIRE(next.deserialize(h.serialize()));
    SplitHistory::Decision first = next.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(first.plannedShare > 0);
    next.recordSplit("k", syr2kSize(), 40 * kMs, true, first.plannedShare, true);
    first.probe.reset();
    SplitHistory::Decision second = next.decide("k", syr2kSize(), syr2kCost());
    CHECK(second.split);
    CHECK(second.plannedShare > 0);
    // A planned split that ran whole after all (its variants were still being built, say) is not a try.
    SplitHistory whole;
    syr2kProbed(whole);
    SplitHistory::Decision built = whole.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(built.plannedShare > 0);
    built.probe.reset();  // dropped unrun
    SplitHistory::Decision again = whole.decide("k", syr2kSize(), syr2kCost());
    CHECK(again.split);
    CHECK(again.plannedShare > 0);
}

TEST_CASE("split history: a plan that lost because the CPU was slower is re-planned smaller and tried at once",
          "[split_history][plan]") {
    SplitHistory h;
    syr2kProbed(h);
    SplitHistory::Decision d = h.decide("k", syr2kSize(), syr2kCost());
    REQUIRE(d.plannedShare > 0);
    const double first = d.plannedShare, items = 1024.0 * 1024.0;
    // The CPU ran 1.45 times slower than planned (another run of the program on a busier machine).
    h.recordCpuSpeed("k", first * items, 1.45 * 4.73 * kMs * first * items / (128 * 256), 0);
    h.recordSplit("k", syr2kSize(), 11 * kMs, true, first, true);
    d.probe.reset();
    SplitHistory::Decision next = h.decide("k", syr2kSize(), syr2kCost());
    CHECK(next.split);
    CHECK(next.plannedShare > 0);
    CHECK(next.plannedShare < SplitHistory::kRetryShare * first);
    // A faster chunk afterwards counts half-way only.
    const double slow = h.planShare("k", kSyr2kWhole, items, syr2kCost());
    h.recordCpuSpeed("k", first * items, 0.5 * 4.73 * kMs * first * items / (128 * 256), 0);
    const double after = h.planShare("k", kSyr2kWhole, items, syr2kCost());
    CHECK(after > slow);
    h.recordCpuSpeed("k", first * items, 0.5 * 4.73 * kMs * first * items / (128 * 256), 0);
    CHECK(h.planShare("k", kSyr2kWhole, items, syr2kCost()) > after);
}

TEST_CASE("split history: a launch whose engine runs no planned shares is decided by the model, never planned",
          "[split_history][plan]") {
    // The CPU's speed was learned in discrete memory; a unified context (or an N-way split) in the
    // same process launches the kernel: no plan, and no plan's first try past the probe budget.
    SplitHistory h;
    syr2kProbed(h);
    LaunchCost unified = syr2kCost();
    unified.plannable = false;
    CHECK(h.planShare("k", kSyr2kWhole, 1024.0 * 1024.0, unified) < 0);
    unsigned planned = 0, splits = 0;
    for (int i = 0; i < 256; ++i) {
        SplitHistory::Decision d = h.decide("k", syr2kSize(), unified);
        planned += d.plannedShare > 0;
        splits += d.split;
        if (d.split) h.recordSplit("k", syr2kSize(), 13.5 * kMs, d.probe != nullptr, 0.05);
        else if (d.timeWhole) h.recordWhole("k", syr2kSize(), kSyr2kWhole);
    }
    CHECK(planned == 0);
    CHECK(splits <= 8);
}

namespace {

// syr2k at 2048 x 2048 on one H100, from its STANDARD speeds above: four times the work-items and
// work-groups, 37.08 ms run whole, 16 MiB written; the CPU as fast per work-item as at STANDARD.
LaunchSize largeSize() { return syr2kSize(2048); }
LaunchCost largeCost() {
    LaunchCost c = syr2kCost(2048);
    c.plannable = false;  // as an N-way split's cost (decision.cpp): its CPU share is planned all the same
    c.bytesMoved = 0;
    return c;
}
constexpr double kLargeWhole = 4 * kSyr2kWhole;
constexpr double kLargeItems = 2048.0 * 2048.0;

}  // namespace

TEST_CASE("split history: the CPU's share of an N-way split is planned against the GPUs together", "[split_history][nway]") {
    SplitHistory h;
    // Nothing known of the CPU: negative (the decision gives it the trial share, which measures it).
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);
    loaded(h);
    h.decide("k", largeSize(), largeCost());
    h.recordWhole("k", largeSize(), kLargeWhole);
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);
    h.recordCpuSpeed("k", 128 * 256, 4.73 * kMs, 0.56 * kMs);
    // Two GPUs: the CPU ends before both GPUs' parts, not far before, and takes less than beside one.
    const double two = h.nwayCpuShare("k", largeSize(), 0, 2, largeCost());
    const double one = h.nwayCpuShare("k", largeSize(), 0, 1, largeCost());
    CHECK(two > 0.01);
    CHECK(two < one);
    const double cpuPerItem = 4.73 * kMs / (128 * 256), gpuPerItem = kLargeWhole / kLargeItems;
    const double cpuEnds = 0.56 * kMs + SplitHistory::kSplitFixedSeconds + (16 << 20) / SplitHistory::kSendBytesPerSecond +
                           two * kLargeItems * cpuPerItem;
    const double gpusEnd = (1 - two) * kLargeItems * gpuPerItem / 2;
    CHECK(cpuEnds < gpusEnd);
    CHECK(cpuEnds > 0.7 * gpusEnd);
    // Four GPUs: their 9.3 ms leave the CPU nothing that gains 2 % after its fixed costs.
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 4, largeCost()) == 0);
}

TEST_CASE("split history: without a whole timing, an N-way split's CPU share goes by one GPU's speed in its part",
          "[split_history][nway]") {
    SplitHistory h;
    // HETERO_SPLIT=always times nothing whole; the first split in the process measures nothing.
    h.recordNwayGpuSpeed("k", 0, kLargeItems / 2, 0.5 * kLargeWhole);
    h.recordCpuSpeed("k", 128 * 256, 4.73 * kMs, 0.56 * kMs);
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);
    h.recordSplit("k", largeSize(), 30 * kMs, false);  // the process's first split
    h.recordCpuSpeed("k", 128 * 256, 4.73 * kMs, 0.56 * kMs);
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);  // the GPUs' speed is not known yet
    h.recordNwayGpuSpeed("k", 0, kLargeItems / 2, 0.5 * kLargeWhole);
    const double share = h.nwayCpuShare("k", largeSize(), 0, 2, largeCost());
    CHECK(share > 0.01);
    // The same as with the size timed whole at that speed.
    SplitHistory timed;
    loaded(timed);
    timed.decide("k", largeSize(), largeCost());
    timed.recordWhole("k", largeSize(), kLargeWhole);
    timed.recordCpuSpeed("k", 128 * 256, 4.73 * kMs, 0.56 * kMs);
    CHECK(share == Approx(timed.nwayCpuShare("k", largeSize(), 0, 2, largeCost())));
    // A GPU measured slower in one split is believed half-way: the CPU's share grows, but less.
    h.recordNwayGpuSpeed("k", 0, kLargeItems / 2, 1.0 * kLargeWhole);
    const double slower = h.nwayCpuShare("k", largeSize(), 0, 2, largeCost());
    CHECK(slower > share);
    CHECK(slower < 2 * share);
    // Kept between runs, and a history written before the field was read back without it.
    SplitHistory second;
    REQUIRE(second.deserialize(h.serialize()));
    CHECK(second.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) == slower);
    std::string old = h.serialize();
    const size_t kernelLine = old.find("kernel k ");
    REQUIRE(kernelLine != std::string::npos);
    const size_t end = old.find('\n', kernelLine);
    const size_t last = old.rfind(' ', end);
    old.erase(last, end - last);  // the kernel line's last field
    SplitHistory third;
    REQUIRE(third.deserialize(old));
    CHECK(third.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);
    CHECK_FALSE(third.deserialize(std::string(h.serialize()).insert(end, " 1")));
}

TEST_CASE("split history: an N-way split with the CPU's trial share is no measurement of the split", "[split_history][nway]") {
    SplitHistory h;
    // The process's first split (a trial too) loads the variants; the next trial measures the CPU,
    // and is held back by it past running whole. Neither counts: the launch after still probes.
    loaded(h);
    SplitHistory::Decision first = h.decide("k", largeSize(), largeCost());
    REQUIRE_FALSE(first.split);
    h.recordWhole("k", largeSize(), kLargeWhole);
    SplitHistory::Decision trial = h.decide("k", largeSize(), largeCost());
    REQUIRE(trial.split);
    h.recordCpuSpeed("k", 0.01 * kLargeItems, 30 * kMs, 0.5 * kMs);  // a slow CPU
    h.recordNwayGpuSpeed("k", 0, 0.495 * kLargeItems, 0.495 * kLargeWhole);
    h.recordTrialSplit("k", largeSize(), 3 * kLargeWhole);
    trial.probe.reset();
    CHECK(h.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) == 0);  // planned out
    SplitHistory::Decision next = h.decide("k", largeSize(), largeCost());
    CHECK(next.split);
    CHECK(next.probe);
    // Recorded as a split, the trial would have lost: the next launches run whole.
    SplitHistory lost;
    loaded(lost);
    lost.decide("k", largeSize(), largeCost());
    lost.recordWhole("k", largeSize(), kLargeWhole);
    SplitHistory::Decision probe = lost.decide("k", largeSize(), largeCost());
    REQUIRE(probe.split);
    lost.recordSplit("k", largeSize(), 3 * kLargeWhole, true);
    probe.probe.reset();
    CHECK_FALSE(lost.decide("k", largeSize(), largeCost()).split);
    // Trials that measured nothing (their callbacks late) leave the CPU out after kMaxNwayCpuTrials.
    SplitHistory late;
    loaded(late);
    for (unsigned i = 0; i < SplitHistory::kMaxNwayCpuTrials; ++i) {
        CHECK(late.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) < 0);
        late.recordTrialSplit("k", largeSize(), kLargeWhole);
    }
    CHECK(late.nwayCpuShare("k", largeSize(), 0, 2, largeCost()) == 0);
}

TEST_CASE("split history: GPUs of one name share equally, others by their speeds once all were measured",
          "[split_history][nway]") {
    SplitHistory h;
    loaded(h);
    std::vector<double> w;
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, true, w);
    CHECK(w == std::vector<double>{1, 1});
    // Different names, nothing measured: by compute units; one measured is not enough.
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    CHECK(w == std::vector<double>{132, 66});
    h.recordNwayGpuSpeed("k", 1, 1000, 1 * kMs);
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    CHECK(w == std::vector<double>{132, 66});
    // Both measured: slot 1 three times as fast per work-item as slot 0, against its compute units.
    h.recordNwayGpuSpeed("k", 0, 1000, 3 * kMs);
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    REQUIRE(w.size() == 2);
    CHECK(w[1] / w[0] == Approx(3));
    // Faster news at once, slower half-way; other kernels know nothing of it.
    h.recordNwayGpuSpeed("k", 0, 1000, 1 * kMs);
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    CHECK(w[1] / w[0] == Approx(1));
    h.recordNwayGpuSpeed("k", 0, 1000, 3 * kMs);
    h.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    CHECK(w[1] / w[0] == Approx(2));
    h.nwayGpuWeights("other", {0, 1}, {132, 66}, false, w);
    CHECK(w == std::vector<double>{132, 66});
    // Kept between runs.
    SplitHistory second;
    REQUIRE(second.deserialize(h.serialize()));
    second.nwayGpuWeights("k", {0, 1}, {132, 66}, false, w);
    CHECK(w[1] / w[0] == Approx(2));
}

TEST_CASE("split history: launches a verdict ran whole untimed, counted afterwards, leave the timings and the history as "
          "deciding each would",
          "[split_history][verdict]") {
    // Two histories of one kernel at a size that cannot gain: one decides every launch, the other
    // only where the decision before did not cover the launch (Decision::wholeUntimedFor), counting
    // the covered ones afterwards as the direct way does (whole_verdict.hpp).
    SplitHistory each, covered;
    for (SplitHistory* h : {&each, &covered}) {
        loaded(*h);
        REQUIRE(h->decide("k", size(64)).timeWhole);
        h->recordWhole("k", size(64), 0.1 * kMs);
    }
    const unsigned total = 1u << 15;
    std::vector<unsigned> timedEach, timedCovered;
    for (unsigned i = 0; i < total; ++i) {
        SplitHistory::Decision d = each.decide("k", size(64));
        REQUIRE_FALSE(d.split);
        if (d.timeWhole) {
            timedEach.push_back(i);
            each.recordWhole("k", size(64), 0.1 * kMs);
        }
    }
    unsigned fresh = 0;
    for (unsigned i = 0; i < total;) {
        SplitHistory::Decision d = covered.decide("k", size(64));
        ++fresh;
        REQUIRE_FALSE(d.split);
        CHECK(d.wholeUntimedFor <= SplitHistory::kMostWholeUntimed);
        if (d.timeWhole) {
            CHECK(d.wholeUntimedFor == 0);
            timedCovered.push_back(i);
            covered.recordWhole("k", size(64), 0.1 * kMs);
        }
        const unsigned more = std::min(d.wholeUntimedFor, total - i - 1);
        covered.countWholeLaunches("k", size(64), more);
        i += 1 + more;
    }
    CHECK(timedCovered == timedEach);
    CHECK(timedEach.size() >= 4);  // 256, 512, 1024, ... within the launches
    // The same history, but for the kernel's time run whole summed in another order (its 5th field).
    auto fields = [](const std::string& text) {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string f; in >> f;) out.push_back(f);
        return out;
    };
    const auto a = fields(covered.serialize()), b = fields(each.serialize());
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        if (i >= 4 && a[i - 4] == "kernel")
            CHECK(std::stod(a[i]) == Approx(std::stod(b[i])));
        else
            CHECK(a[i] == b[i]);
    }
    CHECK(fresh <= total / SplitHistory::kMostWholeUntimed + 2 * timedEach.size() + 2);
}

TEST_CASE("split history: a size that may gain, or one timed now, is decided afresh at its next launch",
          "[split_history][verdict]") {
    SplitHistory h;
    loaded(h);
    // Never measured: it may gain, and is timed at once.
    SplitHistory::Decision d = h.decide("k", size(64));
    CHECK(d.timeWhole);
    CHECK(d.wholeUntimedFor == 0);
    // Long enough to gain with a CPU as fast as the GPU (kPriorCpuRatio): probes and timings follow.
    h.recordWhole("k", size(64), 100 * kMs);
    for (int i = 0; i < 64; ++i) {
        d = h.decide("k", size(64));
        CHECK(d.wholeUntimedFor == 0);
        if (d.timeWhole) h.recordWhole("k", size(64), 100 * kMs);
        if (d.split) h.recordSplit("k", size(64), 120 * kMs, d.probe != nullptr, 0.1);
    }
}

TEST_CASE("split history: measurements change the history, deciding and counting launches do not",
          "[split_history][verdict]") {
    SplitHistory h;
    loaded(h);
    uint64_t before = h.changes();
    h.decide("k", size(64));
    h.countWholeLaunches("k", size(64), 5);
    CHECK(h.changes() == before);
    h.recordWhole("k", size(64), 0.1 * kMs);
    CHECK(h.changes() > before);
    before = h.changes();
    h.recordWhole("k", size(64), -1);  // a timing that failed: the size may be timed again
    CHECK(h.changes() > before);
    before = h.changes();
    h.recordSplit("k", size(64), 0.2 * kMs, true, 0.1);
    CHECK(h.changes() > before);
    before = h.changes();
    h.recordCpuSpeed("k", 1000, 1 * kMs, 0.1 * kMs);
    CHECK(h.changes() > before);
    before = h.changes();
    h.recordNwayGpuSpeed("k", 1, 1000, 1 * kMs);
    CHECK(h.changes() > before);
    before = h.changes();
    h.recordTrialSplit("k", size(64), 1 * kMs);
    CHECK(h.changes() > before);
    before = h.changes();
    SplitHistory read;
    const uint64_t readBefore = read.changes();
    REQUIRE(read.deserialize(h.serialize()));
    CHECK(read.changes() > readBefore);
    CHECK(h.changes() == before);
}

namespace {

// One process of a program launching kernel "k" at one size, on a machine where it takes 4.75 ms
// whole and 4.59 ms split (syrk STANDARD on an H200, docs/results/h200-session42), with the engine
// as auto mode meets it: a split asked for before the variants are loaded starts their build and
// runs whole (they are loaded from the next launch on); the process's first split measures nothing.
struct ShortGainProcess {
    explicit ShortGainProcess(const std::string& history = {}) {
        if (!history.empty()) REQUIRE(h.deserialize(history));
    }
    SplitHistory h;
    bool variantsLoaded = false;
    unsigned splits = 0, firstSplitAt = 0;

    std::string run(unsigned launches) {
        for (unsigned i = 1; i <= launches; ++i) {
            LaunchCost cost = syr2kCost();
            cost.variantsLoaded = variantsLoaded;
            SplitHistory::Decision d = h.decide("k", syr2kSize(), cost);
            if (d.split && !variantsLoaded) {
                variantsLoaded = true;  // this launch runs whole while they build
            } else if (d.split) {
                ++splits;
                if (firstSplitAt == 0) firstSplitAt = i;
                h.recordSplit("k", syr2kSize(), 4.59 * kMs, d.probe != nullptr);
            } else if (d.timeWhole) {
                h.recordWhole("k", syr2kSize(), 4.75 * kMs);
            }
        }
        return h.serialize();  // as at the process's exit
    }
};

}  // namespace

TEST_CASE("split history: a process too short to gain back loading the variants and its first split runs whole",
          "[split_history][payback]") {
    // A long first process learns that splitting pays (0.16 ms a launch).
    ShortGainProcess first;
    std::string history = first.run(100);
    REQUIRE(first.splits > 80);
    CHECK(history.find(" perprocess=100\n") != std::string::npos);
    // Then processes of two launches: the first of them expects a long one (the average says 100)
    // and splits; as the average comes down, they stop paying for a split they cannot gain back.
    std::vector<unsigned> splits;
    for (int p = 0; p < 10; ++p) {
        ShortGainProcess two(history);
        history = two.run(2);
        splits.push_back(two.splits);
    }
    CHECK(splits.front() == 1);
    CHECK(std::all_of(splits.end() - 4, splits.end(), [](unsigned n) { return n == 0; }));
    // A process that runs on past the average is expected to run as long again: it splits once
    // that gains back the cost, and then splits as before.
    ShortGainProcess longer(history);
    longer.run(200);
    CHECK(longer.firstSplitAt >= 8);
    CHECK(longer.firstSplitAt <= 24);
    CHECK(longer.splits > 150);
}

TEST_CASE("split history: a probe that a process could not measure or gain back is not tried",
          "[split_history][payback]") {
    // Processes of two launches: the first loads the kernel, the second is timed whole.
    ShortGainProcess first;
    const std::string history = first.run(2);
    REQUIRE(first.splits == 0);
    REQUIRE(history.find(" perprocess=2\n") != std::string::npos);
    // The next one would probe at its first launch (it may gain, by the model), but its variants
    // would load for a probe that runs at its second launch and measures nothing.
    ShortGainProcess second(history);
    second.run(2);
    CHECK(second.splits == 0);
    CHECK_FALSE(second.variantsLoaded);  // nor were they loaded
    // With the variants built already (HETERO_SPLIT_BUILD=eager), only the first split's extra is
    // to gain back: two launches at the model's bound do.
    ShortGainProcess eager(history);
    eager.variantsLoaded = true;
    eager.run(2);
    CHECK(eager.splits > 0);
    // Without the history of earlier processes, a process may probe as before.
    ShortGainProcess fresh;
    fresh.run(6);
    CHECK(fresh.splits > 0);
}

TEST_CASE("split history: launches per process are kept between runs, and a history without them reads as before",
          "[split_history][payback][store]") {
    SplitHistory h;
    loaded(h);
    for (int i = 0; i < 9; ++i) h.decide("k", size(64));
    h.countWholeLaunches("k", size(64), 10);
    const std::string text = h.serialize();
    REQUIRE(text.find(" perprocess=20\n") != std::string::npos);  // loaded's launch, 9, 10
    SplitHistory next;
    REQUIRE(next.deserialize(text));
    CHECK(next.serialize() == text);  // nothing launched in it: the average as it was
    next.decide("k", size(64));
    CHECK(next.serialize().find(" perprocess=10.5\n") != std::string::npos);
    // Written before the field existed: read, with nothing known per process.
    std::string old = text;
    old.erase(old.find(" perprocess=20"), std::string(" perprocess=20").size());
    SplitHistory older;
    REQUIRE(older.deserialize(old));
    older.decide("k", size(64));
    CHECK(older.serialize().find(" perprocess=1\n") != std::string::npos);
    for (const char* bad : {" perprocess=-1", " perprocess=0", " perprocess=x", " perprocess="}) {
        std::string damaged = text;
        damaged.replace(damaged.find(" perprocess=20"), std::string(" perprocess=20").size(), bad);
        SplitHistory rejected;
        CHECK_FALSE(rejected.deserialize(damaged));
    }
}

TEST_CASE("split history: a process that would have split with its variants built has them built with the program next",
          "[split_history][payback][prebuild]") {
    // Two launches a process: the first process loads the kernel and times it whole.
    ShortGainProcess first;
    std::string history = first.run(2);
    CHECK(history.find(" prebuild=") == std::string::npos);  // no split was on the cards
    // The next would probe with its variants built, but loading them does not pay back: it runs
    // whole, and says so for the next process.
    ShortGainProcess second(history);
    history = second.run(2);
    REQUIRE(second.splits == 0);
    REQUIRE_FALSE(second.variantsLoaded);
    CHECK(history.find(" prebuild=1 perprocess=2\n") != std::string::npos);
    // That one builds them with the program (ProgramVariants, from clBuildProgram) and splits.
    ShortGainProcess third(history);
    REQUIRE(third.h.prebuildVariants("k"));
    CHECK_FALSE(third.h.prebuildVariants("other"));
    third.variantsLoaded = true;
    history = third.run(2);
    CHECK(third.firstSplitAt == 1);
    CHECK(history.find(" prebuild=1 ") != std::string::npos);
    // A process that does not launch the kernel keeps what the file said; one whose launches could
    // not gain (all of them fit the GPU at once) takes it back.
    SplitHistory idle;
    REQUIRE(idle.deserialize(history));
    CHECK(idle.serialize() == history);
    LaunchCost fits = syr2kCost();
    fits.workGroups = 4;
    fits.gpuComputeUnits = 132;
    idle.decide("k", syr2kSize(), fits);
    const std::string after = idle.serialize();
    CHECK(after.find(" prebuild=") == std::string::npos);
    SplitHistory next;
    REQUIRE(next.deserialize(after));
    CHECK_FALSE(next.prebuildVariants("k"));
    // Values other than 0 and 1 make the file no history, as any damage does; 0 reads as absent.
    for (const char* bad : {" prebuild=2", " prebuild=", " prebuild=yes"}) {
        std::string damaged = history;
        damaged.replace(damaged.find(" prebuild=1"), std::string(" prebuild=1").size(), bad);
        SplitHistory rejected;
        CHECK_FALSE(rejected.deserialize(damaged));
    }
    std::string zero = history;
    zero.replace(zero.find(" prebuild=1"), std::string(" prebuild=1").size(), " prebuild=0");
    SplitHistory read;
    REQUIRE(read.deserialize(zero));
    CHECK_FALSE(read.prebuildVariants("k"));
}
