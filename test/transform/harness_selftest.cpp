// transform.harness.*: the differential checks can fail. Hand-written wrong variants of a small
// kernel must produce the differences that transform.differential.* turns into failures, and the
// host merge must work per element. (Catching an abort after a global store, H1, depends on
// timing and is not asserted here; see h1_cancelling_loops.cl.)
#include "corpus_spec.hpp"
#include "split_harness.hpp"

#include <catch2/catch.hpp>

#include <cstring>

namespace {

namespace tf = hetero::transform;

const char* const programText = R"(
//@ kernel tag_groups
//@ ndrange 1 global=64 local=8
//@ arg out global uint 64 zero w
//@ arg vals global float 64 rand rw
//@ expect splittable
__kernel void tag_groups(__global uint *out, __global float *vals)
{
    size_t i = get_global_id(0);
    out[i] = get_group_id(0) * 1000 + get_num_groups(0);
    vals[i] = vals[i] * 0.5f + 1.0f;
}
)";

// Extra parameter declarations matching whatever chunkLaunches() passes, by size.
std::string chunkExtraParams()
{
    tf::NDRange range;
    range.global[0] = 64;
    range.local[0] = 8;
    std::string params;
    int n = 0;
    for (const tf::ExtraArg& arg : tf::chunkLaunches(range, 0, 8).at(0).extraArgs) {
        const char* type = arg.size == 4 ? "uint" : arg.size == 8 ? "ulong" : arg.size == 16 ? "ulong2"
                         : arg.size == 32 ? "ulong4" : arg.size == 64 ? "ulong8" : "ulong16";
        params += std::string(", ") + type + " unused" + std::to_string(n++);
    }
    return params;
}

// A variants source: the chunk variant uses the given group-ID expression, the abortable
// variant the given abort test.
std::string variantsSource(const std::string& chunkGroupId, const std::string& abortTest)
{
    return std::string(programText) + "\n__kernel void tag_groups__hetero_chunk(__global uint *out, __global float *vals"
           + chunkExtraParams() + ")\n{\n    size_t i = get_global_id(0);\n    out[i] = (" + chunkGroupId
           + ") * 1000 + 8;\n    vals[i] = vals[i] * 0.5f + 1.0f;\n}\n"
           + "__kernel void tag_groups__hetero_abort(__global uint *out, __global float *vals, volatile __global uint *st,"
             " uint launch)\n{\n    if (" + abortTest + ")\n        return;\n"
           + "    size_t i = get_global_id(0);\n    out[i] = get_group_id(0) * 1000 + get_num_groups(0);\n"
             "    vals[i] = vals[i] * 0.5f + 1.0f;\n}\n";
}

const std::string rightGroupId = "get_global_id(0) / 8";
const std::string rightAbort = "st[0] == launch && get_group_id(0) >= st[1]";

struct SelfTest {
    corpus::ProgramSpec program = corpus::parseProgram(".", "selftest.cl", programText);
    tf::KernelAnalysis analysis;

    SelfTest()
    {
        analysis.name = "tag_groups";
        analysis.splittable = true;
        for (const corpus::ArgSpec& arg : program.kernels.at(0).args) {
            tf::ParamInfo param;
            param.name = arg.name;
            param.mayWrite = arg.write;
            param.storeSizes = arg.storeSizes;
            analysis.params.push_back(param);
        }
    }
};

bool anyDifference(const splittest::Harness& harness, const splittest::BufferSet& a, const splittest::BufferSet& b)
{
    for (size_t arg : harness.bufferArgs())
        if (!harness.difference(a, b, arg).empty())
            return true;
    return false;
}

}  // namespace

TEST_CASE("transform.harness.right_variants_pass", "[transform]")
{
    SelfTest self;
    splittest::Harness harness(self.program, self.program.kernels.at(0), self.analysis,
                               variantsSource(rightGroupId, rightAbort));
    splittest::BufferSet init = harness.initialBuffers(3);
    splittest::BufferSet reference = harness.runReference(init);
    std::mt19937_64 rng(5);
    CHECK_FALSE(anyDifference(harness, reference, harness.runChunksOnly(init, splittest::randomChunks(8, rng))));
    CHECK_FALSE(anyDifference(harness, reference, harness.runAbortable(init, 9, 8, 9)));
    CHECK_FALSE(anyDifference(harness, reference, harness.runAbortable(init, 10, 0, 9)));
    CHECK_FALSE(anyDifference(harness, init, harness.runAbortable(init, 9, 0, 9)));
    for (int s = 0; s < 10; s++)
        CHECK_FALSE(anyDifference(harness, reference,
                                  harness.runSplit(init, splittest::randomSchedule(8, rng, 100), 1 + s).merged));
}

TEST_CASE("transform.harness.chunk_variant_with_wrong_group_ids_differs", "[transform]")
{
    SelfTest self;
    // get_group_id left as the sub-launch's own: wrong whenever a chunk does not start at group 0.
    splittest::Harness harness(self.program, self.program.kernels.at(0), self.analysis,
                               variantsSource("get_group_id(0)", rightAbort));
    splittest::BufferSet init = harness.initialBuffers(3);
    splittest::BufferSet reference = harness.runReference(init);
    CHECK(anyDifference(harness, reference, harness.runChunksOnly(init, {{4, 8}, {0, 4}})));
}

TEST_CASE("transform.harness.abortable_ignoring_the_launch_id_differs", "[transform]")
{
    SelfTest self;
    splittest::Harness harness(self.program, self.program.kernels.at(0), self.analysis,
                               variantsSource(rightGroupId, "get_group_id(0) >= st[1]"));
    splittest::BufferSet init = harness.initialBuffers(3);
    splittest::BufferSet reference = harness.runReference(init);
    CHECK(anyDifference(harness, reference, harness.runAbortable(init, 10, 0, 9)));
}

TEST_CASE("transform.harness.abortable_that_never_aborts_writes", "[transform]")
{
    SelfTest self;
    splittest::Harness harness(self.program, self.program.kernels.at(0), self.analysis,
                               variantsSource(rightGroupId, "st[0] == launch + 1"));
    splittest::BufferSet init = harness.initialBuffers(3);
    CHECK(anyDifference(harness, init, harness.runAbortable(init, 9, 0, 9)));
}

TEST_CASE("transform.harness.merge_takes_whole_elements", "[transform]")
{
    SelfTest self;
    splittest::Harness harness(self.program, self.program.kernels.at(0), self.analysis,
                               variantsSource(rightGroupId, rightAbort));
    splittest::BufferSet orig = harness.initialBuffers(3), recv = orig, gpu = orig;
    const size_t vals = 1;
    for (size_t k = 0; k < gpu[vals].size(); k++)
        gpu[vals][k] ^= 0x5a;       // the GPU changed every byte
    recv[vals][4 * 7 + 2] ^= 0x01;  // the CPU changed one byte of float 7
    splittest::BufferSet merged = harness.merge(orig, recv, gpu);
    for (size_t e = 0; e < 64; e++) {
        INFO("element " << e);
        const splittest::Bytes& expected = e == 7 ? recv[vals] : gpu[vals];
        CHECK(std::memcmp(&merged[vals][4 * e], &expected[4 * e], 4) == 0);
    }
}
