// The N-way split (platform/split/nway_split.hpp): with two or more GPU slots, a launch is split over
// all of them, each taking its share of the work-groups, and the results equal one device's.
// Hidden ([.nway]): only the ctest configurations that say what to expect run it, through
// HETERO_TEST_EXPECT_NWAY (test/icd/CMakeLists.txt): the slots that must take part ("0,1"), or
// "none" when no launch may be split N-way. Without chaos the shares must be exactly equal (PoCL
// slots are alike); with it (random shares) every listed slot must have taken some.
// HETERO_TEST_EXPECT_NWAY_CPU=<slot>: that listed slot is the CPU, which joins at the top with a
// share of its own (HETERO_SPLIT_NWAY_CPU): without chaos some work-groups, fewer than each GPU slot,
// which take equal shares of the rest.
// HETERO_TEST_NWAY_ON_DEVICE=1: the GPU slots are one device and share its backend context
// (HETERO_SLOT_CONTEXTS=shared), so every part runs over the primary's objects: nothing moves
// between the slots, and host writes are not copied on to the other slot
// (platform/split/one_device_split.hpp).
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

using cltest::Counters;
using cltest::Env;
using cltest::setArg;

namespace {

// What the ctest configuration expects (HETERO_TEST_EXPECT_NWAY), and whether shares are random.
struct Expected {
    std::vector<unsigned> slots;  // the slots that must take part; empty: no launch may go N-way
    bool chaos = false;           // HETERO_TEST_SPLIT_CHAOS: random shares, so byte counts vary
    bool oneDevice = false;       // HETERO_TEST_NWAY_ON_DEVICE: nothing moves between the slots
    int cpu = -1;                 // HETERO_TEST_EXPECT_NWAY_CPU: the CPU slot among `slots`
    bool nway() const { return !slots.empty(); }
};

Expected expected() {
    const char* list = std::getenv("HETERO_TEST_EXPECT_NWAY");
    REQUIRE(list != nullptr);
    Expected e;
    e.chaos = std::getenv("HETERO_TEST_SPLIT_CHAOS") != nullptr;
    e.oneDevice = std::getenv("HETERO_TEST_NWAY_ON_DEVICE") != nullptr;
    if (const char* cpu = std::getenv("HETERO_TEST_EXPECT_NWAY_CPU")) e.cpu = std::atoi(cpu);
    if (std::string(list) == "none") return e;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) e.slots.push_back(static_cast<unsigned>(std::stoul(item)));
    return e;
}

}  // namespace

TEST_CASE("an N-way split gives every GPU slot its share of the work-groups", "[.nway]") {
    const Expected expect = expected();
    const std::vector<unsigned>& slots = expect.slots;
    const bool chaos = expect.chaos;
    Env env;
    // Writes two of every three elements: the merge must keep the third as it was.
    cl_program p = env.build(cltest::nonce("split_nway") + R"(
        __kernel void scale(__global const uint* in, __global uint* out) {
            size_t i = get_global_id(0);
            if (i % 3 != 1) out[i] = in[i] * 3u + (uint)i;
        })");
    cl_kernel k = env.kernel(p, "scale");
    const size_t local = 64, groups = 240, n = local * groups;  // 240: divisible by 2, 3 and 4 slots
    std::vector<cl_uint> in(n), before(n);
    for (size_t i = 0; i < n; ++i) {
        in[i] = static_cast<cl_uint>(i ^ 0x5a5au);
        before[i] = static_cast<cl_uint>(0xdead0000u + i);
    }
    cl_mem inBuf = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), in.data());
    cl_mem out = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), before.data());
    cl_mem fresh = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));  // never written: its copies are zeroed first
    const Counters start = Counters::read(env.platform);
    const size_t global = n;
    for (cl_mem target : {out, fresh}) {
        setArg(k, 0, inBuf);
        setArg(k, 1, target);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    auto gotOut = env.read<cl_uint>(out, n);
    auto gotFresh = env.read<cl_uint>(fresh, n);
    const Counters end = Counters::read(env.platform);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const cl_uint computed = in[i] * 3u + static_cast<cl_uint>(i);
        if (gotOut[i] != (i % 3 != 1 ? computed : before[i])) ++wrong;
        if (i % 3 != 1 && gotFresh[i] != computed) ++wrong;
    }
    CHECK(wrong == 0);

    auto delta = [&](int counter) { return end[counter] - start[counter]; };
    const cl_ulong launches = 2;
    if (slots.empty()) {
        CHECK(delta(CL_HETERO_LAUNCHES_SPLIT_NWAY) == 0);
        return;
    }
    CHECK(delta(CL_HETERO_LAUNCHES_SPLIT_NWAY) == launches);
    if (expect.oneDevice) CHECK(delta(CL_HETERO_BYTES_BETWEEN_DEVICES) == 0);
    const cl_ulong cpuTook = expect.cpu >= 0 ? delta(CL_HETERO_WORK_GROUPS_SLOT0 + expect.cpu) : 0;
    const size_t gpus = slots.size() - (expect.cpu >= 0);
    for (unsigned s = 0; s < CL_HETERO_WORK_GROUPS_SLOTS; ++s) {
        const bool takesPart = std::find(slots.begin(), slots.end(), s) != slots.end();
        const cl_ulong took = delta(CL_HETERO_WORK_GROUPS_SLOT0 + static_cast<int>(s));
        INFO("slot " << s << " took " << took << " work-groups of " << launches * groups);
        if (!takesPart)
            CHECK(took == 0);
        else if (chaos)
            CHECK(took > 0);
        else if (static_cast<int>(s) == expect.cpu)
            CHECK((took > 0 && took < (launches * groups - took) / gpus));
        else  // equal, but for the odd work-group where the CPU's share leaves an odd number
            CHECK(std::abs(double(took) - double(launches * groups - cpuTook) / double(gpus)) <= double(launches));
    }
    clReleaseMemObject(inBuf);
    clReleaseMemObject(out);
    clReleaseMemObject(fresh);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// Each other slot sends back only the span of each object its kernel changed (merge/changed_span.hpp),
// not the whole object, and the merge over that span alone is exact: elements written back to
// their old value inside the span, one element size after another (raw bits, H2). The objects are
// 2 MiB and more, from where spans are used without chaos; under chaos shares are random, so only
// the results are checked there.
TEST_CASE("an N-way split sends back only the span each other slot changed", "[.nway]") {
    const Expected expect = expected();
    const bool nway = expect.nway(), chaos = expect.chaos;
    Env env;
    const size_t local = 64, items = 128 * local, perItem = 256, n = items * perItem;
    // Items [100, 200) (the low half's) and [5000, 7000) (the high half's) add one to their 256
    // elements; item 5500 writes its elements' old values back.
    const std::string body = R"(
        uint i = get_global_id(0);
        if (!((i >= 100 && i < 200) || (i >= 5000 && i < 7000))) return;
        for (uint j = 0; j < 256; ++j) {
            size_t e = (size_t)i * 256 + j;
            out[e] = i == 5500 ? out[e] : (T)(out[e] + (T)1);
        })";
    auto check = [&](auto zero, const char* type) {
        using T = decltype(zero);
        INFO("element type " << type);
        cl_program p = env.build(cltest::nonce("split_nway_span") + "typedef " + type + " T;\n" +
                                 "__kernel void window(__global T* out) {" + body + "}");
        cl_kernel k = env.kernel(p, "window");
        std::vector<T> before(n);
        for (size_t e = 0; e < n; ++e) before[e] = static_cast<T>(e * 2654435761u + 7u);
        cl_mem out = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(T), before.data());
        const Counters start = Counters::read(env.platform);
        setArg(k, 0, out);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &items, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto got = env.read<T>(out, n);
        const Counters end = Counters::read(env.platform);
        size_t wrong = 0;
        for (size_t e = 0; e < n; ++e) {
            const size_t i = e / perItem;
            const bool adds = ((i >= 100 && i < 200) || (i >= 5000 && i < 7000)) && i != 5500;
            if (got[e] != (adds ? static_cast<T>(before[e] + 1) : before[e])) ++wrong;
        }
        CHECK(wrong == 0);
        // The high half's slot changed elements [5000, 7000) x 256: that span alone came back
        // (on one device: nothing, its part wrote the primary's object).
        if (nway && !chaos) {
            CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == 1);
            CHECK(end[CL_HETERO_BYTES_BETWEEN_DEVICES] - start[CL_HETERO_BYTES_BETWEEN_DEVICES] ==
                  (expect.oneDevice ? 0 : 2000 * perItem * sizeof(T)));
        }
        clReleaseMemObject(out);
        clReleaseKernel(k);
        clReleaseProgram(p);
    };
    check(cl_uchar{0}, "uchar");
    check(cl_ushort{0}, "ushort");
    check(cl_ulong{0}, "ulong");
}

// The next launch of a kernel of the same shape starts reading each other slot's results back where
// that slot changed them last time, before its search says where they are now
// (platform/split/span_guesses.hpp). The guess is used only where it covers the span found: wider
// is merged whole (exact, since outside the span the slot's copy equals orig), narrower or elsewhere
// is read again from the span found. Items in [lo, hi) add one to their 256 elements; the other
// slot's half is items [4096, 8192). Under chaos (random shares, guesses cut short or widened)
// only the results are checked.
TEST_CASE("a span guessed from the launch before is used only where it covers the span found", "[.nway]") {
    const Expected expect = expected();
    const bool nway = expect.nway(), chaos = expect.chaos;
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_guess") + R"(
        __kernel void window(__global uint* out, uint lo, uint hi) {
            uint i = get_global_id(0);
            if (i < lo || i >= hi) return;
            for (uint j = 0; j < 256; ++j) out[(size_t)i * 256 + j] += 1u;
        })");
    cl_kernel k = env.kernel(p, "window");
    const size_t local = 64, items = 128 * local, perItem = 256, n = items * perItem;
    std::vector<cl_uint> want(n);
    for (size_t e = 0; e < n; ++e) want[e] = static_cast<cl_uint>(e * 2654435761u + 7u);
    cl_mem out = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), want.data());
    setArg(k, 0, out);
    auto launch = [&](cl_uint lo, cl_uint hi) {
        INFO("items [" << lo << ", " << hi << ")");
        const Counters start = Counters::read(env.platform);
        setArg(k, 1, lo);
        setArg(k, 2, hi);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &items, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto got = env.read<cl_uint>(out, n);
        const Counters end = Counters::read(env.platform);
        for (size_t e = size_t{lo} * perItem; e < size_t{hi} * perItem; ++e) ++want[e];
        size_t wrong = 0;
        for (size_t e = 0; e < n; ++e) wrong += got[e] != want[e];
        CHECK(wrong == 0);
        CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == (nway ? 1u : 0u));
        return (end[CL_HETERO_BYTES_BETWEEN_DEVICES] - start[CL_HETERO_BYTES_BETWEEN_DEVICES]) / (perItem * sizeof(cl_uint));
    };
    const cl_ulong first = launch(5000, 7000);  // no guess: the span found
    const cl_ulong inside = launch(5500, 6000);  // the guess [5000, 7000) covers it: all of it sent
    const cl_ulong outside = launch(4500, 8000);  // the guess [5500, 6000) does not: the span found
    const cl_ulong none = launch(100, 200);  // the other slot changes nothing: nothing sent
    // Nothing was changed there last time: no guess. (The primary's span of the launch before is
    // brought to the other slot first: 100 items.)
    const cl_ulong after = launch(6000, 6001);
    if (nway && !chaos && expect.oneDevice) {
        CHECK(first + inside + outside + none + after == 0);
    } else if (nway && !chaos) {
        CHECK(first == 2000);
        CHECK(inside == 2000);
        CHECK(outside == 3500);
        CHECK(none == 0);
        CHECK(after == 100 + 1);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// An object an N-way launch wrote is stale on the other slots afterwards, but each lacks only what
// the other parts changed (merge::lackedRanges): a later launch that needs it there brings only
// that (DiscreteStorage::refreshRanges). Two halves of 2 MiB objects (spans from that size): the
// other slot lacks the primary's half. Launch 2 reads and writes X (brought from its orig
// snapshot), launch 3 reads what launch 2 wrote.
TEST_CASE("an object an N-way launch wrote is brought to the other slot only where it lacks it", "[.nway]") {
    const Expected expect = expected();
    const bool nway = expect.nway(), chaos = expect.chaos;
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_refresh") + R"(
        __kernel void fill(__global uint* x) { size_t i = get_global_id(0); x[i] = (uint)i * 7u + 3u; }
        __kernel void twice(__global uint* x) { size_t i = get_global_id(0); x[i] = x[i] * 2u + 1u; }
        __kernel void next(__global const uint* x, __global uint* y) { size_t i = get_global_id(0); y[i] = x[i] + 1u; })");
    cl_kernel fill = env.kernel(p, "fill"), twice = env.kernel(p, "twice"), next = env.kernel(p, "next");
    const size_t local = 64, n = local * 8192, bytes = n * sizeof(cl_uint);  // 2 MiB each
    cl_mem x = env.buffer(CL_MEM_READ_WRITE, bytes), y = env.buffer(CL_MEM_READ_WRITE, bytes);
    setArg(fill, 0, x);
    setArg(twice, 0, x);
    setArg(next, 0, x);
    setArg(next, 1, y);
    auto moved = [&](cl_kernel k) {
        const Counters start = Counters::read(env.platform);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        const Counters end = Counters::read(env.platform);
        CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == (nway ? 1u : 0u));
        return end[CL_HETERO_BYTES_BETWEEN_DEVICES] - start[CL_HETERO_BYTES_BETWEEN_DEVICES];
    };
    const cl_ulong filled = moved(fill), doubled = moved(twice), nexted = moved(next);
    auto gotX = env.read<cl_uint>(x, n);
    auto gotY = env.read<cl_uint>(y, n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const cl_uint want = (static_cast<cl_uint>(i) * 7u + 3u) * 2u + 1u;
        if (gotX[i] != want || gotY[i] != want + 1u) ++wrong;
    }
    CHECK(wrong == 0);
    if (nway && !chaos && expect.oneDevice) {
        CHECK(filled + doubled + nexted == 0);
    } else if (nway && !chaos) {
        CHECK(filled == bytes / 2);                // the other half back
        CHECK(doubled == bytes / 2 + bytes / 2);   // the primary's half of X out, the other half back
        CHECK(nexted == bytes / 2 + bytes / 2);    // again, with Y's other half back
    }
    clReleaseMemObject(x);
    clReleaseMemObject(y);
    clReleaseKernel(fill);
    clReleaseKernel(twice);
    clReleaseKernel(next);
    clReleaseProgram(p);
}

// Once a context has split a launch N-way, a whole host write goes on from the host copy to every
// other GPU slot at once (DiscreteStorage::mirrorHostWrite), so the next N-way launch brings no
// input while it runs: only the other slot's results move between devices. Before the context's
// first N-way split nothing is copied on (a program that never splits would pay for it), so the
// first launch brings its input. Two writes in a row before the second launch: its slots must see
// the second (the first write's copy on to the other slot must not land after the second's).
// 256 KiB: host copies from 64 KiB are pinned, and only those are copied on. With a CPU slot the
// host copy is that slot's; without one (icd.nway-gpus-only) it is Hetero's own pinned copy.
TEST_CASE("after its first N-way split, a context's host writes reach every GPU slot", "[.nway]") {
    const Expected expect = expected();
    const bool nway = expect.nway(), chaos = expect.chaos;
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_mirror") + R"(
        __kernel void triple(__global const uint* in, __global uint* out) {
            size_t i = get_global_id(0);
            out[i] = in[i] * 3u + 1u;
        })");
    cl_kernel k = env.kernel(p, "triple");
    const size_t local = 64, n = local * 1024, bytes = n * sizeof(cl_uint);
    std::vector<cl_uint> zeroth(n, 5u), first(n, 7u), second(n);
    for (size_t i = 0; i < n; ++i) second[i] = static_cast<cl_uint>(i * 2654435761u);
    cl_mem in = env.buffer(CL_MEM_READ_ONLY, bytes);
    // An output each time: one the first launch wrote would be brought to the other slot (its copy
    // must equal the launch's orig snapshot where that slot does not write, for the merge).
    cl_mem out = env.buffer(CL_MEM_WRITE_ONLY, bytes), out2 = env.buffer(CL_MEM_WRITE_ONLY, bytes);
    setArg(k, 0, in);
    auto launch = [&](cl_mem out, const std::vector<cl_uint>& expected) {
        setArg(k, 1, out);
        const Counters start = Counters::read(env.platform);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto got = env.read<cl_uint>(out, n);
        const Counters end = Counters::read(env.platform);
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i)
            if (got[i] != expected[i] * 3u + 1u) ++wrong;
        CHECK(wrong == 0);
        CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == (nway ? 1u : 0u));
        return end[CL_HETERO_BYTES_BETWEEN_DEVICES] - start[CL_HETERO_BYTES_BETWEEN_DEVICES];
    };
    auto write = [&](const std::vector<cl_uint>& data) {
        REQUIRE(clEnqueueWriteBuffer(env.queue, in, CL_FALSE, 0, bytes, data.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    };
    write(zeroth);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    const cl_ulong firstMoved = launch(out, zeroth);
    const Counters beforeWrites = Counters::read(env.platform);
    write(first);
    write(second);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    const cl_ulong secondMoved = launch(out2, second);
    const Counters afterWrites = Counters::read(env.platform);
    // On one device no write is copied on to the other slot (its part uses the launch's slot's
    // objects); with a context each, every write is, and counts here.
    if (nway && expect.oneDevice) {
        CHECK(afterWrites[CL_HETERO_BYTES_HOST_TO_DEVICE] - beforeWrites[CL_HETERO_BYTES_HOST_TO_DEVICE] == 0);
        CHECK(firstMoved + secondMoved == 0);
    } else if (nway && !chaos) {
        // The other slot's results each time (whole: below the size from which spans are sent);
        // the input only the first time.
        CHECK(firstMoved == 2 * bytes);
        CHECK(secondMoved == bytes);
    }
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseMemObject(out2);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// A copy the launch's thread brings to another slot while the primary computes
// (HETERO_TEST_SPLIT_FAIL_BRING=1: the first such copy fails as a transfer would). The launch
// reports the failure, and the copy it could not bring counts as stale: the next launch brings it
// again and is exact, and the host still reads what it wrote. Hidden ([.nway-failed-bring]): only
// icd.nway-failed-bring sets the knob.
TEST_CASE("an N-way launch whose copy could not be brought fails, and the next one brings it again",
          "[.nway-failed-bring]") {
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_bring") + R"(
        __kernel void twice(__global const uint* in, __global uint* out) {
            size_t i = get_global_id(0);
            out[i] = in[i] * 2u + 1u;
        })");
    cl_kernel k = env.kernel(p, "twice");
    const size_t local = 64, n = local * 96;
    std::vector<cl_uint> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_uint>(i * 2654435761u);
    cl_mem inBuf = env.buffer(CL_MEM_READ_ONLY, n * sizeof(cl_uint));
    // Written by the host: current on the launch's slot and the host copy, stale on the other GPU slot.
    REQUIRE(clEnqueueWriteBuffer(env.queue, inBuf, CL_TRUE, 0, n * sizeof(cl_uint), in.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_mem failedOut = env.buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
    cl_mem out = env.buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_uint));
    const Counters start = Counters::read(env.platform);
    const size_t global = n;

    setArg(k, 0, inBuf);
    setArg(k, 1, failedOut);
    cl_event failed = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, &failed) == CL_SUCCESS);
    clWaitForEvents(1, &failed);
    cl_int status = CL_COMPLETE;
    REQUIRE(clGetEventInfo(failed, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status < 0);
    clReleaseEvent(failed);

    // On a queue of its own: the failed launch would fail whatever follows it on its in-order queue.
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    setArg(k, 1, out);
    REQUIRE(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_uint> got(n), gotIn(n);
    REQUIRE(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(cl_uint), got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(queue, inBuf, CL_TRUE, 0, n * sizeof(cl_uint), gotIn.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    clReleaseCommandQueue(queue);
    size_t wrong = 0, wrongIn = 0;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] != in[i] * 2u + 1u) ++wrong;
        if (gotIn[i] != in[i]) ++wrongIn;
    }
    CHECK(wrong == 0);
    CHECK(wrongIn == 0);
    const Counters end = Counters::read(env.platform);
    CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] >= 1);
    clReleaseMemObject(inBuf);
    clReleaseMemObject(failedOut);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// A host write's copy on to another GPU slot that fails (HETERO_TEST_FAIL_MIRROR=1: the first such
// transfer fails on the backend) leaves that copy stale: the next launch there does not wait on the
// failed transfer (it would fail) but brings the copy again, and is exact. Hidden
// ([.nway-failed-mirror]): only icd.nway-failed-mirror sets the knob.
TEST_CASE("a host write whose copy to another GPU slot failed is brought there again",
          "[.nway-failed-mirror]") {
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_failed_mirror") + R"(
        __kernel void plus(__global const uint* in, __global uint* out) {
            size_t i = get_global_id(0);
            out[i] = in[i] + 11u;
        })");
    cl_kernel k = env.kernel(p, "plus");
    const size_t local = 64, n = local * 1024, bytes = n * sizeof(cl_uint);
    std::vector<cl_uint> data(n);
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<cl_uint>(i * 40503u);
    cl_mem in = env.buffer(CL_MEM_READ_ONLY, bytes);
    cl_mem outs[2] = {env.buffer(CL_MEM_WRITE_ONLY, bytes), env.buffer(CL_MEM_WRITE_ONLY, bytes)};
    const Counters start = Counters::read(env.platform);
    setArg(k, 0, in);
    for (cl_mem out : outs) {  // the first launch makes the context copy later writes on; its own are not
        REQUIRE(clEnqueueWriteBuffer(env.queue, in, CL_TRUE, 0, bytes, data.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        setArg(k, 1, out);
        cl_event done = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, &done) == CL_SUCCESS);
        REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
        cl_int status = CL_QUEUED;
        REQUIRE(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        CHECK(status == CL_COMPLETE);
        clReleaseEvent(done);
        auto got = env.read<cl_uint>(out, n);
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i)
            if (got[i] != data[i] + 11u) ++wrong;
        CHECK(wrong == 0);
        for (auto& d : data) d ^= 0x9e3779b9u;
    }
    const Counters end = Counters::read(env.platform);
    CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == 2);
    clReleaseMemObject(in);
    clReleaseMemObject(outs[0]);
    clReleaseMemObject(outs[1]);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// GPUs of different names share by their speeds measured in earlier N-way splits of the kernel
// (SplitHistory::nwayGpuWeights). Hidden ([.nway-unalike]): icd.nway-unalike makes slots 0 and 1
// count as different devices (HETERO_TEST_NWAY_UNALIKE) and slot 1 slow (HETERO_TEST_NWAY_SLOW_SLOT:
// its part starts 20 ms late, which its measured speed counts). Their compute units are equal, so
// the first launches split in halves; once both were measured (a process's first split measures
// nothing) slot 1 gets a small share. Results stay exact throughout.
TEST_CASE("N-way shares of GPUs of different names follow their measured speeds", "[.nway-unalike]") {
    Env env;
    cl_program p = env.build(cltest::nonce("split_nway_unalike") + R"(
        __kernel void scale(__global const uint* in, __global uint* out) {
            size_t i = get_global_id(0);
            out[i] = in[i] * 5u + (uint)i;
        })");
    cl_kernel k = env.kernel(p, "scale");
    const size_t local = 64, groups = 240, n = local * groups;
    std::vector<cl_uint> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_uint>(i * 2654435761u);
    cl_mem inBuf = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), in.data());
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
    setArg(k, 0, inBuf);
    setArg(k, 1, out);
    std::vector<cl_ulong> slot0, slot1;
    for (int launch = 0; launch < 5; ++launch) {
        const Counters start = Counters::read(env.platform);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto got = env.read<cl_uint>(out, n);
        const Counters end = Counters::read(env.platform);
        size_t wrong = 0;
        for (size_t i = 0; i < n; ++i)
            if (got[i] != in[i] * 5u + static_cast<cl_uint>(i)) ++wrong;
        CHECK(wrong == 0);
        CHECK(end[CL_HETERO_LAUNCHES_SPLIT_NWAY] - start[CL_HETERO_LAUNCHES_SPLIT_NWAY] == 1);
        slot0.push_back(end[CL_HETERO_WORK_GROUPS_SLOT0] - start[CL_HETERO_WORK_GROUPS_SLOT0]);
        slot1.push_back(end[CL_HETERO_WORK_GROUPS_SLOT0 + 1] - start[CL_HETERO_WORK_GROUPS_SLOT0 + 1]);
        INFO("launch " << launch << ": slot 0 took " << slot0.back() << ", slot 1 " << slot1.back());
        CHECK(slot0.back() + slot1.back() == groups);
    }
    CHECK(slot0[0] == slot1[0]);          // equal compute units, nothing measured
    CHECK(slot1.back() * 4 < slot0.back());  // 20 ms late against a part of about a millisecond
    clReleaseMemObject(inBuf);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}
