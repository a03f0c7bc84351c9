// transform.differential.<kernel>: split execution through the generated variants is bit-identical
// to the original kernel, over deterministic status words and many random schedules.
#include "corpus_fixture.hpp"
#include "split_harness.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <iostream>

namespace corpus {
namespace {

int envInt(const char* name, int fallback)
{
    const char* value = std::getenv(name);
    return value && *value ? std::atoi(value) : fallback;
}

// Every buffer of `actual` equals `expected`, argument by argument.
void requireSame(const splittest::Harness& harness, const splittest::BufferSet& expected,
                 const splittest::BufferSet& actual, const char* what)
{
    for (size_t arg : harness.bufferArgs()) {
        std::string difference = harness.difference(expected, actual, arg);
        INFO(what << ": " << difference);
        REQUIRE(difference.empty());
    }
}

}  // namespace

void checkDifferential(const ProgramSpec& program, const KernelSpec& spec)
{
    namespace tf = hetero::transform;
    const tf::KernelAnalysis* kernel = analysisOf(program).find(spec.name);
    REQUIRE(kernel != nullptr);
    REQUIRE(kernel->splittable);
    REQUIRE(kernel->params.size() == spec.args.size());
    splittest::Harness harness(program, spec, *kernel, variantsOf(program).source);
    const uint64_t groups = harness.numGroups();
    REQUIRE(groups == harness.range().numGroups());
    REQUIRE(groups < (uint64_t(1) << 32));

    const uint64_t baseSeed = static_cast<uint64_t>(envInt("HETERO_TRANSFORM_SEED", 20261122))
                              ^ std::hash<std::string>()(spec.testId);
    const int schedules = spec.schedules ? spec.schedules : envInt("HETERO_TRANSFORM_SCHEDULES", 24);
    const int initsEvery = 8;  // new buffer contents (and reference) every few schedules
    std::mt19937_64 rng(baseSeed);
    INFO("base seed " << baseSeed << " (HETERO_TRANSFORM_SEED to vary)");

    splittest::BufferSet init = harness.initialBuffers(baseSeed);
    splittest::BufferSet reference = harness.runReference(init);
    // The corpus kernel itself is deterministic (else no split could match it bit for bit).
    requireSame(harness, reference, harness.runReference(init), "original kernel run twice");
    requireSame(harness, reference, harness.runOriginalFromVariants(init), "original kernel in the variants program");

    // What the analysis calls read-only is left unchanged by the original kernel.
    std::vector<size_t> written = harness.writtenArgs();
    for (size_t arg : harness.bufferArgs()) {
        if (std::find(written.begin(), written.end(), arg) == written.end()) {
            INFO("argument " << spec.args[arg].name << " is not in the analysis' written set");
            REQUIRE(harness.difference(init, reference, arg).empty());
        }
    }

    // The chunk variant alone, over random decompositions of the NDRange.
    for (int i = 0; i < 4; i++) {
        std::vector<splittest::Chunk> chunks = splittest::randomChunks(groups, rng);
        requireSame(harness, reference, harness.runChunksOnly(init, chunks), "chunk variant only");
    }

    // The abortable variant alone under fixed status words.
    const uint32_t launchId = 1 + static_cast<uint32_t>(rng() % 1000000);
    requireSame(harness, reference, harness.runAbortable(init, launchId, static_cast<uint32_t>(groups), launchId),
                "abortable, nothing done by the CPU");
    const unsigned kernelUs = harness.abortableMicros();
    requireSame(harness, reference, harness.runAbortable(init, launchId + 1, 0, launchId),
                "abortable, status of another launch saying everything is done");
    {
        // Everything done by the CPU: every group returns before its first global store.
        splittest::BufferSet untouched = harness.runAbortable(init, launchId, 0, launchId);
        for (size_t arg : harness.bufferArgs()) {
            std::string difference = harness.difference(init, untouched, arg);
            INFO("abortable with every group done by the CPU changed memory: " << difference);
            REQUIRE(difference.empty());
        }
    }

    // The split: chunks and the abortable kernel concurrently, status word moving.
    int changedWhileRunning = 0, discarded = 0, published = 0;
    for (int s = 0; s < schedules; s++) {
        if (s > 0 && s % initsEvery == 0) {
            init = harness.initialBuffers(rng());
            reference = harness.runReference(init);
        }
        splittest::Schedule schedule = splittest::randomSchedule(groups, rng, kernelUs);
        const uint32_t id = 1 + static_cast<uint32_t>(rng() % 1000000);
        splittest::SplitOutcome outcome = harness.runSplit(init, schedule, id);
        INFO("schedule " << s << ": " << schedule.describe() << "; final status " << outcome.finalLowest
                         << ", published " << outcome.chunksPublished << ", discarded " << outcome.chunksDiscarded);
        requireSame(harness, reference, outcome.merged, "merged split result");
        changedWhileRunning += outcome.statusChangedWhileRunning;
        discarded += static_cast<int>(outcome.chunksDiscarded);
        published += static_cast<int>(outcome.chunksPublished);
    }
    std::cout << "transform.differential." << spec.testId << ": " << groups << " groups, abortable kernel ~"
              << kernelUs << " us, " << schedules
              << " schedules, status moved during the abortable kernel in " << changedWhileRunning << ", chunks published "
              << published << ", discarded " << discarded << "\n";
}

}  // namespace corpus
