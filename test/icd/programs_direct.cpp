// Launches that go the direct way (platform/split/launch.cpp, Queue::Direct): straight to a backend
// queue, with backend arguments set only where they changed, no Hetero event unless asked, and
// often no backend event. What they write must be seen wherever it is used next, the arguments of
// every launch must be its own, and events and waits asked for later must tell the truth. In the
// two-slots configuration launches alternate between slots (HETERO_RUN_ON=alternate), so the same
// cases cross slots there.
#include "cl_test.hpp"
#include "hetero_counters.hpp"

#include <CL/cl_ext_hetero.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using cltest::Env;
using cltest::setArg;

namespace {
const char* kKernels = R"(
    __kernel void add(__global int* v, int by) { v[get_global_id(0)] += by; }
    __kernel void mark(__global int* out, int value) { out[get_global_id(0)] = value; }
    __kernel void copy(__global const int* from, __global int* to) { to[get_global_id(0)] = from[get_global_id(0)]; }
    // Work-item 0 of each group fills `count` ints of `first`, then of `second`, and sums `first`:
    // if `first` were smaller than the launch said, `second` would overwrite part of it.
    __kernel void sum_locals(__global int* out, __local int* first, __local int* second, int count) {
        if (get_local_id(0) == 0) {
            for (int i = 0; i < count; ++i) first[i] = i + 1;
            for (int i = 0; i < count; ++i) second[i] = -1000;
            int sum = 0;
            for (int i = 0; i < count; ++i) sum += first[i];
            out[get_group_id(0)] = sum;
        }
    })";

// Slow enough that a wait which returned early would find it still running.
const char* kSlowAdd = R"(
    __kernel void add_slowly(__global int* v, int by, int rounds) {
        size_t i = get_global_id(0);
        int x = v[i] + 7;
        for (int r = 0; r < rounds; ++r) x = (x * 3 + 1) % 1000003;
        v[i] += x == -1 ? 0 : by;
    })";

std::vector<cl_int> readOn(cl_command_queue q, cl_mem m, size_t n) {
    std::vector<cl_int> out(n, -1);
    REQUIRE(clEnqueueReadBuffer(q, m, CL_TRUE, 0, n * sizeof(cl_int), out.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    return out;
}

bool allEqual(const std::vector<cl_int>& v, cl_int value) {
    for (cl_int x : v)
        if (x != value) return false;
    return true;
}

cl_int statusOf(cl_event e) {
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    return status;
}

struct Program {
    Env& env;
    cl_program program;
    explicit Program(Env& e) : env(e), program(e.build(kKernels)) {}
    ~Program() { clReleaseProgram(program); }
    cl_kernel kernel(const char* name) { return env.kernel(program, name); }
};
// A unified context shows a CL_MEM_USE_HOST_PTR buffer's results in the application's memory only
// where the devices really share it (Hetero reports CL_DEVICE_HOST_UNIFIED_MEMORY then); a unified
// context forced over a discrete GPU gives no such promise (Hetero warns when one is made).
bool devicesShareHostMemory() {
    cl_bool shared = CL_FALSE;
    REQUIRE(clGetDeviceInfo(cltest::heteroDevice(), CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof shared, &shared, nullptr) ==
            CL_SUCCESS);
    if (!shared) WARN("skipped: the devices do not share host memory");
    return shared == CL_TRUE;
}
}  // namespace

TEST_CASE("direct launches: each launch gets its own arguments, a buffer swapped and back",
          "[programs][direct]") {
    Env env;
    Program p(env);
    cl_kernel mark = p.kernel("mark");
    const size_t n = 256;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, n * 4), b = env.buffer(CL_MEM_READ_WRITE, n * 4);
    // a <- 1, b <- 2, a <- 3 (the buffer swapped back), b <- 4 with the value set before the buffer.
    setArg(mark, 0, a), setArg(mark, 1, cl_int(1));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    setArg(mark, 0, b), setArg(mark, 1, cl_int(2));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(a, n), 1));
    setArg(mark, 0, a), setArg(mark, 1, cl_int(3));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    setArg(mark, 1, cl_int(4)), setArg(mark, 0, b);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(a, n), 3));
    CHECK(allEqual(env.read<cl_int>(b, n), 4));
    // The same argument set again to the same object is still that object.
    setArg(mark, 0, a), setArg(mark, 0, a), setArg(mark, 1, cl_int(5));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(a, n), 5));
    CHECK(allEqual(env.read<cl_int>(b, n), 4));
    clReleaseKernel(mark), clReleaseMemObject(a), clReleaseMemObject(b);
}

// A loop that changes a scalar before every launch: each launch gives its own slot the one changed
// argument, not every slot of the device at clSetKernelArg (which doubled the backend calls of
// every such launch with a second slot). In the two-slots configuration the launches alternate, so
// each slot is given values set while the other one ran.
TEST_CASE("direct launches: a scalar changed before every launch costs one backend argument per launch",
          "[programs][direct]") {
    Env env;
    Program p(env);
    cl_kernel add = p.kernel("add");
    const size_t n = 64;
    const cl_int launches = 64;
    cl_mem v = env.buffer(CL_MEM_READ_WRITE, n * 4);
    std::vector<cl_int> zero(n, 0);
    REQUIRE(clEnqueueWriteBuffer(env.queue, v, CL_TRUE, 0, n * 4, zero.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    setArg(add, 0, v);
    const auto before = cltest::Counters::read(env.platform);
    for (cl_int i = 1; i <= launches; ++i) {
        setArg(add, 1, i);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    const auto after = cltest::Counters::read(env.platform);
    CHECK(allEqual(env.read<cl_int>(v, n), launches * (launches + 1) / 2));
    // A wrong size is still refused at once, though every slot took this argument before.
    CHECK(clSetKernelArg(add, 1, 2, &zero[0]) == CL_INVALID_ARG_SIZE);
    CHECK(clSetKernelArg(add, 1, 0, &zero[0]) == CL_INVALID_ARG_SIZE);
    // Size 0 for an argument no backend took a value for yet (found by fuzz.api.split).
    cl_kernel fresh = p.kernel("mark");
    CHECK(clSetKernelArg(fresh, 1, 0, &zero[0]) == CL_INVALID_ARG_SIZE);
    clReleaseKernel(fresh);
    const cl_ulong whole = after[CL_HETERO_LAUNCHES_WHOLE] - before[CL_HETERO_LAUNCHES_WHOLE];
    const cl_ulong given = after[CL_HETERO_BACKEND_KERNEL_ARGS] - before[CL_HETERO_BACKEND_KERNEL_ARGS];
    if (whole == cl_ulong(launches)) {
        // One per launch, plus the first setting of each argument on each slot (at most 4 slots).
        CHECK(given <= cl_ulong(launches) + 2 * 4);
    } else {
        WARN("launches were split (split variants are given every argument): only the results are checked");
    }
    clReleaseKernel(add), clReleaseMemObject(v);
}

TEST_CASE("direct launches: a __local size changed between launches is the new one", "[programs][direct]") {
    Env env;
    Program p(env);
    cl_kernel sum = p.kernel("sum_locals");
    const size_t groups = 4, local = 16, n = groups * local;
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, groups * 4);
    setArg(sum, 0, out);
    for (cl_int count : {4, 200, 8, 300}) {
        REQUIRE(clSetKernelArg(sum, 1, count * sizeof(cl_int), nullptr) == CL_SUCCESS);
        REQUIRE(clSetKernelArg(sum, 2, count * sizeof(cl_int), nullptr) == CL_SUCCESS);
        setArg(sum, 3, count);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, sum, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(allEqual(env.read<cl_int>(out, groups), count * (count + 1) / 2));
    }
    clReleaseKernel(sum), clReleaseMemObject(out);
}

TEST_CASE("direct launches: arguments set while an earlier launch of the kernel waits are not mixed up",
          "[programs][direct]") {
    Env env;
    Program p(env);
    cl_kernel mark = p.kernel("mark");
    const size_t n = 128;
    cl_int err;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, n * 4), b = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    // The first launch waits for the gate (so it takes the scheduler's way with its own copy of the
    // arguments); the next ones are enqueued behind it with other arguments.
    setArg(mark, 0, a), setArg(mark, 1, cl_int(7));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 1, &gate, nullptr) == CL_SUCCESS);
    setArg(mark, 0, b), setArg(mark, 1, cl_int(8));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    // Now the queue is idle: this one goes the direct way, after the waiting one set `a` and 7.
    setArg(mark, 1, cl_int(9));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(a, n), 7));
    CHECK(allEqual(env.read<cl_int>(b, n), 9));
    clReleaseEvent(gate);
    clReleaseKernel(mark), clReleaseMemObject(a), clReleaseMemObject(b);
}

TEST_CASE("direct launches: what they wrote is read through another queue, mapped, and used by another queue's launch",
          "[programs][direct]") {
    Env env;
    Program p(env);
    cl_int err;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t n = 2048;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_mem w = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_kernel add = p.kernel("add"), copy = p.kernel("copy");
    setArg(add, 0, v), setArg(add, 1, cl_int(1));
    setArg(copy, 0, v), setArg(copy, 1, w);
    // Commands of two queues are ordered only by the application (here clFinish): then the other
    // queue must find the launches' results, wherever they were written and whether or not
    // anybody has asked the backend about them yet.
    for (int i = 0; i < 40; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(allEqual(readOn(other, v, n), 40));
    for (int i = 0; i < 10; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    // A map through the other queue sees all fifty; a write through the map is seen by the next launches.
    auto* mapped = static_cast<cl_int*>(
        clEnqueueMapBuffer(other, v, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, n * 4, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(mapped[0] == 50);
    CHECK(mapped[n - 1] == 50);
    mapped[0] = 1000;
    REQUIRE(clEnqueueUnmapMemObject(other, v, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(other) == CL_SUCCESS);
    for (int i = 0; i < 5; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    // A launch on the other queue copies what the first queue's launches wrote.
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(other, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto copied = readOn(env.queue, w, n);
    CHECK(copied[0] == 1005);
    CHECK(copied[1] == 55);
    CHECK(copied[n - 1] == 55);
    clReleaseKernel(add), clReleaseKernel(copy), clReleaseMemObject(v), clReleaseMemObject(w);
    clReleaseCommandQueue(other);
}

TEST_CASE("direct launches: events and waits asked for later cover the launches before them", "[programs][direct][events]") {
    Env env;
    Program p(env);
    const size_t n = 1024;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_kernel add = p.kernel("add");
    setArg(add, 0, v), setArg(add, 1, cl_int(1));
    for (int i = 0; i < 30; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    // A launch with an event, then more without: the event completes no earlier than its launch.
    cl_event withEvent = nullptr, marker = nullptr, last = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, &withEvent) == CL_SUCCESS);
    for (int i = 0; i < 30; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    // A marker without a wait list stands for everything before it.
    REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &marker) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
    CHECK(statusOf(withEvent) == CL_COMPLETE);
    // What the marker waited for is done: a read through another queue sees the 61 increments.
    cl_int err;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(allEqual(readOn(other, v, n), 61));
    // More launches, then clFinish: a launch's event taken before is complete after it.
    for (int i = 0; i < 20; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, i == 10 ? &last : nullptr) ==
                CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(statusOf(last) == CL_COMPLETE);
    // A barrier and a marker after direct launches order what follows them.
    for (int i = 0; i < 5; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueBarrierWithWaitList(env.queue, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(v, n), 86));
    clReleaseEvent(withEvent), clReleaseEvent(marker), clReleaseEvent(last);
    clReleaseCommandQueue(other);
    clReleaseKernel(add), clReleaseMemObject(v);
}

// The application may release an event right after registering a callback on it: the callback
// still runs once the launch completes. A direct launch's event is held by nothing else but the
// queue's "last command", which the next launch with an event replaces.
TEST_CASE("direct launches: callbacks on released events still run", "[programs][direct][events]") {
    Env env;
    cl_program program = env.build(kSlowAdd);
    cl_kernel add = env.kernel(program, "add_slowly");
    const size_t n = 4096;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    setArg(add, 0, v), setArg(add, 1, cl_int(1)), setArg(add, 2, cl_int(20000));
    std::atomic<int> called{0};
    auto onComplete = [](cl_event, cl_int status, void* data) {
        if (status == CL_COMPLETE) static_cast<std::atomic<int>*>(data)->fetch_add(1);
    };
    const int launches = 8;
    for (int i = 0; i < launches; ++i) {
        cl_event e = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
        REQUIRE(clSetEventCallback(e, CL_COMPLETE, onComplete, &called) == CL_SUCCESS);
        REQUIRE(clReleaseEvent(e) == CL_SUCCESS);
    }
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(allEqual(env.read<cl_int>(v, n), launches));
    // Callbacks run on Hetero's or the backend's threads, possibly just after clFinish returns.
    for (int i = 0; i < 500 && called.load() < launches; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(called.load() == launches);
    clReleaseKernel(add), clReleaseMemObject(v), clReleaseProgram(program);
}

TEST_CASE("direct launches: another queue waits on an event of a launch that had none of its own",
          "[programs][direct][events]") {
    Env env;
    Program p(env);
    cl_int err;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t n = 512;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_mem w = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_kernel add = p.kernel("add"), markW = p.kernel("mark");
    setArg(add, 0, v), setArg(add, 1, cl_int(2));
    setArg(markW, 0, w), setArg(markW, 1, cl_int(5));
    cl_event done = nullptr;
    for (int i = 0; i < 25; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, i == 24 ? &done : nullptr) ==
                CL_SUCCESS);
    // The other queue's marker waits for `done` only: once it completed, so did the 25 launches.
    cl_event gate = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(other, 1, &done, &gate) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &gate) == CL_SUCCESS);
    CHECK(statusOf(done) == CL_COMPLETE);
    // A launch on the other queue after `done`, on memory of its own, then the results.
    REQUIRE(clEnqueueNDRangeKernel(other, markW, 1, nullptr, &n, nullptr, 1, &done, nullptr) == CL_SUCCESS);
    CHECK(allEqual(readOn(other, w, n), 5));
    CHECK(allEqual(readOn(other, v, n), 50));
    clReleaseEvent(done), clReleaseEvent(gate);
    clReleaseKernel(add), clReleaseKernel(markW), clReleaseMemObject(v), clReleaseMemObject(w);
    clReleaseCommandQueue(other);
}

TEST_CASE("direct launches on a profiling queue: backend events of their own, in order, with times",
          "[programs][direct][events]") {
    Env env(CL_QUEUE_PROFILING_ENABLE);
    Program p(env);
    const size_t n = 1024;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_kernel add = p.kernel("add");
    setArg(add, 0, v);
    cl_event timed = nullptr;
    for (int i = 0; i < 50; ++i) {
        setArg(add, 1, cl_int(i % 2 ? 3 : 1));  // +1, +3, +1, ...: 100 after 50 launches
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, i == 30 ? &timed : nullptr) ==
                CL_SUCCESS);
    }
    CHECK(allEqual(env.read<cl_int>(v, n), 100));
    REQUIRE(clWaitForEvents(1, &timed) == CL_SUCCESS);
    cl_ulong queued = 0, start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(timed, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(timed, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(timed, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
    CHECK(queued <= start);
    CHECK(start <= end);
    clReleaseEvent(timed);
    clReleaseKernel(add), clReleaseMemObject(v);
}

TEST_CASE("direct launches from two threads into one queue all run", "[programs][direct][threads]") {
    Env env;
    Program p(env);
    const size_t n = 256;
    std::vector<cl_int> zeros(n, 0);
    cl_mem v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    // One kernel object per thread: a kernel's arguments are not for two threads at once.
    cl_kernel adds[2] = {p.kernel("add"), p.kernel("add")};
    for (cl_kernel k : adds) setArg(k, 0, v), setArg(k, 1, cl_int(1));
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 300; ++i)
                if (clEnqueueNDRangeKernel(env.queue, adds[t], 1, nullptr, &n, nullptr, 0, nullptr, nullptr) != CL_SUCCESS)
                    failures.fetch_add(1);
        });
    for (auto& t : threads) t.join();
    CHECK(failures.load() == 0);
    CHECK(allEqual(env.read<cl_int>(v, n), 600));
    for (cl_kernel k : adds) clReleaseKernel(k);
    clReleaseMemObject(v);
}

// A unified context (forced) and a slow kernel adding to a CL_MEM_USE_HOST_PTR buffer of n zeros:
// in unified memory that buffer is the application's memory itself, so the launches' results show
// there without a read.
struct InPlaceAdds {
    static constexpr size_t n = 4096;
    static constexpr cl_context_properties unified[] = {CL_CONTEXT_MEMORY_MODEL_HETERO, CL_MEMORY_MODEL_UNIFIED_HETERO, 0};
    Env env{0, unified};
    cl_program program = env.build(kSlowAdd);
    cl_kernel add = env.kernel(program, "add_slowly");
    cl_int* host = nullptr;
    cl_mem v = nullptr;
    InPlaceAdds() {
        void* raw = nullptr;
        REQUIRE(posix_memalign(&raw, 4096, n * sizeof(cl_int)) == 0);
        host = static_cast<cl_int*>(raw);
        std::fill(host, host + n, 0);
        v = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, n * sizeof(cl_int), host);
        setArg(add, 0, v), setArg(add, 1, cl_int(1)), setArg(add, 2, cl_int(4000));
    }
    ~InPlaceAdds() {
        clFinish(env.queue);
        clReleaseMemObject(v), clReleaseKernel(add), clReleaseProgram(program);
        std::free(host);
    }
    void launch() {
        size_t global = n;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    bool allAre(cl_int value) const { return std::all_of(host, host + n, [&](cl_int x) { return x == value; }); }
};

TEST_CASE("direct launches: clFinish waits for launches that had no event (the host sees them in place)",
          "[programs][direct][events]") {
    if (!devicesShareHostMemory()) return;
    // Nothing but clFinish waits for the launches.
    InPlaceAdds t;
    for (int i = 0; i < 4; ++i) t.launch();
    REQUIRE(clFinish(t.env.queue) == CL_SUCCESS);
    CHECK(t.allAre(4));
}

TEST_CASE("direct launches: a later command of the queue, on the host or a marker, comes after them",
          "[programs][direct][events]") {
    if (!devicesShareHostMemory()) return;
    // In order: once a blocking map of another buffer (a command on the host) or a marker has
    // completed, so have the launches before it, though it shares no memory with them.
    InPlaceAdds t;
    cl_mem other = t.env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int expected = 0;
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 3; ++i, ++expected) t.launch();
        cl_int err;
        void* mapped = clEnqueueMapBuffer(t.env.queue, other, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        CHECK(t.allAre(expected));
        REQUIRE(clEnqueueUnmapMemObject(t.env.queue, other, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
        for (int i = 0; i < 3; ++i, ++expected) t.launch();
        cl_event marker = nullptr;
        REQUIRE(clEnqueueMarkerWithWaitList(t.env.queue, 0, nullptr, &marker) == CL_SUCCESS);
        REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
        CHECK(t.allAre(expected));
        clReleaseEvent(marker);
    }
    REQUIRE(clFinish(t.env.queue) == CL_SUCCESS);
    clReleaseMemObject(other);
}

namespace {
void CL_CALLBACK contextGone(cl_context, void* flag) { static_cast<std::atomic<bool>*>(flag)->store(true); }
}  // namespace

TEST_CASE("direct launches: a context whose launches had events released at once goes when released",
          "[programs][direct][events]") {
    // The queue keeps the last launch's event (it is what later commands wait for) and that event
    // holds the queue until it completes: releasing the queue must make sure it completes, or the
    // two would keep each other, and the context, forever.
    std::atomic<bool> gone{false};
    {
        Env env;
        REQUIRE(clSetContextDestructorCallback(env.context, contextGone, &gone) == CL_SUCCESS);
        Program p(env);
        cl_kernel add = p.kernel("add");
        const size_t n = 1024;
        cl_mem v = env.buffer(CL_MEM_READ_WRITE, n * 4);
        setArg(add, 0, v), setArg(add, 1, cl_int(1));
        for (int i = 0; i < 50; ++i) {
            cl_event e = nullptr;
            REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, &e) == CL_SUCCESS);
            REQUIRE(clReleaseEvent(e) == CL_SUCCESS);
        }
        clReleaseKernel(add), clReleaseMemObject(v);
    }  // releases the queue and the context, without waiting for the launches
    for (int i = 0; i < 3000 && !gone.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(gone.load());
}

// Launches a pipe makes (devices/call_pipe.hpp; the piped configurations, with the pipe's thread
// held back before each launch) are made after the application has let go of their buffers and
// kernel: releasing them must wait for the launches, which still name them, to be made.
TEST_CASE("direct launches: buffers and kernels released right after their launches", "[programs][direct]") {
    Env env;
    Program p(env);
    const size_t n = 64;
    const int rounds = 24;
    cl_uint alignBits = 0;  // sub-buffer origins must be aligned to it (NVIDIA: 4,096 bits)
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr) == CL_SUCCESS);
    const size_t stride = std::max<size_t>(n * 4, alignBits / 8);  // bytes between rounds' results
    cl_mem results = env.buffer(CL_MEM_READ_WRITE, rounds * stride);
    // Kept across rounds, so that their launches go to the pipe (a kernel's first launch on a slot
    // is made at once); each round's `add` is new, its launches after the first the pipe's.
    cl_kernel mark = p.kernel("mark"), copy = p.kernel("copy");
    for (int r = 0; r < rounds; ++r) {
        cl_mem scratch = env.buffer(CL_MEM_READ_WRITE, n * 4);
        cl_kernel add = p.kernel("add");
        setArg(mark, 0, scratch), setArg(mark, 1, cl_int(0));
        REQUIRE(clEnqueueNDRangeKernel(env.queue, mark, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        setArg(add, 0, scratch);
        for (cl_int i = 1; i <= r; ++i) {
            setArg(add, 1, i);
            REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        }
        cl_buffer_region region{r * stride, n * 4};
        cl_int err = CL_SUCCESS;
        cl_mem into = clCreateSubBuffer(results, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
        REQUIRE(err == CL_SUCCESS);
        setArg(copy, 0, scratch), setArg(copy, 1, into);
        for (int i = 0; i < 3; ++i)
            REQUIRE(clEnqueueNDRangeKernel(env.queue, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        // Nothing waited for: the launches may not have been made yet.
        clReleaseMemObject(into), clReleaseMemObject(scratch), clReleaseKernel(add);
    }
    clReleaseKernel(mark), clReleaseKernel(copy);
    const std::vector<cl_int> got = env.read<cl_int>(results, rounds * stride / 4);
    for (int r = 0; r < rounds; ++r) {
        INFO("round " << r);
        const auto from = got.begin() + r * stride / 4;
        CHECK(allEqual(std::vector<cl_int>(from, from + n), r * (r + 1) / 2));
    }
    clReleaseMemObject(results);
}
