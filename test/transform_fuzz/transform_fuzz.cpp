// hetero_transform_fuzz: a bounded, seeded fuzzer of the kernel transformation on hostile source text.
//
//   hetero_transform_fuzz source   mutants of the corpus (test/transform/corpus) through analyze() and
//                                  makeVariants() in a child process each (and every 8th through the
//                                  hetero-transform tool): no crash, no hang, no exception; a program the
//                                  transform cannot handle only makes its kernels unsplittable
//   hetero_transform_fuzz icd      mutants that stay valid programs through clBuildProgram on platform
//                                  "Hetero" and on PoCL: the build succeeds through Hetero exactly when
//                                  it does on PoCL, and launches end with bit-identical buffers
//
// Environment: HETERO_FUZZ_SEED (default: from the clock; always printed), HETERO_FUZZ_SECONDS (time
// budget, default 40), HETERO_FUZZ_ITERATIONS (at most this many mutants, default 1000000),
// HETERO_FUZZ_CASE (run only that iteration: with the seed, reproduces one mutant exactly),
// HETERO_FUZZ_HANG_SECONDS (per mutant, source mode; default 120), HETERO_FUZZ_OUT (where failing
// mutants are written; default the working directory). Exit status 1 when any promise was broken.
#include "corpus_spec.hpp"
#include "in_process.hpp"
#include "mutators.hpp"
#include "through_icd.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

uint64_t envNumber(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

std::string envString(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

// Writes the mutant next to the run (one file per source string, and its options) for replay with
// hetero-transform or a test; returns the first file's name.
std::string save(const fuzz::Program& p, const std::string& dir, uint64_t seed, uint64_t iteration) {
    const std::string stem = dir + "/transform-fuzz-" + std::to_string(seed) + "-" + std::to_string(iteration);
    for (size_t i = 0; i < p.sources.size(); ++i)
        std::ofstream(stem + "." + std::to_string(i) + ".cl", std::ios::binary) << p.sources[i];
    std::ofstream(stem + ".options", std::ios::binary) << p.options;
    return stem + ".0.cl";
}

fuzz::Program programOf(const corpus::ProgramSpec& spec) { return {spec.sources, spec.options}; }

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "source";
    if (mode != "source" && mode != "icd") {
        std::cerr << "usage: hetero_transform_fuzz [source|icd] (environment: see the file's header)\n";
        return 2;
    }
    const uint64_t seed = envNumber(
        "HETERO_FUZZ_SEED", static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000007);
    const uint64_t seconds = envNumber("HETERO_FUZZ_SECONDS", 40);
    const uint64_t iterations = envNumber("HETERO_FUZZ_ITERATIONS", 1000000);
    const bool one = std::getenv("HETERO_FUZZ_CASE") != nullptr;
    const uint64_t onlyCase = envNumber("HETERO_FUZZ_CASE", 0);
    const unsigned hangSeconds = static_cast<unsigned>(envNumber("HETERO_FUZZ_HANG_SECONDS", 120));
    const std::string outDir = envString("HETERO_FUZZ_OUT", ".");
    std::cout << "hetero_transform_fuzz " << mode << ": seed " << seed << " (HETERO_FUZZ_SEED=" << seed
              << " reproduces this run), budget " << seconds << " s / " << iterations << " mutants" << std::endl;

    const std::vector<corpus::ProgramSpec> corpusPrograms = corpus::loadCorpus(HETERO_CORPUS_DIR);
    std::vector<const corpus::ProgramSpec*> launchablePrograms;
    for (const auto& p : corpusPrograms) {
        bool any = false;
        for (const auto& k : p.kernels) any = any || fuzz::launchable(k);
        if (any) launchablePrograms.push_back(&p);
    }
    if (corpusPrograms.empty() || launchablePrograms.empty()) {
        std::cerr << "no corpus under " << HETERO_CORPUS_DIR << "\n";
        return 2;
    }

    fuzz::IcdTarget* target = nullptr;
    if (mode == "icd") {
        std::string error;
        target = fuzz::openIcdTarget(error);
        if (!target) {
            std::cerr << "hetero_transform_fuzz icd: " << error << "\n";
            return 2;
        }
    }

    const auto start = std::chrono::steady_clock::now();
    unsigned failures = 0, ran = 0, parsed = 0, parserCrashes = 0, withVariants = 0, nativeBuilt = 0, compared = 0, split = 0;
    for (uint64_t it = one ? onlyCase : 0; it < (one ? onlyCase + 1 : iterations); ++it) {
        if (!one && std::chrono::steady_clock::now() - start >= std::chrono::seconds(seconds)) break;
        fuzz::Rng rng = fuzz::rngFor(seed, it);
        std::string what;
        fuzz::Program mutant;
        const corpus::ProgramSpec* base = nullptr;
        if (mode == "source") {
            base = &corpusPrograms[rng() % corpusPrograms.size()];
            const auto& donor = corpusPrograms[rng() % corpusPrograms.size()];
            mutant = fuzz::mutateHostile(programOf(*base), donor.sources.back(), rng, what);
        } else {
            base = launchablePrograms[rng() % launchablePrograms.size()];
            std::vector<std::string> params;
            for (const auto& k : base->kernels)
                for (const auto& a : k.args) params.push_back(a.name);
            mutant = fuzz::mutateValid(programOf(*base), params, rng, what);
        }
        ++ran;
        std::string problem;
        if (mode == "source") {
            const std::string cli = it % 8 == 7 ? HETERO_TRANSFORM_CLI : "";
            const fuzz::CaseResult r = fuzz::checkInChild(mutant, hangSeconds, cli, outDir);
            parsed += r.parsed;
            withVariants += r.split > 0;
            if (r.kind == fuzz::CaseResult::ParserCrash) {
                ++parserCrashes;
                std::cout << "case " << it << " (" << base->file << what << "): " << r.detail << " (clang's limit)" << std::endl;
            } else if (r.kind != fuzz::CaseResult::Ok) {
                problem = r.detail;
            }
        } else {
            // A crash here ends the run: the line below names the mutant first.
            std::cout << "case " << it << ": " << base->file << what << std::endl;
            const fuzz::IcdResult r = fuzz::buildAndCompare(*target, mutant, *base, seed + it);
            nativeBuilt += r.nativeBuilt;
            compared += r.launchesCompared;
            split += r.launchesSplit;
            problem = r.problem;
        }
        if (!problem.empty()) {
            ++failures;
            const std::string file = save(mutant, outDir, seed, it);
            std::cout << "FAIL case " << it << " (" << base->file << what << "): " << problem << "\n  mutant: "
                      << fuzz::describe(mutant) << ", saved as " << file << "\n  replay: HETERO_FUZZ_SEED=" << seed
                      << " HETERO_FUZZ_CASE=" << it << " " << argv[0] << " " << mode << std::endl;
        }
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("seed %llu: %u mutants in %.0f s, ", static_cast<unsigned long long>(seed), ran, secs);
    if (mode == "source")
        std::printf("%u parsed cleanly, %u with split variants, %u beyond libclang's own parser; %u failures\n", parsed,
                    withVariants, parserCrashes, failures);
    else
        std::printf("%u built on PoCL, %u launches compared (%u split through Hetero); %u failures\n", nativeBuilt,
                    compared, split, failures);
    return failures ? 1 : 0;
}
