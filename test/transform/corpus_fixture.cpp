#include "corpus_fixture.hpp"

#include <map>

namespace corpus {

const std::string& corpusDir()
{
    static const std::string dir = HETERO_CORPUS_DIR;
    return dir;
}

const std::vector<ProgramSpec>& allPrograms()
{
    static const std::vector<ProgramSpec> programs = loadCorpus(corpusDir());
    return programs;
}

const hetero::transform::ProgramAnalysis& analysisOf(const ProgramSpec& program)
{
    static std::map<std::string, hetero::transform::ProgramAnalysis> cache;
    auto found = cache.find(program.file);
    if (found == cache.end())
        found = cache.emplace(program.file, hetero::transform::analyze(program.sources, program.options)).first;
    return found->second;
}

const hetero::transform::Variants& variantsOf(const ProgramSpec& program)
{
    static std::map<std::string, hetero::transform::Variants> cache;
    auto found = cache.find(program.file);
    if (found == cache.end())
        found = cache.emplace(program.file,
                              hetero::transform::makeVariants(program.sources, program.options, analysisOf(program)))
                    .first;
    return found->second;
}

}  // namespace corpus
