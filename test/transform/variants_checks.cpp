// transform.variants_compile.<kernel>: the original program and the generated variants program
// both build on PoCL, and both variants take the application's arguments plus the extra ones.
#include "cl_env.hpp"
#include "corpus_fixture.hpp"

#include <catch2/catch.hpp>

namespace corpus {

void checkVariantsCompile(const ProgramSpec& program, const KernelSpec& spec)
{
    namespace tf = hetero::transform;
    const tf::ProgramAnalysis& analysis = analysisOf(program);
    const tf::KernelAnalysis* kernel = analysis.find(spec.name);
    REQUIRE(kernel != nullptr);
    REQUIRE(kernel->splittable);
    const tf::Variants& variants = variantsOf(program);
    INFO("variants log:\n" << variants.log);

    const cltest::Device& device = cltest::poclDevice();
    cltest::ContextAndQueue context = cltest::makeContext(device);
    cltest::BuildResult original = cltest::buildProgram(context.context.get(), device.device, program.sources,
                                                        program.options);
    INFO("original build log:\n" << original.log);
    REQUIRE(original.status == CL_SUCCESS);

    cltest::BuildResult rewritten = cltest::buildProgram(context.context.get(), device.device, {variants.source},
                                                         program.options);
    INFO("variants build log:\n" << rewritten.log << "\nvariants source:\n" << variants.source);
    REQUIRE(rewritten.status == CL_SUCCESS);

    tf::NDRange range;
    range.dims = spec.ndrange.dims;
    for (unsigned d = 0; d < 3; d++) {
        range.offset[d] = spec.ndrange.offset[d];
        range.global[d] = spec.ndrange.global[d];
        range.local[d] = spec.ndrange.local[d];
    }
    const cl_uint appArgs = static_cast<cl_uint>(spec.args.size());
    std::vector<tf::SubLaunch> subs = tf::chunkLaunches(range, 0, range.numGroups());
    REQUIRE_FALSE(subs.empty());
    cltest::Kernel chunk = cltest::makeKernel(rewritten.program.get(), spec.name + "__hetero_chunk");
    CHECK(cltest::kernelNumArgs(chunk.get()) == appArgs + subs[0].extraArgs.size());
    cltest::Kernel abortable = cltest::makeKernel(rewritten.program.get(), spec.name + "__hetero_abort");
    CHECK(cltest::kernelNumArgs(abortable.get()) == appArgs + 1 + tf::abortExtraArgs(range, 1).size());
    // The original kernel is still there, unchanged in its interface.
    cltest::Kernel same = cltest::makeKernel(rewritten.program.get(), spec.name);
    CHECK(cltest::kernelNumArgs(same.get()) == appArgs);
}

}  // namespace corpus
