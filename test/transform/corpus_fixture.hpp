// The loaded corpus and, per program, the transform library's analysis and variants, computed
// once per process and shared by the checks.
#pragma once

#include "corpus_spec.hpp"
#include "transform/transform.hpp"

#include <string>
#include <vector>

namespace corpus {

const std::string& corpusDir();
const std::vector<ProgramSpec>& allPrograms();
const hetero::transform::ProgramAnalysis& analysisOf(const ProgramSpec& program);
const hetero::transform::Variants& variantsOf(const ProgramSpec& program);

// The checks, one per registered test (see corpus_tests.cpp).
void checkAnalysis(const ProgramSpec& program, const KernelSpec& kernel);
void checkVariantsCompile(const ProgramSpec& program, const KernelSpec& kernel);
void checkDifferential(const ProgramSpec& program, const KernelSpec& kernel);

}  // namespace corpus
