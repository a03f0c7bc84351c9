// Generation of the __hetero_chunk and __hetero_abort kernels as text edits on the program source.
#pragma once

#include "analyzer.hpp"
#include "parse.hpp"
#include "transform/transform.hpp"

#include <set>
#include <string>

namespace hetero::transform::detail {

// Variants for the kernels named in `kernels` (each must be splittable in `model`).
Variants generateVariants(const ParsedProgram& program, const ProgramModel& model, const std::set<std::string>& kernels);

// Names the variants #define around the copies or use in code inserted into them: the program must
// not define them as macros. And every identifier of the helpers placed before the program, which
// the build options must not define.
std::set<std::string> rewriterMacroNames();
std::set<std::string> preambleIdentifiers();

// How the abortable variant checks the status at a work-group's start ("cached", "item", "group");
// part of the variants' cache key.
std::string startCheckMode();

// The text of one kernel's generated variants, for the command-line tool (empty if none).
std::string chunkKernelText(const ParsedProgram& program, const ProgramModel& model, const std::string& kernel);
std::string abortKernelText(const ParsedProgram& program, const ProgramModel& model, const std::string& kernel);

}  // namespace hetero::transform::detail
