// The public entry points: analyze() and makeVariants(), through the cache.
#include "analyzer.hpp"
#include "cache.hpp"
#include "large_stack.hpp"
#include "parse.hpp"
#include "transform/transform.hpp"
#include "variants.hpp"

#include <set>

namespace hetero::transform {

namespace {

// The diagnostics if the rewritten program does not parse, else "".
std::string parseErrors(const std::string& source, const std::string& options) {
    auto p = detail::parseProgram({source}, options);
    return p->ok ? std::string() : p->log.empty() ? std::string("errors") : p->log;
}

// A safety net under the rewriter: the variants program is parsed again, and if it has errors, the
// kernels whose variants break it are left out (each tried alone), so a rewrite mistake costs the
// split of those kernels, never the build of the application's program.
Variants verifiedVariants(const detail::ParsedProgram& program, const detail::ProgramModel& model,
                          std::set<std::string> wanted, const std::string& options) {
    Variants v = detail::generateVariants(program, model, wanted);
    if (wanted.empty()) return v;
    const std::string errors = parseErrors(v.source, options);
    if (errors.empty()) return v;
    std::string log = "hetero transform: the rewritten program did not parse:\n" + errors;
    for (auto it = wanted.begin(); it != wanted.end();) {
        const Variants alone = detail::generateVariants(program, model, {*it});
        const std::string e = parseErrors(alone.source, options);
        if (e.empty()) {
            ++it;
        } else {
            log += "hetero transform: kernel " + *it + " is not split: its variants do not parse:\n" + e;
            it = wanted.erase(it);
        }
    }
    v = detail::generateVariants(program, model, wanted);
    if (!wanted.empty() && !parseErrors(v.source, options).empty()) {
        log += "hetero transform: the variants do not parse together; no kernel of this program is split\n";
        v = detail::generateVariants(program, model, {});
    }
    v.log = log + v.log;
    return v;
}

}  // namespace

const KernelAnalysis* ProgramAnalysis::find(const std::string& kernelName) const {
    for (const auto& k : kernels)
        if (k.name == kernelName) return &k;
    return nullptr;
}

ProgramAnalysis analyze(const std::vector<std::string>& sources, const std::string& options) {
    const std::string key = detail::cacheKey(sources, options, "analysis");
    if (auto cached = detail::loadAnalysis(key)) return *cached;
    ProgramAnalysis a;
    detail::runWithLargeStack([&] {
        auto program = detail::parseProgram(sources, options);
        a = detail::analyzeProgram(*program).analysis;
    });
    detail::storeAnalysis(key, a);
    return a;
}

Variants makeVariants(const std::vector<std::string>& sources, const std::string& options,
                      const ProgramAnalysis& analysis) {
    // Only kernels the caller's analysis calls splittable get variants; they are part of the key.
    std::set<std::string> wanted;
    std::string kind = "variants start=" + detail::startCheckMode();
    for (const auto& k : analysis.kernels)
        if (k.splittable) {
            wanted.insert(k.name);
            kind += " " + k.name;
        }
    const std::string key = detail::cacheKey(sources, options, kind);
    if (auto cached = detail::loadVariants(key)) return *cached;
    Variants v;
    detail::runWithLargeStack([&] {
        auto program = detail::parseProgram(sources, options);
        const detail::ProgramModel model = detail::analyzeProgram(*program);
        v = verifiedVariants(*program, model, wanted, options);
    });
    detail::storeVariants(key, v);
    return v;
}

}  // namespace hetero::transform
