// The public entry points: analyze() and makeVariants(), through the cache.
#include "analyzer.hpp"
#include "cache.hpp"
#include "parse.hpp"
#include "transform/transform.hpp"
#include "variants.hpp"

namespace hetero::transform {

const KernelAnalysis* ProgramAnalysis::find(const std::string& kernelName) const {
    for (const auto& k : kernels)
        if (k.name == kernelName) return &k;
    return nullptr;
}

ProgramAnalysis analyze(const std::vector<std::string>& sources, const std::string& options) {
    const std::string key = detail::cacheKey(sources, options, "analysis");
    if (auto cached = detail::loadAnalysis(key)) return *cached;
    auto program = detail::parseProgram(sources, options);
    ProgramAnalysis a = detail::analyzeProgram(*program).analysis;
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
    auto program = detail::parseProgram(sources, options);
    const detail::ProgramModel model = detail::analyzeProgram(*program);
    Variants v = detail::generateVariants(*program, model, wanted);
    detail::storeVariants(key, v);
    return v;
}

}  // namespace hetero::transform
