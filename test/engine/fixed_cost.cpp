// What a discrete split launch does beyond its kernel when the CPU computes little or nothing, and
// that the results stay exact. Each case runs under the knobs its ctest entry sets (CMakeLists.txt):
//   [gave-up]    every split's CPU side gives up at once (HETERO_TEST_SPLIT_GIVE_UP_EVERY=1)
//   [alternate]  every 2nd split gives up, the others' CPU does every work-group
//                (HETERO_TEST_SPLIT_GIVE_UP_EVERY=2, HETERO_TEST_SPLIT_GPU_AFTER_CPU=1)
//   [one-chunk]  a static split whose CPU share is one work-group (HETERO_CPU_SHARE=1/64)
//   [static-share]  a static split whose CPU share is half the work-groups (HETERO_CPU_SHARE=0.5):
//                its ctest entry checks the log says it ran as one chunk
//                (engine.fixed-cost-static-share-cpu-fails: every CPU chunk fails, the GPU runs the share)
//   [static-share-pinned]  the same with objects whose host copies are pinned: sent whole, also
//                one written by two splits in a row (its stale CPU copy brought first, H9)
//   [run-on-alternate]  as [gave-up], launches alternating between the slots (HETERO_RUN_ON=alternate)
//   [merge-ahead]  a static split at a quarter of the work-groups whose GPU kernel starts only once the
//                CPU side is done (HETERO_CPU_SHARE=0.25, HETERO_TEST_SPLIT_GPU_AFTER_CPU=1): its merge
//                is enqueued ahead, behind the kernel, and the results stay exact
//   [merge-ahead-fails]  the same, every merge ahead failing once enqueued
//                (HETERO_TEST_SPLIT_FAIL_MERGE_AHEAD=1): merged after the kernel instead, exactly
//   [quiet-wait] a static split at half the work-groups (HETERO_CPU_SHARE=0.5): the application's
//                clFinish takes no core while the CPU computes (engine.quiet-wait; on the GPU machine
//                it fails with HETERO_QUIET_WAITS=off, where NVIDIA's wait spins)
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <CL/cl_ext_hetero.h>

#include <chrono>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

using cltest::Counters;
using cltest::Env;
using cltest::nonce;
using cltest::setArg;

namespace {


constexpr size_t kItems = 64 * 64;  // 64 work-groups of 64
constexpr size_t kLocal = 64;

cl_uint stepValue(cl_uint src, cl_uint round, size_t i) { return src * 2u + round + static_cast<cl_uint>(i % 5); }

// dst := advance(src): every launch reads what the one before wrote.
const char* kStep = R"(
__kernel void advance(__global const uint* src, __global uint* dst, uint round) {
    size_t i = get_global_id(0);
    dst[i] = src[i] * 2u + round + (uint)(i % 5);
})";

struct Chain {
    Env& env;
    cl_program program;
    cl_kernel kernel;
    cl_mem buf[2];
    std::vector<cl_uint> expect[2];
    int current = 0;  // the buffer holding the latest result
    const size_t items;
    Chain(Env& e, const char* test, size_t count = kItems) : env(e), items(count) {
        program = env.build(nonce(test) + kStep);
        kernel = env.kernel(program, "advance");
        for (int b = 0; b < 2; ++b) {
            expect[b].resize(items);
            for (size_t i = 0; i < items; ++i) expect[b][i] = static_cast<cl_uint>(i * 7 + b);
            buf[b] = env.buffer(CL_MEM_READ_WRITE, items * sizeof(cl_uint));
            REQUIRE(clEnqueueWriteBuffer(env.queue, buf[b], CL_TRUE, 0, items * sizeof(cl_uint), expect[b].data(), 0,
                                         nullptr, nullptr) == CL_SUCCESS);
        }
    }
    ~Chain() {
        clReleaseMemObject(buf[0]);
        clReleaseMemObject(buf[1]);
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
    void launch(cl_uint round) {
        const int src = current, dst = 1 - current;
        setArg(kernel, 0, buf[src]);
        setArg(kernel, 1, buf[dst]);
        setArg(kernel, 2, round);
        size_t global = items, local = kLocal;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        for (size_t i = 0; i < items; ++i) expect[dst][i] = stepValue(expect[src][i], round, i);
        current = dst;
    }
    // One round, waited for, that must have been split by the discrete engine: the counters from
    // before and after it.
    std::pair<Counters, Counters> splitRound(cl_uint round) {
        Counters before = Counters::read(env.platform);
        launch(round);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        Counters after = Counters::read(env.platform);
        INFO("round " << round);
        REQUIRE(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        return {before, after};
    }
    bool right(int b) { return env.read<cl_uint>(buf[b], items) == expect[b]; }
    bool mapsRight(int b) {
        cl_int err = CL_SUCCESS;
        auto* p = static_cast<cl_uint*>(clEnqueueMapBuffer(env.queue, buf[b], CL_TRUE, CL_MAP_READ, 0,
                                                           items * sizeof(cl_uint), 0, nullptr, nullptr, &err));
        REQUIRE(err == CL_SUCCESS);
        bool same = std::vector<cl_uint>(p, p + items) == expect[b];
        REQUIRE(clEnqueueUnmapMemObject(env.queue, buf[b], p, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        return same;
    }
};

}  // namespace

TEST_CASE("a split whose CPU did nothing moves nothing between the devices and merges nothing", "[gave-up]") {
    Env env;
    Chain chain(env, "quiet");
    chain.launch(0);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (cl_uint round = 1; round <= 6; ++round) {
        auto [before, after] = chain.splitRound(round);
        INFO("round " << round);
        // The GPU's copies hold the result; the CPU's become current only when something needs them.
        CHECK(after[CL_HETERO_BYTES_BETWEEN_DEVICES] == before[CL_HETERO_BYTES_BETWEEN_DEVICES]);
        CHECK(after[CL_HETERO_MERGES] == before[CL_HETERO_MERGES]);
    }
    CHECK(chain.right(chain.current));
    CHECK(chain.right(1 - chain.current));
}

TEST_CASE("after a split whose CPU did nothing, the host sees the results through reads and maps", "[gave-up]") {
    Env env;
    Chain chain(env, "host");
    for (cl_uint round = 0; round < 6; ++round) {
        chain.launch(round);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        INFO("round " << round);
        // Maps use the host copy, which is the CPU slot's copy: it must not pass for current.
        if (round % 2) CHECK(chain.mapsRight(chain.current));
        CHECK(chain.right(chain.current));
        CHECK(chain.mapsRight(chain.current));
    }
    // The host overwrites a result the CPU copy never got, then the next launch reads it.
    std::vector<cl_uint> fresh(kItems);
    for (size_t i = 0; i < kItems; ++i) fresh[i] = static_cast<cl_uint>(i ^ 0x5a5a);
    REQUIRE(clEnqueueWriteBuffer(env.queue, chain.buf[chain.current], CL_TRUE, 0, kItems * sizeof(cl_uint), fresh.data(),
                                 0, nullptr, nullptr) == CL_SUCCESS);
    chain.expect[chain.current] = fresh;
    chain.launch(9);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(chain.mapsRight(chain.current));
    CHECK(chain.right(1 - chain.current));
}

TEST_CASE("a split whose CPU did nothing leaves right CPU copies for the next split's CPU side", "[alternate]") {
    // Launches alternate: the CPU side gives up (the GPU computes everything), then the CPU
    // computes every work-group from its own copies, which the launch before did not update.
    Env env;
    SECTION("each launch finished before the next") {
        Chain chain(env, "alternate finished");
        for (cl_uint round = 0; round < 8; ++round) {
            chain.launch(round);
            REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        }
        CHECK(chain.right(0));
        CHECK(chain.right(1));
    }
    SECTION("launches back to back") {
        Chain chain(env, "alternate queued");
        for (cl_uint round = 0; round < 8; ++round) chain.launch(round);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        CHECK(chain.right(0));
        CHECK(chain.right(1));
    }
    SECTION("the host reading between launches") {
        Chain chain(env, "alternate read");
        for (cl_uint round = 0; round < 8; ++round) {
            chain.launch(round);
            INFO("round " << round);
            CHECK(chain.right(chain.current));
        }
        CHECK(chain.mapsRight(0));
        CHECK(chain.mapsRight(1));
    }
}

TEST_CASE("a static split whose CPU did one chunk merges it, and only the objects it changed", "[one-chunk]") {
    // The CPU's one work-group (the highest) writes `hi` only: `lo` gets nothing from the CPU.
    Env env;
    cl_program program = env.build(nonce("one chunk") + R"(
__kernel void two(__global const uint* in, __global uint* lo, __global uint* hi, uint round) {
    size_t i = get_global_id(0);
    hi[i] = in[i] + round;
    if (i < get_global_size(0) / 2) lo[i] = in[i] ^ round;
})");
    cl_kernel kernel = env.kernel(program, "two");
    std::vector<cl_uint> in(kItems), lo(kItems, 7), hi(kItems, 9);
    for (size_t i = 0; i < kItems; ++i) in[i] = static_cast<cl_uint>(i * 13);
    cl_mem inBuf = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_uint), in.data());
    cl_mem loBuf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_uint), lo.data());
    cl_mem hiBuf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_uint), hi.data());
    setArg(kernel, 0, inBuf);
    setArg(kernel, 1, loBuf);
    setArg(kernel, 2, hiBuf);
    for (cl_uint round = 1; round <= 6; ++round) {
        setArg(kernel, 3, round);
        Counters before = Counters::read(env.platform);
        size_t global = kItems, local = kLocal;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        Counters after = Counters::read(env.platform);
        for (size_t i = 0; i < kItems; ++i) {
            hi[i] = in[i] + round;
            if (i < kItems / 2) lo[i] = in[i] ^ round;
        }
        INFO("round " << round);
        REQUIRE(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        CHECK(after[CL_HETERO_MERGES] == before[CL_HETERO_MERGES] + 1);  // hi's; lo got nothing to merge
        CHECK(env.read<cl_uint>(hiBuf, kItems) == hi);
        CHECK(env.read<cl_uint>(loBuf, kItems) == lo);
    }
    clReleaseMemObject(inBuf);
    clReleaseMemObject(loBuf);
    clReleaseMemObject(hiBuf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}

TEST_CASE("a split whose CPU is done before its GPU kernel ends merges ahead, behind the kernel, and exactly",
          "[merge-ahead]") {
    // Each round's merged result feeds the next: read by the host, by a map, and by the next
    // split's CPU side (its copies brought from the merged result).
    Env env;
    Chain chain(env, "merge ahead");
    for (cl_uint round = 1; round <= 6; ++round) {
        auto [before, after] = chain.splitRound(round);
        INFO("round " << round);
        CHECK(after[CL_HETERO_MERGES] == before[CL_HETERO_MERGES] + 1);
        CHECK(after[CL_HETERO_MERGES_AHEAD] == before[CL_HETERO_MERGES_AHEAD] + 1);
        CHECK(chain.right(chain.current));
        if (round % 2 == 0) CHECK(chain.mapsRight(chain.current));
    }
}

TEST_CASE("a merge ahead that fails once enqueued is made after the kernel, and exactly", "[merge-ahead-fails]") {
    // What was enqueued ahead still waits for the kernel, which starts only after the CPU side,
    // and so after the failure: the launch must neither wait for it there nor lose it.
    Env env;
    Chain chain(env, "merge ahead fails");
    for (cl_uint round = 1; round <= 4; ++round) {
        auto [before, after] = chain.splitRound(round);
        INFO("round " << round);
        CHECK(after[CL_HETERO_MERGES] == before[CL_HETERO_MERGES] + 1);
        CHECK(after[CL_HETERO_MERGES_AHEAD] == before[CL_HETERO_MERGES_AHEAD]);
        CHECK(chain.right(chain.current));
    }
}

TEST_CASE("a static split's CPU share runs as one chunk, and every launch's results are exact", "[static-share]") {
    Env env;
    Chain chain(env, "static share");
    for (cl_uint round = 1; round <= 3; ++round) {
        chain.splitRound(round);
        INFO("round " << round);
        CHECK(chain.right(chain.current));
    }
}

TEST_CASE("a static split of objects in pinned memory sends the CPU's copy whole, once, and merges it exactly",
          "[static-share-pinned]") {
    // 256 KiB objects: their host copies, which are the CPU's, are pinned (HostMemory::kPinFrom),
    // so the CPU side sends each written one whole instead of what changed (discrete_split.cpp).
    Env env;
    Chain chain(env, "static share pinned", 64 * 1024);
    const size_t bytes = chain.items * sizeof(cl_uint);
    for (cl_uint round = 1; round <= 3; ++round) {
        auto [before, after] = chain.splitRound(round);
        INFO("round " << round);
        // Between the devices only the send: each round's input is current on the CPU (round 1:
        // the host wrote it; later rounds: the map below brought the last output to the host copy).
        const uint64_t moved = after[CL_HETERO_BYTES_BETWEEN_DEVICES] - before[CL_HETERO_BYTES_BETWEEN_DEVICES];
        CHECK(moved == bytes);
        CHECK(chain.right(chain.current));
        CHECK(chain.mapsRight(chain.current));
    }
}

TEST_CASE("a static split sends whole only a CPU copy that holds the pre-launch contents (H9)", "[static-share-pinned]") {
    // The same object written by two static splits in a row, nothing reading it between: after the
    // first, its CPU copy holds the CPU's half of the result and the GPU's half from before (it was
    // left stale, not streamed back). The merge takes every element where what the CPU sent differs
    // from the pre-launch contents, so the second split must bring that copy up to date before it
    // sends it whole: else the GPU's half of the result would come out as it was before the first.
    Env env;
    Chain chain(env, "static share stale target", 64 * 1024);
    const size_t bytes = chain.items * sizeof(cl_uint);
    std::vector<cl_uint> expect(chain.items);
    for (cl_uint round = 1; round <= 2; ++round) {
        setArg(chain.kernel, 0, chain.buf[0]);
        setArg(chain.kernel, 1, chain.buf[1]);
        setArg(chain.kernel, 2, round);
        Counters before = Counters::read(env.platform);
        size_t global = chain.items, local = kLocal;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, chain.kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) ==
                CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        Counters after = Counters::read(env.platform);
        INFO("round " << round);
        REQUIRE(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        // Round 2 brings the stale copy to the CPU, then sends it whole.
        CHECK(after[CL_HETERO_BYTES_BETWEEN_DEVICES] - before[CL_HETERO_BYTES_BETWEEN_DEVICES] == (round == 1 ? 1 : 2) * bytes);
        for (size_t i = 0; i < chain.items; ++i) expect[i] = stepValue(chain.expect[0][i], round, i);
    }
    CHECK(env.read<cl_uint>(chain.buf[1], chain.items) == expect);
}

TEST_CASE("after a split whose CPU did nothing, a launch on its CPU slot reads the split's results",
          "[run-on-alternate]") {
    // Launches alternate between the slots (HETERO_RUN_ON=alternate): each split is followed at once
    // by a launch that runs whole on the split's CPU slot and reads its result, from the CPU copy
    // the split did not update.
    Env env;
    cl_program program = env.build(nonce("cpu slot reader") + R"(
__kernel void slow(__global const uint* src, __global uint* dst, uint round) {
    size_t i = get_global_id(0);
    uint x = src[i];
    for (int k = 0; k < 100; ++k) x = x * 1664525u + 1013904223u;
    dst[i] = x + round;
}
__kernel void total(__global const uint* in, __global uint* sum) {
    atomic_add(sum, in[get_global_id(0)]);
})");
    cl_kernel slow = env.kernel(program, "slow");
    cl_kernel total = env.kernel(program, "total");
    std::vector<cl_uint> src(kItems);
    for (size_t i = 0; i < kItems; ++i) src[i] = static_cast<cl_uint>(i * 31 + 1);
    cl_mem srcBuf = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_uint), src.data());
    cl_mem dstBuf = env.buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_uint));
    cl_mem sumBuf = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_uint));
    setArg(slow, 0, srcBuf);
    setArg(slow, 1, dstBuf);
    setArg(total, 0, dstBuf);
    setArg(total, 1, sumBuf);
    for (cl_uint round = 1; round <= 6; ++round) {
        const cl_uint zero = 0;
        REQUIRE(clEnqueueWriteBuffer(env.queue, sumBuf, CL_TRUE, 0, sizeof zero, &zero, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        setArg(slow, 2, round);
        size_t global = kItems, local = kLocal;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, slow, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, total, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        cl_uint want = 0;
        for (size_t i = 0; i < kItems; ++i) {
            cl_uint x = src[i];
            for (int k = 0; k < 100; ++k) x = x * 1664525u + 1013904223u;
            want += x + round;
        }
        INFO("round " << round);
        CHECK(env.read<cl_uint>(sumBuf, 1)[0] == want);
    }
    clReleaseMemObject(srcBuf);
    clReleaseMemObject(dstBuf);
    clReleaseMemObject(sumBuf);
    clReleaseKernel(slow);
    clReleaseKernel(total);
    clReleaseProgram(program);
}

TEST_CASE("an input brought to the CPU in pieces is whole there", "[alternate]") {
    // `fill` uses a global atomic, so it never splits: it runs on the GPU slot, and the CPU's copy of
    // `in` is stale after it. The split of `twice` then brings that copy over in 1 MiB pieces
    // (platform/split/discrete_split.cpp) before its CPU chunks read it; every 2nd split's CPU does
    // every work-group, so a wrong piece shows in the result.
    Env env;
    cl_program program = env.build(nonce("pieces") + R"(
__kernel void fill(__global int* in, int round, __global int* count) {
    size_t i = get_global_id(0);
    in[i] = (int)i * round;
    if (i == 0) atomic_inc(count);
}
__kernel void twice(__global const int* in, __global int* out) { size_t i = get_global_id(0); out[i] = 2 * in[i] + 1; })");
    cl_kernel fill = env.kernel(program, "fill");
    cl_kernel twice = env.kernel(program, "twice");
    const size_t n = (3u << 20) / sizeof(cl_int) + 1024;  // three pieces and a bit
    cl_mem in = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_mem out = env.buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int));
    cl_mem count = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    setArg(fill, 0, in);
    setArg(fill, 2, count);
    setArg(twice, 0, in);
    setArg(twice, 1, out);
    for (int round = 1; round <= 4; ++round) {
        setArg(fill, 1, round);
        size_t global = n, local = 64;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, fill, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, twice, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto result = env.read<cl_int>(out, n);
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i) wrong += result[i] != 2 * static_cast<cl_int>(i) * round + 1;
        INFO("round " << round);
        CHECK(wrong == 0);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(count);
    clReleaseKernel(fill);
    clReleaseKernel(twice);
    clReleaseProgram(program);
}

namespace {

// Each work-item steps a generator `rounds` times: long enough for the CPU's half to take a while.
const char* kGenerator = R"(
__kernel void generate(__global uint* out, uint rounds) {
    uint x = (uint)get_global_id(0);
    for (uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
    out[get_global_id(0)] = x;
})";

double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

}  // namespace

TEST_CASE("while a split's CPU part runs, the application's clFinish takes no core", "[quiet-wait]") {
    Env env;
    cl_program program = env.build(nonce("quiet-wait") + kGenerator);
    cl_kernel kernel = env.kernel(program, "generate");
    const size_t items = kItems;
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, items * sizeof(cl_uint));
    const cl_uint rounds = 400000;
    setArg(kernel, 0, out);
    setArg(kernel, 1, rounds);
    size_t global = items, local = kLocal;
    // The first launch builds the CPU's chunk (PoCL compiles at its first run): not the one measured.
    for (int launch = 0; launch < 3; ++launch) {
        Counters before = Counters::read(env.platform);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        const auto wallStart = std::chrono::steady_clock::now();
        const double cpuStart = threadCpuSeconds();
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        const double cpu = threadCpuSeconds() - cpuStart;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        Counters after = Counters::read(env.platform);
        REQUIRE(after[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] == before[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + 1);
        INFO("launch " << launch << ": clFinish took " << wall * 1e3 << " ms, " << cpu * 1e3 << " ms of it on a core");
        if (launch == 0) continue;
        REQUIRE(wall > 0.02);  // the CPU's half ran long enough for the ratio below to say something
        CHECK(cpu < 0.25 * wall);
    }
    std::vector<cl_uint> got = env.read<cl_uint>(out, items);
    for (size_t i = 0; i < items; i += 61) {
        cl_uint x = static_cast<cl_uint>(i);
        for (cl_uint r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
        INFO("item " << i);
        REQUIRE(got[i] == x);
    }
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
}
