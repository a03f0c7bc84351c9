// Launches that Hetero enqueues without a backend event of their own (platform/engine/deferred_event.hpp):
// their events must still tell the truth when asked in any order, from any queue or thread, and
// the memory they wrote must be waited for wherever it is used next. In discrete memory (the
// one-slot-discrete, two-slots and split configurations, and the GPU machine) most whole launches
// run that way.
#include "cl_test.hpp"

#include <atomic>
#include <thread>

using cltest::Env;
using cltest::setArg;

namespace {
const char* kAdd = R"(
    __kernel void add(__global int* v, int by) { v[get_global_id(0)] += by; }
    __kernel void copy(__global const int* from, __global int* to) { to[get_global_id(0)] = from[get_global_id(0)]; })";

// A zeroed buffer of `n` ints and kernel `add` on it, adding `by` to every element.
struct Adder {
    cl_mem buf;
    cl_program program;
    cl_kernel add;
    Adder(Env& env, size_t n, cl_int by) {
        std::vector<cl_int> zeros(n, 0);
        buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), zeros.data());
        program = env.build(kAdd);
        add = env.kernel(program, "add");
        setArg(add, 0, buf), setArg(add, 1, by);
    }
    ~Adder() { clReleaseKernel(add), clReleaseProgram(program), clReleaseMemObject(buf); }
};

void CL_CALLBACK countCompletion(cl_event, cl_int status, void* counter) {
    if (status == CL_COMPLETE) static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}
}  // namespace

TEST_CASE("events of launches in a long run are right when asked out of order", "[programs][events][deferred]") {
    Env env;
    const size_t n = 1024;
    const int launches = 300;
    Adder adder(env, n, 1);
    cl_kernel add = adder.add;
    cl_event middle = nullptr, late = nullptr, last = nullptr;
    for (int i = 0; i < launches; ++i) {
        cl_event* out = i == 100 ? &middle : i == 250 ? &late : i == launches - 1 ? &last : nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, out) == CL_SUCCESS);
    }
    std::atomic<int> completions{0};
    REQUIRE(clSetEventCallback(late, CL_COMPLETE, countCompletion, &completions) == CL_SUCCESS);
    // The middle one first: complete once waited for, and the later ones never before it.
    REQUIRE(clWaitForEvents(1, &middle) == CL_SUCCESS);
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(middle, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    REQUIRE(clWaitForEvents(1, &last) == CL_SUCCESS);
    REQUIRE(clGetEventInfo(late, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);  // ahead of `last` in an in-order queue
    auto out = env.read<cl_int>(adder.buf, n);
    CHECK(out[0] == launches);
    CHECK(out[n - 1] == launches);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (int i = 0; i < 500 && completions.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    CHECK(completions.load() == 1);
    clReleaseEvent(middle), clReleaseEvent(late), clReleaseEvent(last);
}

TEST_CASE("launches without events on one queue feed a launch on another queue through an event",
          "[programs][events][deferred]") {
    Env env;
    cl_int err;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t n = 4096;
    std::vector<cl_int> zeros(n, 0);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, n * 4);
    cl_program p = env.build(kAdd);
    cl_kernel add = env.kernel(p, "add"), copy = env.kernel(p, "copy");
    setArg(add, 0, a), setArg(add, 1, cl_int(2));
    setArg(copy, 0, a), setArg(copy, 1, b);
    cl_event done = nullptr, copied = nullptr;
    for (int i = 0; i < 199; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, i == 198 ? &done : nullptr) ==
                CL_SUCCESS);
    // A marker on a third queue waits for the last launch through its event alone (no memory in
    // common orders it): once the marker is complete, so is the launch.
    cl_command_queue third = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event gate = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(third, 1, &done, &gate) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &gate) == CL_SUCCESS);
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(gate);
    clReleaseCommandQueue(third);
    REQUIRE(clEnqueueNDRangeKernel(other, copy, 1, nullptr, &n, nullptr, 1, &done, &copied) == CL_SUCCESS);
    // More launches on the first queue meanwhile must not reach the copy.
    for (int i = 0; i < 50; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 1, &copied, nullptr) == CL_SUCCESS);
    std::vector<cl_int> fromB(n), fromA(n);
    REQUIRE(clEnqueueReadBuffer(other, b, CL_TRUE, 0, n * 4, fromB.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, n * 4, fromA.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(fromB[0] == 2 * 199);
    CHECK(fromB[n - 1] == 2 * 199);
    CHECK(fromA[0] == 2 * 249);
    CHECK(fromA[n - 1] == 2 * 249);
    clReleaseEvent(done), clReleaseEvent(copied);
    clReleaseKernel(add), clReleaseKernel(copy), clReleaseProgram(p), clReleaseMemObject(a), clReleaseMemObject(b);
    clReleaseCommandQueue(other);
}

TEST_CASE("a buffer written by a released queue's launches is read through another queue", "[programs][deferred]") {
    Env env;
    cl_int err;
    cl_command_queue writer = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t n = 512;
    Adder adder(env, n, 3);
    cl_kernel add = adder.add;
    for (int i = 0; i < 100; ++i)
        REQUIRE(clEnqueueNDRangeKernel(writer, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(writer) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(writer) == CL_SUCCESS);
    // The writer's queue is gone; the buffer still knows what it waited for.
    REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto out = env.read<cl_int>(adder.buf, n);
    CHECK(out[0] == 303);
    CHECK(out[n - 1] == 303);
}

TEST_CASE("threads wait for and query the events of one queue's launches at once", "[programs][events][deferred][threads]") {
    Env env;
    const size_t n = 256;
    const int launches = 400;
    Adder adder(env, n, 1);
    cl_kernel add = adder.add;
    std::vector<cl_event> events(launches, nullptr);
    for (int i = 0; i < launches; ++i)
        REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, i % 7 == 0 ? &events[i] : nullptr) ==
                CL_SUCCESS);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            // Each thread walks the events in its own order, waiting on some and polling others.
            for (int k = 0; k < launches; ++k) {
                int i = (t % 2 == 0) ? k : launches - 1 - k;
                if (!events[i]) continue;
                cl_int status = CL_QUEUED;
                if ((i + t) % 3 == 0 && clWaitForEvents(1, &events[i]) != CL_SUCCESS) failures.fetch_add(1);
                if (clGetEventInfo(events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) !=
                        CL_SUCCESS ||
                    status < CL_COMPLETE)
                    failures.fetch_add(1);
            }
        });
    for (auto& t : threads) t.join();
    CHECK(failures.load() == 0);
    auto out = env.read<cl_int>(adder.buf, n);
    CHECK(out[0] == launches);
    for (cl_event e : events) {
        if (!e) continue;
        cl_int status = CL_QUEUED;
        REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        CHECK(status == CL_COMPLETE);
        clReleaseEvent(e);
    }
}
