// The program trace_check.py runs with HETERO_TRACE set (hidden: [.trace-program]): unified split
// launches of three shapes, one after another, each checked.
#include "unified_support.hpp"

using namespace unified;

TEST_CASE("unified: launches for the trace check", "[.trace-program]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    struct Launch {
        const char* kernel;
        cl_uint dims;
        size_t global[3], local[3];
    };
    // Keep in step with trace_check.py: 256, 60 and 105 work-groups, each launched twice.
    const Launch launches[] = {{"mark1", 1, {4096, 1, 1}, {16, 1, 1}},
                               {"mark2", 2, {60, 32, 1}, {4, 8, 1}},
                               {"mark3", 3, {10, 6, 14}, {2, 2, 2}}};
    for (const Launch& l : launches) {
        size_t n = l.global[0] * l.global[1] * l.global[2];
        std::vector<cl_int> zeros(n, 0);
        cl_mem hits = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), zeros.data());
        cl_mem ids = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
        cl_kernel k = env.kernel(p, l.kernel);
        cltest::setArg(k, 0, hits), cltest::setArg(k, 1, ids);
        for (int i = 0; i < 2; ++i) {
            REQUIRE(clEnqueueNDRangeKernel(env.queue, k, l.dims, nullptr, l.global, l.local, 0, nullptr, nullptr) == CL_SUCCESS);
            REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        }
        auto h = env.read<cl_int>(hits, n);
        CHECK(std::all_of(h.begin(), h.end(), [](cl_int v) { return v == 2; }));
        clReleaseKernel(k), clReleaseMemObject(hits), clReleaseMemObject(ids);
    }
    clReleaseProgram(p);
}
