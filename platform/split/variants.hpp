// The split variants of a program's kernels (K__hetero_chunk, K__hetero_abort: transform/README.md),
// built on every slot. The one hook through which programs and kernels take part in splitting.
#pragma once

#include "transform/transform.hpp"

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

class Context;

// The transform's output for one program, compiled on every slot.
struct ProgramVariants {
    transform::ProgramAnalysis analysis;
    std::vector<cl_program> programs;  // per slot; nullptr where the variants did not build
    ~ProgramVariants();
};

// Variant kernels of one application kernel, per slot.
struct KernelVariants {
    std::shared_ptr<ProgramVariants> program;  // keeps analysis and programs alive
    const transform::KernelAnalysis* analysis = nullptr;
    std::vector<cl_kernel> chunk;  // K__hetero_chunk per slot (nullptr: not available)
    std::vector<cl_kernel> abort;  // K__hetero_abort per slot
    bool fixedWorkGroupSize = false;  // reqd_work_group_size: its chunks never run work-groups split
    std::mutex mutex;              // held while a launch sets arguments and enqueues
    ~KernelVariants();
};

// True when launches may be split at all (two slots or more, HETERO_SPLIT not "off").
bool splittingConfigured();

// Analyses `source` and builds the variants on every slot; nullptr when nothing is splittable or
// the variants did not build (logged; never an error for the application).
std::shared_ptr<ProgramVariants> buildProgramVariants(Context* context, const std::string& source,
                                                      const std::string& options);

// Creates the variant kernels of `name`; nullptr when the kernel is not splittable.
std::shared_ptr<KernelVariants> createKernelVariants(const std::shared_ptr<ProgramVariants>& program,
                                                     const std::string& name);

// Sets the transform's extra arguments of a variant kernel, from argument index `first`.
void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra);

}  // namespace hetero
