// transform.build_log.*: what the transform says about programs it cannot (or can) handle, checked
// against what PoCL does with the same program: never a failure where the native build succeeds.
#include "cl_env.hpp"
#include "transform/transform.hpp"

#include <catch2/catch.hpp>

namespace {

namespace tf = hetero::transform;

cl_int nativeBuild(const std::vector<std::string>& sources, const std::string& options)
{
    const cltest::Device& device = cltest::poclDevice();
    cltest::ContextAndQueue context = cltest::makeContext(device);
    return cltest::buildProgram(context.context.get(), device.device, sources, options).status;
}

}  // namespace

TEST_CASE("transform.build_log.syntax_error_is_reported_and_nothing_split", "[transform]")
{
    const std::vector<std::string> sources = {"__kernel void broken(__global int *a)\n{\n    a[0] = ;\n}\n"};
    REQUIRE(nativeBuild(sources, "") != CL_SUCCESS);  // the backend rejects it too
    tf::ProgramAnalysis analysis = tf::analyze(sources, "");
    INFO(analysis.log);
    CHECK(analysis.log.find("error") != std::string::npos);
    for (const tf::KernelAnalysis& kernel : analysis.kernels)
        CHECK_FALSE(kernel.splittable);
}

TEST_CASE("transform.build_log.application_build_options_are_accepted", "[transform]")
{
    const std::vector<std::string> sources = {
        "__kernel void scale(__global float *a, float s)\n{\n    a[get_global_id(0)] *= s * FACTOR;\n}\n"};
    const std::string options = "-DFACTOR=2.0f -cl-fast-relaxed-math -cl-denorms-are-zero -cl-kernel-arg-info "
                                "-cl-single-precision-constant -cl-opt-disable -Werror -w";
    REQUIRE(nativeBuild(sources, options) == CL_SUCCESS);
    tf::ProgramAnalysis analysis = tf::analyze(sources, options);
    INFO(analysis.log);
    REQUIRE(analysis.parsed);
    const tf::KernelAnalysis* kernel = analysis.find("scale");
    REQUIRE(kernel != nullptr);
    CHECK(kernel->splittable);
    tf::Variants variants = tf::makeVariants(sources, options, analysis);
    INFO(variants.log << "\n" << variants.source);
    CHECK(nativeBuild({variants.source}, options) == CL_SUCCESS);
}

TEST_CASE("transform.build_log.unsplittable_programs_still_build", "[transform]")
{
    // Every kernel refused: the variants program is still a program the backend builds, holding
    // the application's kernels.
    const std::vector<std::string> sources = {
        "__kernel void count(__global int *c)\n{\n    atomic_inc(c);\n}\n",
        "__kernel void say(__global int *o)\n{\n    printf(\"%d\\n\", (int)get_global_id(0));\n    o[0] = 1;\n}\n"};
    REQUIRE(nativeBuild(sources, "") == CL_SUCCESS);
    tf::ProgramAnalysis analysis = tf::analyze(sources, "");
    INFO(analysis.log);
    REQUIRE(analysis.parsed);
    REQUIRE(analysis.kernels.size() == 2);
    for (const tf::KernelAnalysis& kernel : analysis.kernels) {
        INFO(kernel.name);
        CHECK_FALSE(kernel.splittable);
        CHECK(analysis.log.find(kernel.name) != std::string::npos);  // the reason is logged
    }
    tf::Variants variants = tf::makeVariants(sources, "", analysis);
    INFO(variants.source);
    CHECK(nativeBuild({variants.source}, "") == CL_SUCCESS);
}
