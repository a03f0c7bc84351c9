// The host copy of a buffer is the CPU slot's copy, in pinned memory from a pool (test/host_copy/
// CMakeLists.txt has the configurations): what the host writes reaches the CPU slot without a
// transfer, pinned blocks are reused, a spent budget falls back to ordinary memory, and every
// result stays right whichever slot computes it.
#include "cl_test.hpp"

#include <CL/cl_ext_hetero.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>

namespace {

using Counters = std::array<cl_ulong, CL_HETERO_COUNTER_COUNT>;

Counters counters(cl_platform_id platform) {
    auto get = reinterpret_cast<clGetHeteroCountersEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"));
    REQUIRE(get != nullptr);
    Counters c{};
    cl_uint n = 0;
    REQUIRE(get(platform, CL_HETERO_COUNTER_COUNT, c.data(), &n) == CL_SUCCESS);
    REQUIRE(n >= CL_HETERO_COUNTER_COUNT);
    return c;
}

// The counters once nothing moves any more: a split launch of an earlier test may still be
// streaming its results back after its event completed, and released buffers go back to the pool
// when the backend says they are gone.
Counters quietCounters(cl_platform_id platform) {
    Counters last = counters(platform);
    for (int i = 0; i < 100; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        Counters now = counters(platform);
        if (now == last) return now;
        last = now;
    }
    return last;
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}
bool onCpuSlot() { return env("HETERO_RUN_ON") == "1"; }
bool smallBudget() { return !env("HETERO_PINNED_BUDGET").empty(); }
bool onGpuSlot() { return env("HETERO_RUN_ON") == "0"; }

constexpr size_t kN = 256 * 1024;  // 1 MiB of ints: pinned (HostMemory::kPinFrom is 64 KiB)
constexpr size_t kBytes = kN * sizeof(cl_int);

const char* kSource = R"(
    __kernel void affine(__global const int* x, __global int* y, int a, int b) {
        size_t i = get_global_id(0);
        y[i] = a * x[i] + b;
    }
    __kernel void addTo(__global int* y, __global const int* x) {
        size_t i = get_global_id(0);
        y[i] += x[i];
    }
    // Keeps a slot busy for a while: what is enqueued behind it there waits.
    __kernel void spin(__global int* out, int n) {
        int v = out[0];
        for (int i = 0; i < n; ++i) v = v * 1103515245 + 12345;
        out[0] = v;
    }
)";

struct Program {
    cltest::Env& env;
    cl_program program;
    cl_kernel affine, addTo;
    explicit Program(cltest::Env& e) : env(e), program(e.build(kSource)) {
        affine = env.kernel(program, "affine");
        addTo = env.kernel(program, "addTo");
    }
    ~Program() {
        clReleaseKernel(affine);
        clReleaseKernel(addTo);
        clReleaseProgram(program);
    }
    void runAffine(cl_mem x, cl_mem y, cl_int a, cl_int b) {
        cltest::setArg(affine, 0, x), cltest::setArg(affine, 1, y), cltest::setArg(affine, 2, a), cltest::setArg(affine, 3, b);
        size_t global = kN, local = 64;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, affine, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    void runAddTo(cl_mem y, cl_mem x) {
        cltest::setArg(addTo, 0, y), cltest::setArg(addTo, 1, x);
        size_t global = kN, local = 64;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, addTo, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    }
};

cl_int* mapAll(cltest::Env& env, cl_mem m, cl_map_flags flags, size_t bytes = kBytes) {
    cl_int err = CL_SUCCESS;
    auto* p = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, m, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(p != nullptr);
    return p;
}

void unmap(cltest::Env& env, cl_mem m, void* p) {
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
}

}  // namespace

TEST_CASE("the CPU slot computes in the host copy: host writes and reads move nothing") {
    if (!onCpuSlot()) return;
    cltest::Env env;
    Program prog(env);
    cl_mem x = env.buffer(CL_MEM_READ_WRITE, kBytes), y = env.buffer(CL_MEM_READ_WRITE, kBytes);
    cl_int* p = mapAll(env, x, CL_MAP_WRITE_INVALIDATE_REGION);
    std::iota(p, p + kN, -5000);
    unmap(env, x, p);
    Counters before = quietCounters(env.platform);
    prog.runAffine(x, y, 2, 1);  // on the CPU slot: reads what the host wrote, where it wrote it
    p = mapAll(env, y, CL_MAP_READ);
    for (size_t i = 0; i < kN; ++i) REQUIRE(p[i] == 2 * (-5000 + static_cast<cl_int>(i)) + 1);
    unmap(env, y, p);
    Counters after = counters(env.platform);
    CHECK(after[CL_HETERO_BYTES_HOST_TO_DEVICE] == before[CL_HETERO_BYTES_HOST_TO_DEVICE]);
    CHECK(after[CL_HETERO_BYTES_DEVICE_TO_HOST] == before[CL_HETERO_BYTES_DEVICE_TO_HOST]);
    clReleaseMemObject(x), clReleaseMemObject(y);
}

TEST_CASE("a released buffer's pinned block serves the next buffer of its size") {
    if (smallBudget()) return;
    cltest::Env env;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, kBytes);
    cl_int* p = mapAll(env, a, CL_MAP_WRITE_INVALIDATE_REGION);
    p[0] = 1;
    unmap(env, a, p);
    REQUIRE(clReleaseMemObject(a) == CL_SUCCESS);
    Counters before = quietCounters(env.platform);
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, kBytes - 4096);  // the same size class
    p = mapAll(env, b, CL_MAP_WRITE_INVALIDATE_REGION, kBytes - 4096);
    p[0] = 2;
    unmap(env, b, p);
    Counters after = counters(env.platform);
    CHECK(after[CL_HETERO_PINNED_REUSES] == before[CL_HETERO_PINNED_REUSES] + 1);
    CHECK(after[CL_HETERO_PINNED_BYTES_ALLOCATED] == before[CL_HETERO_PINNED_BYTES_ALLOCATED]);
    CHECK(after[CL_HETERO_HOST_COPIES_UNPINNED] == before[CL_HETERO_HOST_COPIES_UNPINNED]);
    REQUIRE(clReleaseMemObject(b) == CL_SUCCESS);
}

// NVIDIA allocations made between an application's buffers slowed its kernels (pinned_pool.hpp):
// a context's first host copies come from one slab, pinned once.
TEST_CASE("a context's first host copies are carved from one pinned slab, not pinned one by one") {
    if (smallBudget()) return;
    cltest::Env env;  // a context of its own: its pool has pinned nothing yet
    constexpr int kBuffers = 4;
    std::vector<cl_mem> buffers;
    Counters before = quietCounters(env.platform), first{};
    for (int b = 0; b < kBuffers; ++b) {
        buffers.push_back(env.buffer(CL_MEM_READ_WRITE, kBytes));
        cl_int* p = mapAll(env, buffers[b], CL_MAP_WRITE_INVALIDATE_REGION);
        std::iota(p, p + kN, b * 10);
        unmap(env, buffers[b], p);
        Counters now = counters(env.platform);
        if (b == 0) {
            first = now;
            CHECK(now[CL_HETERO_PINNED_BYTES_ALLOCATED] - before[CL_HETERO_PINNED_BYTES_ALLOCATED] >= kBuffers * kBytes);
        } else {
            CHECK(now[CL_HETERO_PINNED_BYTES_ALLOCATED] == first[CL_HETERO_PINNED_BYTES_ALLOCATED]);
        }
        CHECK(now[CL_HETERO_HOST_COPIES_UNPINNED] == before[CL_HETERO_HOST_COPIES_UNPINNED]);
    }
    for (int b = 0; b < kBuffers; ++b) {
        auto r = env.read<cl_int>(buffers[b], kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(r[i] == b * 10 + static_cast<cl_int>(i));
        clReleaseMemObject(buffers[b]);
    }
}

TEST_CASE("a map of a buffer in pinned memory sees what either slot computed, and its writes reach both") {
    cltest::Env env;
    Program prog(env);
    std::vector<cl_int> xs(kN);
    std::iota(xs.begin(), xs.end(), 7);
    Counters before = counters(env.platform);  // before x's host copy: the context's first, which pins its slab
    cl_mem x = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, xs.data());
    cl_mem y = env.buffer(CL_MEM_READ_WRITE, kBytes);
    for (cl_int round = 1; round <= 4; ++round) {  // (alternate: on both slots, as the scheduler places them)
        prog.runAffine(x, y, round, -round);
        cl_int* p = mapAll(env, y, CL_MAP_READ | CL_MAP_WRITE);
        for (size_t i = 0; i < kN; ++i) REQUIRE(p[i] == round * xs[i] - round);
        for (size_t i = 0; i < kN; i += 7) p[i] = 100 + static_cast<cl_int>(i);
        unmap(env, y, p);
        prog.runAddTo(y, x);  // reads the host's writes on the other slot than the affine's
        auto r = env.read<cl_int>(y, kN);
        for (size_t i = 0; i < kN; ++i) {
            cl_int mapped = i % 7 == 0 ? 100 + static_cast<cl_int>(i) : round * xs[i] - round;
            REQUIRE(r[i] == mapped + xs[i]);
        }
    }
    Counters after = counters(env.platform);
    if (!smallBudget()) CHECK(after[CL_HETERO_PINNED_BYTES_ALLOCATED] + after[CL_HETERO_PINNED_REUSES] >
                              before[CL_HETERO_PINNED_BYTES_ALLOCATED] + before[CL_HETERO_PINNED_REUSES]);
    clReleaseMemObject(x), clReleaseMemObject(y);
}

// HETERO_PINNED_BUDGET=2M (the budget configuration): two host copies of 1 MiB fill the budget in
// one slab. Once both buffers are gone their blocks are kept, yet a host copy of 2 MiB (another
// class) is pinned: the idle slab is released to make room.
TEST_CASE("with the budget spent on a slab whose blocks are all kept, the next host copy is pinned in its place") {
    if (!smallBudget()) return;
    cltest::Env env;
    auto fill = [&](cl_mem m, size_t n, cl_int from) {
        cl_int* p = mapAll(env, m, CL_MAP_WRITE_INVALIDATE_REGION, n * sizeof(cl_int));
        std::iota(p, p + n, from);
        unmap(env, m, p);
    };
    Counters before = quietCounters(env.platform);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, kBytes), b = env.buffer(CL_MEM_READ_WRITE, kBytes);
    fill(a, kN, 1);
    fill(b, kN, 2);
    Counters filled = counters(env.platform);
    if (filled[CL_HETERO_HOST_COPIES_UNPINNED] != before[CL_HETERO_HOST_COPIES_UNPINNED]) {
        WARN("another context still holds pinned memory: nothing to check");
        clReleaseMemObject(a), clReleaseMemObject(b);
        return;
    }
    REQUIRE(clReleaseMemObject(a) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(b) == CL_SUCCESS);
    Counters released = quietCounters(env.platform);
    cl_mem c = env.buffer(CL_MEM_READ_WRITE, 2 * kBytes);
    fill(c, 2 * kN, 3);
    Counters after = counters(env.platform);
    CHECK(after[CL_HETERO_HOST_COPIES_UNPINNED] == released[CL_HETERO_HOST_COPIES_UNPINNED]);
    CHECK(after[CL_HETERO_PINNED_BYTES_ALLOCATED] - released[CL_HETERO_PINNED_BYTES_ALLOCATED] == 2 * kBytes);
    auto r = env.read<cl_int>(c, 2 * kN);
    for (size_t i = 0; i < 2 * kN; ++i) REQUIRE(r[i] == 3 + static_cast<cl_int>(i));
    clReleaseMemObject(c);
}

TEST_CASE("a host write, then launches on both slots, then host reads: right in pinned and ordinary memory") {
    cltest::Env env;
    Program prog(env);
    // Eight buffers of 1 MiB live at once: with HETERO_PINNED_BUDGET=2M the budget is spent after
    // the second host copy, so the later ones are ordinary memory.
    constexpr int kBuffers = 8;
    std::vector<cl_mem> xs, ys;
    std::vector<cl_int> host(kN);
    Counters before = counters(env.platform);
    for (int b = 0; b < kBuffers; ++b) {
        xs.push_back(env.buffer(CL_MEM_READ_WRITE, kBytes));
        ys.push_back(env.buffer(CL_MEM_READ_WRITE, kBytes));
        std::iota(host.begin(), host.end(), b * 1000);
        REQUIRE(clEnqueueWriteBuffer(env.queue, xs[b], CL_FALSE, 0, kBytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        cl_int* p = mapAll(env, ys[b], CL_MAP_WRITE_INVALIDATE_REGION);
        std::fill(p, p + kN, b);
        unmap(env, ys[b], p);
    }
    for (int round = 0; round < 3; ++round)
        for (int b = 0; b < kBuffers; ++b) prog.runAddTo(ys[b], xs[b]);
    for (int b = 0; b < kBuffers; ++b) {
        auto r = env.read<cl_int>(ys[b], kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(r[i] == b + 3 * (b * 1000 + static_cast<cl_int>(i)));
    }
    Counters after = counters(env.platform);
    if (smallBudget()) {
        CHECK(after[CL_HETERO_HOST_COPIES_UNPINNED] > before[CL_HETERO_HOST_COPIES_UNPINNED]);
        CHECK(after[CL_HETERO_PINNED_BYTES_ALLOCATED] - before[CL_HETERO_PINNED_BYTES_ALLOCATED] <= 2u * 1024 * 1024);
    } else {
        CHECK(after[CL_HETERO_HOST_COPIES_UNPINNED] == before[CL_HETERO_HOST_COPIES_UNPINNED]);
    }
    for (int b = 0; b < kBuffers; ++b) clReleaseMemObject(xs[b]), clReleaseMemObject(ys[b]);
}

TEST_CASE("an input the host rewrites between launches is read afresh by every launch, on every slot") {
    cltest::Env env;
    Program prog(env);
    cl_mem x = env.buffer(CL_MEM_READ_ONLY, kBytes);
    std::vector<cl_mem> ys;
    std::vector<std::vector<cl_int>> inputs;
    // No wait between a write and the launches around it: each whole write goes into the host copy
    // (the CPU slot's) and on to slot 0 in the background, while the launch before it may still
    // read the old contents on either slot (or split across both).
    for (cl_int round = 0; round < 6; ++round) {
        inputs.emplace_back(kN);
        std::iota(inputs.back().begin(), inputs.back().end(), round * 100000);
        REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_FALSE, 0, kBytes, inputs.back().data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        ys.push_back(env.buffer(CL_MEM_READ_WRITE, kBytes));
        prog.runAffine(x, ys.back(), round + 1, round);
    }
    for (cl_int round = 0; round < 6; ++round) {
        auto r = env.read<cl_int>(ys[round], kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(r[i] == (round + 1) * inputs[round][i] + round);
    }
    clReleaseMemObject(x);
    for (cl_mem y : ys) clReleaseMemObject(y);
}

// What a launch wrote comes back to the host copy (a split's stream-back of the GPU's results into
// the CPU slot's copy, in the background, after the launch's event may have completed): a host write
// enqueued right after the launch, on its queue or on another one behind its event, lands after all
// of it. Partial writes: a stream-back of the whole buffer landing late would undo them.
TEST_CASE("a host write right after a launch lands after everything the launch sends back") {
    cltest::Env env;
    Program prog(env);
    cl_int err = CL_SUCCESS;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<cl_int> xs(kN);
    std::iota(xs.begin(), xs.end(), 3);
    cl_mem x = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kBytes, xs.data());
    cl_mem y = env.buffer(CL_MEM_READ_WRITE, kBytes);
    const size_t part = kN / 4;  // the second quarter on this queue, the third on the other one
    std::vector<cl_int> written(part);
    for (cl_int round = 1; round <= 6; ++round) {
        prog.runAffine(x, y, round, round);
        std::fill(written.begin(), written.end(), -round);
        REQUIRE(clEnqueueWriteBuffer(env.queue, y, CL_FALSE, part * sizeof(cl_int), part * sizeof(cl_int), written.data(),
                                     0, nullptr, nullptr) == CL_SUCCESS);
        cl_event afterWrite = nullptr;
        REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &afterWrite) == CL_SUCCESS);
        std::vector<cl_int> third(part, 1000 * round);
        REQUIRE(clEnqueueWriteBuffer(other, y, CL_TRUE, 2 * part * sizeof(cl_int), part * sizeof(cl_int), third.data(), 1,
                                     &afterWrite, nullptr) == CL_SUCCESS);
        clReleaseEvent(afterWrite);
        auto r = env.read<cl_int>(y, kN);
        for (size_t i = 0; i < kN; ++i) {
            const cl_int expected = i / part == 1 ? -round : i / part == 2 ? 1000 * round : round * xs[i] + round;
            REQUIRE(r[i] == expected);
        }
        // And every slot's copy holds it: the next launch (wherever it runs) reads it.
        prog.runAddTo(y, x);
        auto s = env.read<cl_int>(y, kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(s[i] == r[i] + xs[i]);
        // A write of every byte right after a launch (it goes through the host copy, which the
        // launch's stream-back may still be writing).
        prog.runAffine(x, y, round, -round);
        std::vector<cl_int> whole(kN);
        std::iota(whole.begin(), whole.end(), 50 * round);
        REQUIRE(clEnqueueWriteBuffer(env.queue, y, CL_FALSE, 0, kBytes, whole.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        prog.runAddTo(y, x);
        auto t = env.read<cl_int>(y, kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(t[i] == whole[i] + xs[i]);
    }
    clReleaseMemObject(x), clReleaseMemObject(y);
    clReleaseCommandQueue(other);
}

// A whole write goes into the host copy and on to the slot it runs on in pieces, several threads
// copying and sending at once, and a large blocking read or write of a part goes through pinned
// pieces (platform/memory/staged_transfer.hpp): every byte arrives, on either slot, for sizes that
// are not a multiple of a piece, and a second write over the first replaces it whole.
TEST_CASE("large writes and reads go piece by piece through pinned memory, and every byte arrives") {
    cltest::Env env;
    Program prog(env);
    // Pieces of 4 MiB and a remainder of 4 KiB, then of 6 MiB (staged_transfer.cpp's pieceFor).
    constexpr size_t kMiB = (size_t{1} << 20) / sizeof(cl_int);
    for (size_t n : {16 * kMiB + 1001, 24 * kMiB}) {
        INFO(n << " ints");
        std::vector<cl_int> xs(n);
        cl_mem x = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
        cl_mem y = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
        for (cl_int round = 0; round < 2; ++round) {
            for (size_t i = 0; i < n; ++i) xs[i] = static_cast<cl_int>(i * 7 + round * 1000003);
            REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_FALSE, 0, n * sizeof(cl_int), xs.data(), 0, nullptr, nullptr) ==
                    CL_SUCCESS);
            // y = 2x + 1 on whichever slot this configuration runs launches on; three times in a
            // row, a burst a launch pipe takes where there is one (host_copy.one-enqueuing-thread).
            auto affine = [&] {
                cltest::setArg(prog.affine, 0, x), cltest::setArg(prog.affine, 1, y);
                cltest::setArg(prog.affine, 2, cl_int{2}), cltest::setArg(prog.affine, 3, cl_int{1});
                const size_t global = n;
                for (int again = 0; again < 3; ++again)
                    REQUIRE(clEnqueueNDRangeKernel(env.queue, prog.affine, 1, nullptr, &global, nullptr, 0, nullptr,
                                                   nullptr) == CL_SUCCESS);
            };
            affine();
            auto gotX = env.read<cl_int>(x, n);
            auto gotY = env.read<cl_int>(y, n);
            size_t wrong = 0;
            for (size_t i = 0; i < n; ++i) wrong += (gotX[i] != xs[i]) + (gotY[i] != 2 * xs[i] + 1);
            CHECK(wrong == 0);
            // Large blocking reads come through pinned pieces too: one from inside the buffer.
            const size_t skip = 12345, part = n - 2 * skip;
            std::vector<cl_int> gotPart(part + 2, -7);
            REQUIRE(clEnqueueReadBuffer(env.queue, y, CL_TRUE, skip * sizeof(cl_int), part * sizeof(cl_int),
                                        gotPart.data() + 1, 0, nullptr, nullptr) == CL_SUCCESS);
            wrong = (gotPart[0] != -7) + (gotPart[part + 1] != -7);
            for (size_t i = 0; i < part; ++i) wrong += gotPart[1 + i] != 2 * xs[skip + i] + 1;
            CHECK(wrong == 0);
            // And a large blocking write of a part, which does not go through the host copy.
            std::vector<cl_int> patch(part);
            for (size_t i = 0; i < part; ++i) patch[i] = static_cast<cl_int>(i * 13 + 5 + round);
            REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_TRUE, skip * sizeof(cl_int), part * sizeof(cl_int), patch.data(),
                                         0, nullptr, nullptr) == CL_SUCCESS);
            std::copy(patch.begin(), patch.end(), xs.begin() + static_cast<std::ptrdiff_t>(skip));
            affine();
            gotX = env.read<cl_int>(x, n);
            gotY = env.read<cl_int>(y, n);
            wrong = 0;
            for (size_t i = 0; i < n; ++i) wrong += (gotX[i] != xs[i]) + (gotY[i] != 2 * xs[i] + 1);
            CHECK(wrong == 0);
        }
        clReleaseMemObject(x), clReleaseMemObject(y);
    }
}

TEST_CASE("a launch moves none of the input the host wrote whole: it is current on both slots already") {
    cltest::Env env;
    Program prog(env);
    // x much larger than what the launch writes, so that moving it would show in the counters
    // whatever the split sends of y's results.
    constexpr size_t kBig = 8 * kN;
    std::vector<cl_int> xs(kBig);
    std::iota(xs.begin(), xs.end(), 11);
    cl_mem x = env.buffer(CL_MEM_READ_ONLY, kBig * sizeof(cl_int));
    cl_mem y = env.buffer(CL_MEM_READ_WRITE, kBytes);
    REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_TRUE, 0, kBig * sizeof(cl_int), xs.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    Counters before = quietCounters(env.platform);
    prog.runAffine(x, y, 3, -1);
    auto r = env.read<cl_int>(y, kN);
    for (size_t i = 0; i < kN; ++i) REQUIRE(r[i] == 3 * xs[i] - 1);
    Counters after = quietCounters(env.platform);
    auto moved = [&](int c) { return after[c] - before[c]; };
    CHECK(moved(CL_HETERO_BYTES_BETWEEN_DEVICES) + moved(CL_HETERO_BYTES_HOST_TO_DEVICE) +
              moved(CL_HETERO_BYTES_DEVICE_TO_HOST) < kBig * sizeof(cl_int));
    clReleaseMemObject(x), clReleaseMemObject(y);
}

TEST_CASE("a buffer released while slot 0 still reads its host copy keeps its pinned block until that read is done") {
    if (!onGpuSlot() || smallBudget()) return;
    cltest::Env env;
    Program prog(env);
    cl_kernel spin = env.kernel(prog.program, "spin");
    cl_mem busy = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, kBytes), copy = env.buffer(CL_MEM_READ_WRITE, kBytes);
    for (int round = 0; round < 3; ++round) {
        // Slot 0 spins, so the write's transfer from a's host copy to slot 0 waits behind it...
        cltest::setArg(spin, 0, busy), cltest::setArg(spin, 1, cl_int{100000000});
        size_t one = 1;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
        std::vector<cl_int> wanted(kN);
        std::iota(wanted.begin(), wanted.end(), 1000 * round);
        REQUIRE(clEnqueueWriteBuffer(env.queue, a, CL_FALSE, 0, kBytes, wanted.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        prog.runAffine(a, copy, 1, 0);
        // ...while a goes, and b, of a's size class, is written before that transfer ran: b's host
        // copy must not be a's pinned block yet.
        REQUIRE(clReleaseMemObject(a) == CL_SUCCESS);
        cl_mem b = env.buffer(CL_MEM_READ_WRITE, kBytes);
        std::vector<cl_int> other(kN, -7);
        REQUIRE(clEnqueueWriteBuffer(env.queue, b, CL_FALSE, 0, kBytes, other.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        auto r = env.read<cl_int>(copy, kN);
        for (size_t i = 0; i < kN; ++i) REQUIRE(r[i] == wanted[i]);
        a = b;
    }
    clReleaseMemObject(a), clReleaseMemObject(copy), clReleaseMemObject(busy);
    clReleaseKernel(spin);
}

TEST_CASE("a whole write waits for slot 0's transfer of the write before it from the host copy") {
    if (!onGpuSlot()) return;
    cltest::Env env;
    Program prog(env);
    cl_kernel spin = env.kernel(prog.program, "spin");
    cl_mem busy = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    cl_mem x = env.buffer(CL_MEM_READ_WRITE, kBytes);
    cl_mem first = env.buffer(CL_MEM_READ_WRITE, kBytes), second = env.buffer(CL_MEM_READ_WRITE, kBytes);
    // Slot 0 spins, so the first write's transfer from x's host copy waits behind it while the
    // second write (its data copied into the same host copy) is enqueued.
    cltest::setArg(spin, 0, busy), cltest::setArg(spin, 1, cl_int{100000000});
    size_t one = 1;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> v1(kN), v2(kN);
    std::iota(v1.begin(), v1.end(), 1);
    std::iota(v2.begin(), v2.end(), -kN);
    REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_FALSE, 0, kBytes, v1.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    prog.runAffine(x, first, 1, 0);
    REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_FALSE, 0, kBytes, v2.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    prog.runAffine(x, second, 1, 0);
    auto r1 = env.read<cl_int>(first, kN), r2 = env.read<cl_int>(second, kN);
    for (size_t i = 0; i < kN; ++i) REQUIRE(r1[i] == v1[i]);
    for (size_t i = 0; i < kN; ++i) REQUIRE(r2[i] == v2[i]);
    clReleaseMemObject(x), clReleaseMemObject(first), clReleaseMemObject(second), clReleaseMemObject(busy);
    clReleaseKernel(spin);
}

// A launch on slot 0 that needs the host copy there (the buffer's initial contents) sends it behind
// slot 0's earlier work without the application's thread waiting for that work; the host copy then
// stays untouched until the transfer has read it: a write of the buffer enqueued meanwhile waits.
TEST_CASE("a launch's transfer from the host copy waits behind slot 0's work, not in the application's thread") {
    if (!onGpuSlot() || smallBudget()) return;
    cltest::Env env;
    Program prog(env);
    cl_kernel spin = env.kernel(prog.program, "spin");
    cl_mem busy = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    std::vector<cl_int> v1(kN), v2(kN);
    std::iota(v1.begin(), v1.end(), 7);
    std::iota(v2.begin(), v2.end(), -3 * static_cast<cl_int>(kN));
    cl_mem first = env.buffer(CL_MEM_READ_WRITE, kBytes), second = env.buffer(CL_MEM_READ_WRITE, kBytes);
    prog.runAffine(first, second, 1, 0);  // both kernels built and run on slot 0 once before
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    cl_mem x = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kBytes, v1.data());
    const Counters before = quietCounters(env.platform);
    cltest::setArg(spin, 0, busy), cltest::setArg(spin, 1, cl_int{400000000});
    size_t one = 1;
    cl_event spinning = nullptr;
    using Clock = std::chrono::steady_clock;
    const Clock::time_point spinStart = Clock::now();
    REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, &spinning) == CL_SUCCESS);
    const Clock::time_point launchStart = Clock::now();
    prog.runAffine(x, first, 1, 0);
    const double launchSeconds = std::chrono::duration<double>(Clock::now() - launchStart).count();
    REQUIRE(clWaitForEvents(1, &spinning) == CL_SUCCESS);
    const double spinSeconds = std::chrono::duration<double>(Clock::now() - spinStart).count();
    // A transfer made in this thread would have held the launch for the rest of the spin (half a
    // second here): the launch's enqueue took a small part of it. (Hetero's event of the spin is
    // no witness: it may hear of the completion after the transfer did.)
    CHECK(launchSeconds < 0.5 * spinSeconds);
    REQUIRE(clEnqueueWriteBuffer(env.queue, x, CL_FALSE, 0, kBytes, v2.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    prog.runAffine(x, second, 1, 0);
    auto r1 = env.read<cl_int>(first, kN), r2 = env.read<cl_int>(second, kN);
    size_t wrong1 = 0, wrong2 = 0;
    for (size_t i = 0; i < kN; ++i) wrong1 += r1[i] != v1[i], wrong2 += r2[i] != v2[i];
    CHECK(wrong1 == 0);
    CHECK(wrong2 == 0);
    const Counters after = quietCounters(env.platform);
    CHECK(after[CL_HETERO_BYTES_HOST_TO_DEVICE] - before[CL_HETERO_BYTES_HOST_TO_DEVICE] >= kBytes);
    clReleaseEvent(spinning);
    clReleaseMemObject(x), clReleaseMemObject(first), clReleaseMemObject(second), clReleaseMemObject(busy);
    clReleaseKernel(spin);
}
