// The unified engine's partition: over NDRanges of every shape, each work-group runs exactly once
// (counted by the kernel itself), on launches from one thread and from several at once.
#include "unified_support.hpp"

#include <algorithm>
#include <fstream>
#include <mutex>
#include <thread>

using namespace unified;

namespace {

struct Shape {
    cl_uint dims;
    size_t global[3];
    size_t local[3];  // {0,...}: NULL local size
    size_t offset[3];
};

size_t items(const Shape& s) { return s.global[0] * (s.dims > 1 ? s.global[1] : 1) * (s.dims > 2 ? s.global[2] : 1); }

const char* kOffsetSource = R"(
    __kernel void mark_offset(__global int* hits, __global int* ids) {
        size_t i = get_global_id(0) - get_global_offset(0);
        hits[i] += 1;
        ids[i] = (int)get_global_id(0);
    }
)";

}  // namespace

TEST_CASE("unified: every work-group runs exactly once, whatever the NDRange", "[unified][partition]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    cl_program po = env.build(kOffsetSource);
    const Shape shapes[] = {
        {1, {1}, {1}, {}},           {1, {7}, {7}, {}},           {1, {64}, {1}, {}},
        {1, {1000}, {8}, {}},        {1, {4096}, {64}, {}},       {1, {65536}, {256}, {}},
        {1, {3000}, {0}, {}},        {1, {640}, {32}, {100}},     {2, {64, 48}, {8, 4}, {}},
        {2, {5, 3}, {1, 1}, {}},     {2, {128, 2}, {16, 2}, {}},  {2, {96, 40}, {0, 0}, {}},
        {3, {8, 6, 4}, {2, 3, 2}, {}}, {3, {16, 4, 4}, {4, 2, 2}, {}}, {3, {3, 5, 7}, {1, 1, 1}, {}},
    };
    const int launches = 3;
    for (const Shape& s : shapes) {
        bool withOffset = s.offset[0] != 0;
        DYNAMIC_SECTION("dims " << s.dims << " global " << s.global[0] << "x" << s.global[1] << "x" << s.global[2]
                                << " local " << s.local[0] << " offset " << s.offset[0]) {
            size_t n = items(s);
            std::vector<cl_int> zeros(n, 0), minus(n, -1);
            cl_mem hits = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), zeros.data());
            cl_mem ids = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), minus.data());
            const char* name = withOffset ? "mark_offset" : s.dims == 1 ? "mark1" : s.dims == 2 ? "mark2" : "mark3";
            cl_kernel k = env.kernel(withOffset ? po : p, name);
            cltest::setArg(k, 0, hits), cltest::setArg(k, 1, ids);
            for (int l = 0; l < launches; ++l)
                REQUIRE(clEnqueueNDRangeKernel(env.queue, k, s.dims, withOffset ? s.offset : nullptr, s.global,
                                               s.local[0] ? s.local : nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
            auto h = env.read<cl_int>(hits, n);
            auto id = env.read<cl_int>(ids, n);
            size_t wrong = 0;
            for (size_t i = 0; i < n; ++i)
                if (h[i] != launches || id[i] != static_cast<cl_int>(i + s.offset[0])) ++wrong;
            CHECK(wrong == 0);
            clReleaseKernel(k);
            clReleaseMemObject(hits), clReleaseMemObject(ids);
        }
    }
    clReleaseProgram(p), clReleaseProgram(po);
}

TEST_CASE("unified: launches from several threads into one context stay exact", "[unified][partition][threads]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    constexpr int kThreads = 4, kLaunches = 8;
    constexpr size_t n = 8192;
    std::mutex mutex;
    std::vector<std::string> problems;
    auto problem = [&](const std::string& what) {
        std::lock_guard lock(mutex);
        problems.push_back(what);
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            cl_int err = CL_SUCCESS;
            cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
            cl_kernel k = clCreateKernel(p, "mark1", &err);
            std::vector<cl_int> zeros(n, 0);
            cl_mem hits = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data(), &err);
            cl_mem ids = clCreateBuffer(env.context, CL_MEM_READ_WRITE, n * 4, nullptr, &err);
            if (!q || !k || !hits || !ids) return problem("setup failed in thread " + std::to_string(t));
            clSetKernelArg(k, 0, sizeof hits, &hits);
            clSetKernelArg(k, 1, sizeof ids, &ids);
            size_t global = n, local = 32;
            for (int l = 0; l < kLaunches; ++l)
                if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) != CL_SUCCESS)
                    problem("launch failed in thread " + std::to_string(t));
            std::vector<cl_int> h(n);
            if (clEnqueueReadBuffer(q, hits, CL_TRUE, 0, n * 4, h.data(), 0, nullptr, nullptr) != CL_SUCCESS)
                problem("read failed in thread " + std::to_string(t));
            for (size_t i = 0; i < n; ++i)
                if (h[i] != kLaunches) {
                    problem("thread " + std::to_string(t) + ": element " + std::to_string(i) + " counted " + std::to_string(h[i]));
                    break;
                }
            clReleaseMemObject(hits), clReleaseMemObject(ids), clReleaseKernel(k), clReleaseCommandQueue(q);
        });
    for (auto& th : threads) th.join();
    for (const auto& what : problems) FAIL_CHECK(what);
    clReleaseProgram(p);
}

namespace {
int threadsOfThisProcess() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
    return -1;
}
}  // namespace

TEST_CASE("unified: a thousand launches in flight keep the thread count bounded", "[unified][partition]") {
    ModelEnv env(CL_MEMORY_MODEL_UNIFIED_HETERO);
    cl_program p = env.build(kMarkSource);
    cl_kernel k = env.kernel(p, "mark1");
    const size_t n = 256, launches = 1000;
    std::vector<cl_int> zeros(n, 0);
    cl_mem hits = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), zeros.data());
    cl_mem ids = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cltest::setArg(k, 0, hits), cltest::setArg(k, 1, ids);
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context, &err);  // hold them all back, then let them go at once
    REQUIRE(err == CL_SUCCESS);
    size_t local = 8;
    int most = threadsOfThisProcess();
    for (size_t l = 0; l < launches; ++l) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, l == 0 ? 1 : 0, l == 0 ? &gate : nullptr,
                                       nullptr) == CL_SUCCESS);
        if (l == 10) REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
        most = std::max(most, threadsOfThisProcess());
    }
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(env.read<cl_int>(hits, n) == std::vector<cl_int>(n, static_cast<cl_int>(launches)));
    INFO("threads at most: " << most);
    CHECK(most < 64);
    clReleaseEvent(gate), clReleaseKernel(k), clReleaseMemObject(hits), clReleaseMemObject(ids), clReleaseProgram(p);
}
