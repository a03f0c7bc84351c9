// Ordering through events: chains across two queues, user events gating work, many host threads.
#include "cl_test.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using cltest::Env;
using cltest::setArg;

namespace {
const char* kOps = R"(
    __kernel void add(__global int* v, int by) { v[get_global_id(0)] += by; }
    __kernel void scale(__global int* v, int by) { v[get_global_id(0)] *= by; })";
}

TEST_CASE("event chain across two queues orders the work", "[programs][events]") {
    Env env;
    cl_int err;
    cl_command_queue q2 = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t n = 2048;
    std::vector<cl_int> ones(n, 1);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, ones.data());
    cl_program p = env.build(kOps);
    cl_kernel add = env.kernel(p, "add"), scale = env.kernel(p, "scale");
    setArg(add, 0, buf), setArg(add, 1, cl_int(3));
    setArg(scale, 0, buf), setArg(scale, 1, cl_int(5));
    // ((1 + 3) * 5 + 3) * 5 = 115: alternating queues, each step waiting for the previous event.
    cl_event e1, e2, e3, e4;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 0, nullptr, &e1) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q2, scale, 1, nullptr, &n, nullptr, 1, &e1, &e2) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 1, &e2, &e3) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q2, scale, 1, nullptr, &n, nullptr, 1, &e3, &e4) == CL_SUCCESS);
    std::vector<cl_int> out(n);
    REQUIRE(clEnqueueReadBuffer(env.queue, buf, CL_TRUE, 0, n * 4, out.data(), 1, &e4, nullptr) == CL_SUCCESS);
    for (auto v : out) REQUIRE(v == 115);
    cl_int status;
    for (cl_event e : {e1, e2, e3, e4}) {
        REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        REQUIRE(status == CL_COMPLETE);
        clReleaseEvent(e);
    }
    clReleaseKernel(add), clReleaseKernel(scale), clReleaseProgram(p), clReleaseMemObject(buf);
    clReleaseCommandQueue(q2);
}

TEST_CASE("a user event holds back dependent work until it is set", "[programs][events]") {
    Env env;
    const size_t n = 256;
    std::vector<cl_int> zeros(n, 0);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_program p = env.build(kOps);
    cl_kernel add = env.kernel(p, "add");
    setArg(add, 0, buf), setArg(add, 1, cl_int(9));
    cl_int err;
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event launched, readDone;
    std::vector<cl_int> out(n, -1);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, add, 1, nullptr, &n, nullptr, 1, &gate, &launched) == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(env.queue, buf, CL_FALSE, 0, n * 4, out.data(), 0, nullptr, &readDone) == CL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cl_int status;
    REQUIRE(clGetEventInfo(readDone, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    REQUIRE(status > CL_COMPLETE);  // still waiting behind the gate
    REQUIRE(out[0] == -1);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &readDone) == CL_SUCCESS);
    for (auto v : out) REQUIRE(v == 9);
    clReleaseEvent(gate), clReleaseEvent(launched), clReleaseEvent(readDone);
    clReleaseKernel(add), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("several host threads enqueue on their own queues at once", "[programs][events][threads]") {
    Env env;
    cl_program p = env.build(kOps);
    const int threads = 4, rounds = 20;
    const size_t n = 1024;
    std::atomic<int> failures{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            cl_int err;
            cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
            cl_kernel k = clCreateKernel(p, "add", &err);
            std::vector<cl_int> init(n, t);
            cl_mem buf = clCreateBuffer(env.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, init.data(), &err);
            cl_int by = t + 1;
            clSetKernelArg(k, 0, sizeof buf, &buf);
            clSetKernelArg(k, 1, sizeof by, &by);
            for (int r = 0; r < rounds; ++r)
                if (clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) != CL_SUCCESS) ++failures;
            std::vector<cl_int> out(n);
            if (clEnqueueReadBuffer(q, buf, CL_TRUE, 0, n * 4, out.data(), 0, nullptr, nullptr) != CL_SUCCESS) ++failures;
            for (auto v : out)
                if (v != t + rounds * (t + 1)) ++failures;
            clReleaseMemObject(buf), clReleaseKernel(k), clReleaseCommandQueue(q);
        });
    }
    for (auto& th : pool) th.join();
    REQUIRE(failures == 0);
    clReleaseProgram(p);
}

TEST_CASE("out-of-order queue with a barrier", "[programs][events]") {
    Env env(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    const size_t n = 512;
    std::vector<cl_int> zeros(n, 0);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_mem b = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
    cl_program p = env.build(kOps);
    cl_kernel ka = env.kernel(p, "add"), kb = env.kernel(p, "add"), ks = env.kernel(p, "scale");
    setArg(ka, 0, a), setArg(ka, 1, cl_int(2));
    setArg(kb, 0, b), setArg(kb, 1, cl_int(3));
    setArg(ks, 0, a), setArg(ks, 1, cl_int(10));
    REQUIRE(clEnqueueNDRangeKernel(env.queue, ka, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, kb, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueBarrierWithWaitList(env.queue, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_event scaled;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, ks, 1, nullptr, &n, nullptr, 0, nullptr, &scaled) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    auto va = env.read<cl_int>(a, n);
    auto vb = env.read<cl_int>(b, n);
    for (size_t i = 0; i < n; ++i) REQUIRE((va[i] == 20 && vb[i] == 3));
    cl_ulong queued = 0, submit = 0, start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(scaled, CL_PROFILING_COMMAND_QUEUED, 8, &queued, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(scaled, CL_PROFILING_COMMAND_SUBMIT, 8, &submit, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(scaled, CL_PROFILING_COMMAND_START, 8, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(scaled, CL_PROFILING_COMMAND_END, 8, &end, nullptr) == CL_SUCCESS);
    REQUIRE(queued <= submit);
    REQUIRE(submit <= start);
    REQUIRE(start <= end);
    clReleaseEvent(scaled);
    clReleaseKernel(ka), clReleaseKernel(kb), clReleaseKernel(ks), clReleaseProgram(p);
    clReleaseMemObject(a), clReleaseMemObject(b);
}

namespace {
void CL_CALLBACK releaseInCallback(cl_event e, cl_int status, void* count) {
    if (status == CL_COMPLETE) static_cast<std::atomic<int>*>(count)->fetch_add(1);
    clReleaseEvent(e);  // the last reference to everything: the queue and context go on this thread
}
}  // namespace

TEST_CASE("a context and queue released while their launch runs go when its callback lets go",
          "[programs][events]") {
    // The launch's completion, heard on a backend's callback thread, drops the last references to
    // the queue and the context there, where blocking backend calls are undefined. One round at a
    // time: contexts alive at once build the split variants each with a kernel hash of their own
    // on a PoCL device (devices/distinct_build.hpp), each a compile of its own.
    cl_platform_id platform = cltest::heteroPlatform();
    cl_device_id device = cltest::heteroDevice();
    (void)platform;
    const char* source = "__kernel void k(__global int* a) { for (int i = 0; i < 2000; ++i) a[get_global_id(0)] += i; }";
    const int rounds = 8;
    std::atomic<int> completed{0};
    for (int r = 0; r < rounds; ++r) {
        cl_int err = CL_SUCCESS;
        cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
        cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
        REQUIRE(clBuildProgram(program, 1, &device, "", nullptr, nullptr) == CL_SUCCESS);
        cl_kernel kernel = clCreateKernel(program, "k", &err);
        cl_mem buf = clCreateBuffer(context, CL_MEM_READ_WRITE, 4096 * sizeof(cl_int), nullptr, &err);
        setArg(kernel, 0, buf);
        size_t n = 4096;
        cl_event done = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, &done) == CL_SUCCESS);
        REQUIRE(clSetEventCallback(done, CL_COMPLETE, releaseInCallback, &completed) == CL_SUCCESS);
        clReleaseKernel(kernel), clReleaseProgram(program), clReleaseMemObject(buf);
        clReleaseCommandQueue(queue), clReleaseContext(context);
        for (int i = 0; i < 3000 && completed.load() <= r; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        REQUIRE(completed.load() == r + 1);
    }
}

namespace {
// What a callback enqueues onto the queue of the event it was called for, and what it was answered.
struct EnqueueFromCallback {
    cl_command_queue queue = nullptr;
    bool outOfOrder = false;
    cl_kernel kernel = nullptr;
    cl_int launchErr = CL_INVALID_VALUE, markerErr = CL_INVALID_VALUE;
    cl_event launched = nullptr, marked = nullptr;
    std::mutex mutex;
    std::condition_variable changed;
    bool called = false;
};

void CL_CALLBACK enqueueFromCallback(cl_event e, cl_int, void* data) {
    auto* c = static_cast<EnqueueFromCallback*>(data);
    const size_t n = 256;
    // A launch, then a command only the ordinary way takes. In order, the launch without a wait
    // list tries the direct way first (Queue::Direct); out of order it must wait for `e`.
    const cl_uint waits = c->outOfOrder ? 1 : 0;
    cl_int launchErr = clEnqueueNDRangeKernel(c->queue, c->kernel, 1, nullptr, &n, nullptr, waits, waits ? &e : nullptr,
                                              &c->launched);
    cl_int markerErr = clEnqueueMarkerWithWaitList(c->queue, 1, &c->launched, &c->marked);
    std::lock_guard lock(c->mutex);
    c->launchErr = launchErr;
    c->markerErr = markerErr;
    c->called = true;
    c->changed.notify_all();
}
}  // namespace

// The thread that submits a queue's commands runs their callbacks, with the queue's submission lock
// held: one that enqueues onto that same queue must neither try that lock again (undefined for a
// std::mutex its thread owns) nor leave its commands unsubmitted once it returns.
TEST_CASE("a callback enqueues onto the queue whose deferred submission runs it", "[programs][events]") {
    for (cl_command_queue_properties props : {cl_command_queue_properties(0),
                                              cl_command_queue_properties(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)}) {
        INFO("queue properties " << props);
        Env env(props);
        const size_t n = 256;
        std::vector<cl_int> zeros(n, 0);
        cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, zeros.data());
        cl_program p = env.build(kOps);
        cl_kernel addOne = env.kernel(p, "add"), addTen = env.kernel(p, "add");
        setArg(addOne, 0, buf), setArg(addOne, 1, cl_int(1));
        setArg(addTen, 0, buf), setArg(addTen, 1, cl_int(10));
        cl_int err;
        cl_event gate = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
        // Waits for the gate: submitted later, by the scheduler thread, which runs the callback
        // for its submission while it submits for this queue.
        cl_event first = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, addOne, 1, nullptr, &n, nullptr, 1, &gate, &first) == CL_SUCCESS);
        EnqueueFromCallback fromCallback;
        fromCallback.queue = env.queue;
        fromCallback.outOfOrder = props != 0;
        fromCallback.kernel = addTen;
        REQUIRE(clSetEventCallback(first, CL_SUBMITTED, enqueueFromCallback, &fromCallback) == CL_SUCCESS);
        REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
        {
            std::unique_lock lock(fromCallback.mutex);
            fromCallback.changed.wait(lock, [&] { return fromCallback.called; });
        }
        REQUIRE(fromCallback.launchErr == CL_SUCCESS);
        REQUIRE(fromCallback.markerErr == CL_SUCCESS);
        // Nothing is enqueued on the queue after them: they run only if the thread that ran the
        // callback, or the scheduler it left them to, submits them.
        REQUIRE(clWaitForEvents(1, &fromCallback.marked) == CL_SUCCESS);
        for (cl_event e : {first, fromCallback.launched, fromCallback.marked}) {
            cl_int status = CL_QUEUED;
            REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
            CHECK(status == CL_COMPLETE);
        }
        for (auto v : env.read<cl_int>(buf, n)) REQUIRE(v == 11);
        clReleaseEvent(gate), clReleaseEvent(first), clReleaseEvent(fromCallback.launched), clReleaseEvent(fromCallback.marked);
        clReleaseKernel(addOne), clReleaseKernel(addTen), clReleaseProgram(p), clReleaseMemObject(buf);
    }
}

// A thread submitting for a queue looks at it a last time, then gives its turn up; a command another
// thread enqueues in between, when that thread finds the turn taken, is left to it (and the
// scheduler drops the queue for the same reason): it must look again. Run by icd.submit-turn-end
// with HETERO_TEST_SUBMIT_END_DELAY_MS, which keeps every submitting thread that long between its
// last look and the end of its turn.
TEST_CASE("a command enqueued while another thread ends its turn to submit is submitted", "[.submit-turn-end]") {
    Env env;
    const size_t n = 64;
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * 4);
    const cl_int zero = 0, seven = 7;
    // The ordinary way (no launch: a launch may go the direct way, which never waits at the end).
    cl_event zeroed = nullptr, sevened = nullptr;
    cl_int err = CL_INVALID_VALUE;
    std::thread submitter([&] {
        err = clEnqueueFillBuffer(env.queue, buf, &zero, sizeof zero, 0, n * 4, 0, nullptr, &zeroed);
    });
    // Not an assertion's timing: only whether the submitter is between its last look and the end
    // of its turn (the delay) when this enqueue comes, which the test is about.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE(clEnqueueFillBuffer(env.queue, buf, &seven, sizeof seven, 0, n * 4, 0, nullptr, &sevened) == CL_SUCCESS);
    submitter.join();
    REQUIRE(err == CL_SUCCESS);
    // Nothing more is enqueued until it completes: an enqueue would submit it (bounded: what never
    // comes is a lost submission).
    cl_int status = CL_QUEUED;
    for (int i = 0; i < 3000 && status != CL_COMPLETE && status >= 0; ++i) {
        REQUIRE(clGetEventInfo(sevened, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        if (status != CL_COMPLETE) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(status == CL_COMPLETE);
    for (auto v : env.read<cl_int>(buf, n)) REQUIRE(v == 7);
    clReleaseEvent(zeroed), clReleaseEvent(sevened), clReleaseMemObject(buf);
}
