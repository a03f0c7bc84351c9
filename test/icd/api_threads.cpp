// Thread safety: several host threads creating, using and releasing objects at once, sharing a
// context, a queue, a program or an object's reference count. Every thread checks its own results;
// failures are collected and asserted on the main thread (Catch2 assertions are not thread-safe).
#include "cl_test.hpp"

#include <CL/cl_icd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kThreads = 4;

// Records what went wrong in worker threads.
class Problems {
public:
    void add(const std::string& what) {
        std::lock_guard lock(mutex_);
        list_.push_back(what);
    }
    // True if `err` is CL_SUCCESS, else records it.
    bool ok(cl_int err, const char* what, int thread) {
        if (err == CL_SUCCESS) return true;
        add(std::string(what) + " failed with " + std::to_string(err) + " in thread " + std::to_string(thread));
        return false;
    }
    std::vector<std::string> list() {
        std::lock_guard lock(mutex_);
        return list_;
    }

private:
    std::mutex mutex_;
    std::vector<std::string> list_;
};

template <class F>
void runThreads(F body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) threads.emplace_back(body, t);
    for (auto& th : threads) th.join();
}

void requireNoProblems(Problems& problems) {
    for (const auto& p : problems.list()) FAIL_CHECK(p);
}

const char* kSource = "__kernel void fill(__global int* d, int v) { d[get_global_id(0)] = v + (int)get_global_id(0); }";

}  // namespace

TEST_CASE("api: threads create, use and release buffers in one context at once", "[api][threads]") {
    cltest::Env env;
    Problems problems;
    runThreads([&](int t) {
        cl_int err = CL_SUCCESS;
        cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
        if (!problems.ok(err, "clCreateCommandQueueWithProperties", t)) return;
        for (int i = 0; i < 40; ++i) {
            std::vector<cl_int> data(256);
            for (size_t k = 0; k < data.size(); ++k) data[k] = t * 100000 + i * 1000 + static_cast<cl_int>(k);
            cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int),
                                      data.data(), &err);
            if (!problems.ok(err, "clCreateBuffer", t)) break;
            cl_mem copy = clCreateBuffer(env.context, CL_MEM_READ_WRITE, data.size() * sizeof(cl_int), nullptr, &err);
            if (!problems.ok(err, "clCreateBuffer", t)) break;
            problems.ok(clEnqueueCopyBuffer(q, m, copy, 0, 0, data.size() * sizeof(cl_int), 0, nullptr, nullptr),
                        "clEnqueueCopyBuffer", t);
            std::vector<cl_int> back(data.size(), -1);
            problems.ok(clEnqueueReadBuffer(q, copy, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data(), 0, nullptr,
                                            nullptr),
                        "clEnqueueReadBuffer", t);
            if (back != data) problems.add("wrong contents in thread " + std::to_string(t));
            problems.ok(clReleaseMemObject(m), "clReleaseMemObject", t);
            problems.ok(clReleaseMemObject(copy), "clReleaseMemObject", t);
        }
        problems.ok(clReleaseCommandQueue(q), "clReleaseCommandQueue", t);
    });
    requireNoProblems(problems);
}

TEST_CASE("api: threads enqueue on one shared queue at once", "[api][threads]") {
    cltest::Env env;
    Problems problems;
    runThreads([&](int t) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), nullptr, &err);
        if (!problems.ok(err, "clCreateBuffer", t)) return;
        for (int i = 0; i < 40; ++i) {
            cl_int value = t * 1000 + i;
            problems.ok(clEnqueueFillBuffer(env.queue, m, &value, sizeof value, 0, 64 * sizeof(cl_int), 0, nullptr, nullptr),
                        "clEnqueueFillBuffer", t);
            cl_int patch = -value;
            cl_event written = nullptr;
            problems.ok(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 8 * sizeof(cl_int), sizeof patch, &patch, 0, nullptr,
                                             &written),
                        "clEnqueueWriteBuffer", t);
            std::vector<cl_int> back(64, 0);
            problems.ok(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data(), 1,
                                            &written, nullptr),
                        "clEnqueueReadBuffer", t);
            clReleaseEvent(written);
            std::vector<cl_int> expect(64, value);
            expect[8] = -value;
            if (back != expect) problems.add("wrong contents in thread " + std::to_string(t));
        }
        clReleaseMemObject(m);
    });
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    requireNoProblems(problems);
}

TEST_CASE("api: threads launch their own kernels of one shared program at once", "[api][threads]") {
    cltest::Env env;
    cl_program program = env.build(kSource);
    Problems problems;
    runThreads([&](int t) {
        cl_int err = CL_SUCCESS;
        // clSetKernelArg is not thread-safe for one kernel object: each thread has its own.
        cl_kernel k = clCreateKernel(program, "fill", &err);
        if (!problems.ok(err, "clCreateKernel", t)) return;
        cl_mem m = clCreateBuffer(env.context, CL_MEM_READ_WRITE, 128 * sizeof(cl_int), nullptr, &err);
        if (!problems.ok(err, "clCreateBuffer", t)) return;
        for (int i = 0; i < 20; ++i) {
            cl_int v = t * 10000 + i * 100;
            problems.ok(clSetKernelArg(k, 0, sizeof m, &m), "clSetKernelArg", t);
            problems.ok(clSetKernelArg(k, 1, sizeof v, &v), "clSetKernelArg", t);
            size_t global = 128;
            problems.ok(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
                        "clEnqueueNDRangeKernel", t);
            std::vector<cl_int> back(128, 0);
            problems.ok(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, back.size() * sizeof(cl_int), back.data(), 0, nullptr,
                                            nullptr),
                        "clEnqueueReadBuffer", t);
            for (int k2 = 0; k2 < 128; ++k2)
                if (back[k2] != v + k2) {
                    problems.add("wrong kernel result in thread " + std::to_string(t));
                    break;
                }
        }
        clReleaseMemObject(m);
        clReleaseKernel(k);
    });
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseProgram(program);
    requireNoProblems(problems);
}

TEST_CASE("api: concurrent retains and releases keep the count exact", "[api][threads]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    std::atomic<int> failures{0};
    runThreads([&](int) {
        for (int i = 0; i < 2000; ++i) {
            if (clRetainMemObject(m) != CL_SUCCESS) ++failures;
            if (clRetainContext(env.context) != CL_SUCCESS) ++failures;
            if (clReleaseContext(env.context) != CL_SUCCESS) ++failures;
            if (clReleaseMemObject(m) != CL_SUCCESS) ++failures;
        }
    });
    CHECK(failures == 0);
    cl_uint refs = 0;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 1);
    REQUIRE(clGetContextInfo(env.context, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs >= 2);  // the application's reference and the buffer's and queue's
    clReleaseMemObject(m);
}

TEST_CASE("api: threads create and destroy contexts with destructor callbacks at once", "[api][threads]") {
    std::atomic<int> destroyed{0};
    Problems problems;
    cl_device_id device = cltest::heteroDevice();
    runThreads([&](int t) {
        for (int i = 0; i < 10; ++i) {
            cl_int err = CL_SUCCESS;
            cl_context c = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
            if (!problems.ok(err, "clCreateContext", t)) return;
            problems.ok(clSetContextDestructorCallback(
                            c, [](cl_context, void* counter) { ++*static_cast<std::atomic<int>*>(counter); }, &destroyed),
                        "clSetContextDestructorCallback", t);
            cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 16, nullptr, &err);
            problems.ok(err, "clCreateBuffer", t);
            problems.ok(clReleaseContext(c), "clReleaseContext", t);
            if (m) problems.ok(clReleaseMemObject(m), "clReleaseMemObject", t);
        }
    });
    requireNoProblems(problems);
    CHECK(destroyed == kThreads * 10);
}

TEST_CASE("api: threads wait for user events another thread completes", "[api][threads]") {
    cltest::Env env;
    std::vector<cl_event> gates(kThreads);
    for (auto& g : gates) {
        cl_int err = CL_SUCCESS;
        g = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
    }
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, kThreads * sizeof(cl_int));
    Problems problems;
    std::vector<cl_int> seen(kThreads, 0);
    std::vector<std::thread> waiters;
    for (int t = 0; t < kThreads; ++t)
        waiters.emplace_back([&, t] {
            cl_int err = CL_SUCCESS;
            cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
            if (!problems.ok(err, "clCreateCommandQueueWithProperties", t)) return;
            cl_int value = 10 + t;
            // Each write waits for its own gate and for the gate of the thread after it.
            cl_event list[] = {gates[t], gates[(t + 1) % kThreads]};
            problems.ok(clEnqueueWriteBuffer(q, m, CL_FALSE, t * sizeof(cl_int), sizeof value, &value, 2, list, nullptr),
                        "clEnqueueWriteBuffer", t);
            problems.ok(clWaitForEvents(2, list), "clWaitForEvents", t);
            problems.ok(clEnqueueReadBuffer(q, m, CL_TRUE, t * sizeof(cl_int), sizeof(cl_int), &seen[t], 0, nullptr, nullptr),
                        "clEnqueueReadBuffer", t);
            clReleaseCommandQueue(q);
        });
    for (int t = kThreads - 1; t >= 0; --t) REQUIRE(clSetUserEventStatus(gates[t], CL_COMPLETE) == CL_SUCCESS);
    for (auto& w : waiters) w.join();
    requireNoProblems(problems);
    for (int t = 0; t < kThreads; ++t) CHECK(seen[t] == 10 + t);
    for (auto g : gates) clReleaseEvent(g);
    clReleaseMemObject(m);
}

TEST_CASE("api: user events completed by another thread while commands are being enqueued", "[api][threads]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    // Each round races the completion of the gate against the enqueue of the commands it gates.
    for (int round = 0; round < 200; ++round) {
        cl_int err = CL_SUCCESS;
        cl_event gate = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
        std::thread opener([gate] { clSetUserEventStatus(gate, CL_COMPLETE); });
        cl_int value = round, back = -1;
        cl_event read = nullptr;
        REQUIRE(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof value, &value, 1, &gate, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(env.queue, m, CL_FALSE, 0, sizeof back, &back, 0, nullptr, &read) == CL_SUCCESS);
        opener.join();
        // Polled with a bound: a lost wake-up in the submission machinery shows as a failure, not a hang.
        cl_int status = CL_QUEUED;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (status > CL_COMPLETE && std::chrono::steady_clock::now() < deadline) {
            REQUIRE(clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
            if (status > CL_COMPLETE) std::this_thread::yield();
        }
        REQUIRE(status == CL_COMPLETE);
        CHECK(back == round);
        clReleaseEvent(read);
        clReleaseEvent(gate);
    }
    clReleaseMemObject(m);
}

TEST_CASE("api: threads map, write and unmap their own parts of one buffer on one queue", "[api][threads]") {
    cltest::Env env;
    const size_t part = 256;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, kThreads * part * sizeof(cl_int));
    cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &zero, sizeof zero, 0, kThreads * part * sizeof(cl_int), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    Problems problems;
    runThreads([&](int t) {
        for (int i = 1; i <= 25; ++i) {
            cl_int err = CL_SUCCESS;
            auto* p = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                              t * part * sizeof(cl_int), part * sizeof(cl_int), 0, nullptr,
                                                              nullptr, &err));
            if (!problems.ok(err, "clEnqueueMapBuffer", t)) return;
            if (p[0] != (i - 1) * (t + 1)) problems.add("map showed a stale value in thread " + std::to_string(t));
            for (size_t k = 0; k < part; ++k) p[k] = i * (t + 1);
            problems.ok(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr), "clEnqueueUnmapMemObject", t);
        }
    });
    requireNoProblems(problems);
    auto back = env.read<cl_int>(m, kThreads * part);
    for (int t = 0; t < kThreads; ++t) {
        INFO("thread " << t);
        CHECK(back[t * part] == 25 * (t + 1));
        CHECK(back[(t + 1) * part - 1] == 25 * (t + 1));
    }
    cl_uint maps = 1;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr) == CL_SUCCESS);
    CHECK(maps == 0);
    clReleaseMemObject(m);
}

TEST_CASE("api: threads create and release kernels of one program at once", "[api][threads]") {
    cltest::Env env;
    cl_program program = env.build(kSource);
    Problems problems;
    runThreads([&](int t) {
        for (int i = 0; i < 50; ++i) {
            cl_int err = CL_SUCCESS;
            cl_kernel k = clCreateKernel(program, "fill", &err);
            if (!problems.ok(err, "clCreateKernel", t)) return;
            cl_kernel clone = clCloneKernel(k, &err);
            problems.ok(err, "clCloneKernel", t);
            problems.ok(clReleaseKernel(k), "clReleaseKernel", t);
            if (clone) problems.ok(clReleaseKernel(clone), "clReleaseKernel", t);
        }
    });
    requireNoProblems(problems);
    // Every kernel is gone again, so the program may be rebuilt.
    CHECK(clBuildProgram(program, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_uint refs = 0;
    REQUIRE(clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 1);
    clReleaseProgram(program);
}

// A call on a handle the application has released, while a command still holds the object and then
// drops the last reference on another thread: the call either finds the handle invalid or holds the
// object until it returns (platform/support/object.hpp, fromHandle). Run by icd.released-handle-race
// with HETERO_TEST_MEM_LOOKUP_DELAY_MS, which keeps every call on a buffer between its lookup and
// its use of the buffer for that long: the read below completes and drops its reference meanwhile.
// Without the hold the call registers its destructor callback on a deleted buffer (ASan: a use after
// free), and the callback never runs.
TEST_CASE("api: a call on a released buffer holds it while its last command completes", "[.handle-race]") {
    cltest::Env env;
    // Calls with a released handle go through Hetero's own dispatch table: the loader would read
    // the handle's first word, which is the application's mistake, not Hetero's.
    const cl_icd_dispatch* hetero = *reinterpret_cast<const cl_icd_dispatch* const*>(env.platform);
    auto countCall = [](cl_mem, void* counter) { ++*static_cast<std::atomic<int>*>(counter); };
    for (int round = 0; round < 3; ++round) {
        cl_int err = CL_SUCCESS;
        cl_event gate = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
        cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
        std::atomic<int> first{0}, second{0};
        REQUIRE(clSetMemObjectDestructorCallback(m, countCall, &first) == CL_SUCCESS);
        int host[16];
        // The read holds the buffer until it has run, which waits for the gate.
        REQUIRE(clEnqueueReadBuffer(env.queue, m, CL_FALSE, 0, sizeof host, host, 1, &gate, nullptr) == CL_SUCCESS);
        REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
        cl_int result = CL_SUCCESS;
        std::thread caller([&] { result = hetero->clSetMemObjectDestructorCallback(m, countCall, &second); });
        // Not an assertion's timing: only whether the caller is inside its call (the lookup delay)
        // when the read completes, which the test is about.
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        caller.join();
        clReleaseEvent(gate);
        // The buffer goes once both the read and the call let go of it (bounded: what never comes is a leak).
        for (int i = 0; i < 3000 && first.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        INFO("round " << round << ", the call returned " << result);
        CHECK(first == 1);
        if (result == CL_SUCCESS) CHECK(second == 1);  // registered on the live buffer: it ran when the buffer went
        else CHECK((result == CL_INVALID_MEM_OBJECT && second == 0));
    }
}

// Threads query a user event while the application releases it: each query answers from the live
// event or fails with CL_INVALID_EVENT (always, once clReleaseEvent has returned), and the queries
// go on until one fails, so that some are in flight as the event goes (a real race, which the
// sanitizer builds check: etc/sanitize.sh). Run by icd.released-handle-race only (it takes a few
// hundred ms, each configuration would add them); the knob there delays buffers only.
TEST_CASE("api: queries of an event race with its release", "[.handle-race]") {
    cltest::Env env;
    const cl_icd_dispatch* hetero = *reinterpret_cast<const cl_icd_dispatch* const*>(env.platform);
    Problems problems;
    for (int round = 0; round < 100; ++round) {
        cl_int err = CL_SUCCESS;
        cl_event event = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
        std::atomic<int> querying{0};
        std::atomic<bool> released{false};
        runThreads([&](int t) {
            if (t == 0) {
                while (querying.load() < kThreads - 1) std::this_thread::yield();  // all of them at it
                problems.ok(clReleaseEvent(event), "clReleaseEvent", t);
                released = true;
                return;
            }
            ++querying;
            for (;;) {
                const bool after = released.load();
                cl_context c = nullptr;
                cl_int e = hetero->clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof c, &c, nullptr);
                if (e == CL_INVALID_EVENT) return;
                if (e != CL_SUCCESS) problems.add("a query failed with " + std::to_string(e));
                else if (c != env.context) problems.add("a query answered another context");
                if (after) {
                    problems.add("a query after clReleaseEvent returned still found the event");
                    return;
                }
            }
        });
    }
    requireNoProblems(problems);
}
