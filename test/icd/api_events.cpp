// Events: user events, status and error propagation, callbacks, profiling, wait lists within and
// across queues, out-of-order queues, markers and barriers.
#include "cl_test.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

cl_int statusOf(cl_event e) {
    cl_int s = 1234;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
    return s;
}

// Polls until the event's status is final; a hang becomes a failure after a generous bound
// (this bounds a wait, it asserts nothing about speed).
cl_int awaitFinal(cl_event e) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (;;) {
        cl_int s = statusOf(e);
        if (s <= CL_COMPLETE) return s;
        if (std::chrono::steady_clock::now() > deadline) {
            FAIL("event never completed (status " << s << ")");
            return s;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

cl_event userEvent(cl_context c) {
    cl_int err = CL_INVALID_VALUE;
    cl_event e = clCreateUserEvent(c, &err);
    REQUIRE(err == CL_SUCCESS);
    return e;
}

cl_command_queue makeQueue(cltest::Env& env, cl_command_queue_properties props) {
    cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, qp, &err);
    REQUIRE(err == CL_SUCCESS);
    return q;
}

// Collects callback invocations from any thread.
struct CallbackLog {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::pair<cl_int, cl_int>> calls;  // (registered type, status passed)

    void add(cl_int type, cl_int status) {
        std::lock_guard lock(mutex);
        calls.emplace_back(type, status);
        changed.notify_all();
    }
    // Waits until `n` calls arrived (bounded, see awaitFinal); returns a copy.
    std::vector<std::pair<cl_int, cl_int>> awaitCalls(size_t n) {
        std::unique_lock lock(mutex);
        changed.wait_for(lock, std::chrono::seconds(120), [&] { return calls.size() >= n; });
        return calls;
    }
};

struct Registration {
    CallbackLog* log;
    cl_int type;
};

void CL_CALLBACK logCallback(cl_event, cl_int status, void* data) {
    auto* r = static_cast<Registration*>(data);
    r->log->add(r->type, status);
}

}  // namespace

TEST_CASE("api: user event info and status rules", "[api][event]") {
    cltest::Env env;
    cl_event e = userEvent(env.context);
    CHECK(statusOf(e) == CL_SUBMITTED);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_USER);
    cl_command_queue q = env.queue;
    REQUIRE(clGetEventInfo(e, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS);
    CHECK(q == nullptr);
    cl_context c = nullptr;
    REQUIRE(clGetEventInfo(e, CL_EVENT_CONTEXT, sizeof c, &c, nullptr) == CL_SUCCESS);
    CHECK(c == env.context);
    cl_uint refs = 0;
    REQUIRE(clRetainEvent(e) == CL_SUCCESS);
    REQUIRE(clGetEventInfo(e, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 2);
    REQUIRE(clReleaseEvent(e) == CL_SUCCESS);
    CHECK(clGetEventInfo(e, 0x7777, sizeof refs, &refs, nullptr) == CL_INVALID_VALUE);

    cl_ulong t = 0;
    CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED, sizeof t, &t, nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);
    // A user event starts CL_SUBMITTED: a callback for that status runs at once.
    CallbackLog log;
    Registration submitted{&log, CL_SUBMITTED}, running{&log, CL_RUNNING};
    REQUIRE(clSetEventCallback(e, CL_SUBMITTED, logCallback, &submitted) == CL_SUCCESS);
    auto calls = log.awaitCalls(1);
    REQUIRE(calls.size() == 1);
    CHECK(calls[0].second == CL_SUBMITTED);
    REQUIRE(clSetEventCallback(e, CL_RUNNING, logCallback, &running) == CL_SUCCESS);
    CHECK(clSetUserEventStatus(e, CL_RUNNING) == CL_INVALID_VALUE);
    CHECK(clSetUserEventStatus(e, CL_SUBMITTED) == CL_INVALID_VALUE);
    REQUIRE(clSetUserEventStatus(e, CL_COMPLETE) == CL_SUCCESS);
    CHECK(statusOf(e) == CL_COMPLETE);
    calls = log.awaitCalls(2);  // passing CL_RUNNING on the way to CL_COMPLETE
    REQUIRE(calls.size() == 2);
    CHECK(calls[1] == std::make_pair(cl_int{CL_RUNNING}, cl_int{CL_RUNNING}));
    CHECK(clSetUserEventStatus(e, CL_COMPLETE) == CL_INVALID_OPERATION);  // may be set only once
    CHECK(clWaitForEvents(1, &e) == CL_SUCCESS);
    clReleaseEvent(e);

    // Only user events take a status from the application.
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &marker) == CL_SUCCESS);
    CHECK(clSetUserEventStatus(marker, CL_COMPLETE) == CL_INVALID_EVENT);
    REQUIRE(clWaitForEvents(1, &marker) == CL_SUCCESS);
    clReleaseEvent(marker);
}

TEST_CASE("api: a failed user event fails the commands waiting for it", "[api][event]") {
    cltest::Env env;
    cl_event gate = userEvent(env.context);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 16);
    cl_int value = 3;
    cl_event write = nullptr, after = nullptr;
    REQUIRE(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, sizeof value, &value, 1, &gate, &write) == CL_SUCCESS);
    // In order after the failing write: whether the failure reaches it is the implementation's
    // choice, but it must reach a final status.
    REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &after) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, -1234) == CL_SUCCESS);
    CHECK(statusOf(gate) == -1234);

    CHECK(clWaitForEvents(1, &write) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(awaitFinal(write) < 0);
    CHECK(awaitFinal(after) <= CL_COMPLETE);
    CHECK(clWaitForEvents(1, &gate) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);

    // A blocking command whose wait list failed returns the error as well.
    cl_int back = 0;
    CHECK(clEnqueueReadBuffer(env.queue, m, CL_TRUE, 0, sizeof back, &back, 1, &gate, nullptr) ==
          CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    clReleaseEvent(write);
    clReleaseEvent(after);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

TEST_CASE("api: callbacks for submitted, running and complete are each called once", "[api][event]") {
    cltest::Env env;
    cl_event gate = userEvent(env.context);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int pattern = 1;
    cl_event fill = nullptr;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &pattern, sizeof pattern, 0, 64, 1, &gate, &fill) == CL_SUCCESS);
    CallbackLog log;
    Registration submitted{&log, CL_SUBMITTED}, running{&log, CL_RUNNING}, complete{&log, CL_COMPLETE};
    REQUIRE(clSetEventCallback(fill, CL_COMPLETE, logCallback, &complete) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(fill, CL_RUNNING, logCallback, &running) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(fill, CL_SUBMITTED, logCallback, &submitted) == CL_SUCCESS);
    CHECK(clSetEventCallback(fill, CL_QUEUED, logCallback, &submitted) == CL_INVALID_VALUE);
    CHECK(clSetEventCallback(fill, CL_COMPLETE, nullptr, nullptr) == CL_INVALID_VALUE);

    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &fill) == CL_SUCCESS);
    auto calls = log.awaitCalls(3);
    REQUIRE(calls.size() == 3);
    for (auto [type, status] : calls) CHECK(type == status);
    auto count = [&](cl_int t) {
        size_t n = 0;
        for (auto c : calls) n += c.first == t;
        return n;
    };
    CHECK(count(CL_SUBMITTED) == 1);
    CHECK(count(CL_RUNNING) == 1);
    CHECK(count(CL_COMPLETE) == 1);

    // Registered after the fact: called anyway, with the status reached.
    CallbackLog late;
    Registration lateComplete{&late, CL_COMPLETE};
    REQUIRE(clSetEventCallback(fill, CL_COMPLETE, logCallback, &lateComplete) == CL_SUCCESS);
    auto lateCalls = late.awaitCalls(1);
    REQUIRE(lateCalls.size() == 1);
    CHECK(lateCalls[0].second == CL_COMPLETE);
    clReleaseEvent(fill);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

TEST_CASE("api: commands done on the host still call their submitted and running callbacks, in order", "[api][event]") {
    // Reads, writes, maps and unmaps may be done by Hetero itself (on its host copy) and go from
    // queued straight to complete: every status a callback waits for is still passed through.
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    std::vector<cl_int> host(16, 5);
    REQUIRE(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    cl_event gate = userEvent(env.context);
    cl_int err = CL_SUCCESS;
    std::vector<cl_event> events(4, nullptr);
    void* mapped = clEnqueueMapBuffer(env.queue, m, CL_FALSE, CL_MAP_READ, 0, 64, 1, &gate, &events[0], &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clEnqueueReadBuffer(env.queue, m, CL_FALSE, 0, 64, host.data(), 0, nullptr, &events[1]) == CL_SUCCESS);
    REQUIRE(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, 64, host.data(), 0, nullptr, &events[2]) == CL_SUCCESS);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, mapped, 0, nullptr, &events[3]) == CL_SUCCESS);
    std::vector<CallbackLog> logs(events.size());
    std::vector<Registration> registrations;
    registrations.reserve(3 * events.size());
    for (size_t i = 0; i < events.size(); ++i)
        for (cl_int type : {CL_COMPLETE, CL_RUNNING, CL_SUBMITTED}) {
            registrations.push_back({&logs[i], type});
            REQUIRE(clSetEventCallback(events[i], type, logCallback, &registrations.back()) == CL_SUCCESS);
        }
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (size_t i = 0; i < events.size(); ++i) {
        INFO("command " << i);
        auto calls = logs[i].awaitCalls(3);
        REQUIRE(calls.size() == 3);
        CHECK(calls[0] == std::make_pair(cl_int{CL_SUBMITTED}, cl_int{CL_SUBMITTED}));
        CHECK(calls[1] == std::make_pair(cl_int{CL_RUNNING}, cl_int{CL_RUNNING}));
        CHECK(calls[2] == std::make_pair(cl_int{CL_COMPLETE}, cl_int{CL_COMPLETE}));
        clReleaseEvent(events[i]);
    }
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

TEST_CASE("api: complete callbacks are called when nobody waits or asks", "[api][event]") {
    // Hetero hears of completions on demand; a registered callback is such a demand, whether the
    // command is still held back (gated) or already submitted and running. Nothing here waits for
    // the commands or asks their status: only the callbacks can tell.
    cltest::Env env;
    cl_program p = env.build(cltest::kSpinSource);
    cl_kernel spin = env.kernel(p, "spin");
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_uint));
    cltest::setArg(spin, 0, m), cltest::setArg(spin, 1, cl_uint(20000000));
    size_t global = 64;
    cl_event gate = userEvent(env.context);
    cl_event running = nullptr, gated = nullptr;
    CallbackLog log;
    Registration whenRunning{&log, CL_COMPLETE}, whenGated{&log, CL_COMPLETE};
    // Submitted at once (nothing ahead of it) and still running when the callback is registered.
    REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &global, nullptr, 0, nullptr, &running) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(running, CL_COMPLETE, logCallback, &whenRunning) == CL_SUCCESS);
    REQUIRE(log.awaitCalls(1).size() == 1);
    // Held back by a user event when the callback is registered.
    cl_int pattern = 3;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &pattern, sizeof pattern, 0, sizeof pattern, 1, &gate, &gated) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(gated, CL_COMPLETE, logCallback, &whenGated) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    auto calls = log.awaitCalls(2);
    REQUIRE(calls.size() == 2);
    for (auto [type, status] : calls) CHECK(status == CL_COMPLETE);
    clReleaseEvent(gated), clReleaseEvent(running), clReleaseEvent(gate);
    clReleaseKernel(spin), clReleaseProgram(p), clReleaseMemObject(m);
}

TEST_CASE("api: a complete callback of a failed command gets the error", "[api][event]") {
    cltest::Env env;
    cl_event gate = userEvent(env.context);
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 1, &gate, &marker) == CL_SUCCESS);
    CallbackLog log;
    Registration complete{&log, CL_COMPLETE}, gateComplete{&log, 99};
    REQUIRE(clSetEventCallback(marker, CL_COMPLETE, logCallback, &complete) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(gate, CL_COMPLETE, logCallback, &gateComplete) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, -77) == CL_SUCCESS);
    auto calls = log.awaitCalls(2);
    REQUIRE(calls.size() == 2);
    for (auto [type, status] : calls) {
        if (type == 99)
            CHECK(status == -77);  // the user event's own error
        else
            CHECK(status < 0);
    }
    clReleaseEvent(marker);
    clReleaseEvent(gate);
}

TEST_CASE("api: profiling timestamps are ordered and only on profiling queues", "[api][event]") {
    cltest::Env env(CL_QUEUE_PROFILING_ENABLE);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, 1 << 20);
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, 1 << 20);
    cl_event gate = userEvent(env.context);
    cl_int pattern = 7;
    cl_event fill = nullptr, copy = nullptr;
    REQUIRE(clEnqueueFillBuffer(env.queue, a, &pattern, sizeof pattern, 0, 1 << 20, 1, &gate, &fill) == CL_SUCCESS);
    REQUIRE(clEnqueueCopyBuffer(env.queue, a, b, 0, 0, 1 << 20, 0, nullptr, &copy) == CL_SUCCESS);
    cl_ulong t = 0;
    // Not complete yet: no times.
    CHECK(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr) == CL_PROFILING_INFO_NOT_AVAILABLE);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &copy) == CL_SUCCESS);
    for (cl_event e : {fill, copy}) {
        cl_ulong times[5] = {};
        const cl_profiling_info params[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                             CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                             CL_PROFILING_COMMAND_COMPLETE};
        for (int i = 0; i < 5; ++i) {
            size_t n = 0;
            REQUIRE(clGetEventProfilingInfo(e, params[i], sizeof times[i], &times[i], &n) == CL_SUCCESS);
            CHECK(n == sizeof(cl_ulong));
        }
        CHECK(times[0] > 0);
        CHECK(times[0] <= times[1]);
        CHECK(times[1] <= times[2]);
        CHECK(times[2] <= times[3]);
        CHECK(times[3] <= times[4]);
    }
    CHECK(clGetEventProfilingInfo(fill, 0x7777, sizeof t, &t, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_START, 1, &t, nullptr) == CL_INVALID_VALUE);
    clReleaseEvent(fill);
    clReleaseEvent(copy);
    clReleaseEvent(gate);

    cl_command_queue plain = makeQueue(env, 0);
    cl_event unprofiled = nullptr;
    REQUIRE(clEnqueueFillBuffer(plain, a, &pattern, sizeof pattern, 0, 64, 0, nullptr, &unprofiled) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &unprofiled) == CL_SUCCESS);
    CHECK(clGetEventProfilingInfo(unprofiled, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr) ==
          CL_PROFILING_INFO_NOT_AVAILABLE);
    clReleaseEvent(unprofiled);
    clReleaseCommandQueue(plain);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

// Profiled commands are not heard of at once (that costs a callback per command): their times must
// still be when the device ran them, not when the application asked.
TEST_CASE("api: profiling times are the device's, however late the application asks", "[api][event]") {
    cltest::Env env(CL_QUEUE_PROFILING_ENABLE);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, 1 << 16);
    cl_event gate = userEvent(env.context);
    cl_int pattern = 5;
    cl_event fill = nullptr;
    REQUIRE(clEnqueueFillBuffer(env.queue, a, &pattern, sizeof pattern, 0, 1 << 16, 1, &gate, &fill) == CL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFlush(env.queue) == CL_SUCCESS);
    std::this_thread::sleep_for(std::chrono::seconds(2));  // the fill is long done; nobody asked yet
    REQUIRE(clWaitForEvents(1, &fill) == CL_SUCCESS);
    cl_ulong queued = 0, submit = 0, start = 0, end = 0;
    REQUIRE(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_SUBMIT, sizeof submit, &submit, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr) == CL_SUCCESS);
    REQUIRE(clGetEventProfilingInfo(fill, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) == CL_SUCCESS);
    CHECK(submit - queued >= 150'000'000);  // held by the gate
    CHECK(submit <= start);
    CHECK(start <= end);
    CHECK(end - submit < 1'500'000'000);  // ran soon after the gate opened, not when asked about
    clReleaseEvent(fill);
    clReleaseEvent(gate);
    clReleaseMemObject(a);
}

// A profiled kernel's START..END is how long its device ran it, however far off Hetero's placement
// of the device clock on the host's is (platform/engine/backend_clock.hpp): icd.clock-skew-early and
// -late place every device time 50 ms before or after the truth (HETERO_TEST_CLOCK_SKEW_US). Each
// end clamped to submitted..now on its own made such a kernel 0 ns long.
TEST_CASE("api: a profiled kernel keeps its duration, in order", "[api][event][clock-skew]") {
    cltest::Env env(CL_QUEUE_PROFILING_ENABLE);
    cl_program p = env.build(cltest::kSpinSource);
    cl_kernel spin = env.kernel(p, "spin");
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_uint));
    const cl_uint rounds = 5'000'000;  // milliseconds on any CPU: a chain of dependent multiplies
    REQUIRE(clSetKernelArg(spin, 0, sizeof out, &out) == CL_SUCCESS);
    REQUIRE(clSetKernelArg(spin, 1, sizeof rounds, &rounds) == CL_SUCCESS);
    const size_t one = 1;
    for (int launch = 0; launch < 3; ++launch) {
        cl_event done = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, &done) == CL_SUCCESS);
        REQUIRE(clWaitForEvents(1, &done) == CL_SUCCESS);
        const cl_profiling_info params[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                             CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                             CL_PROFILING_COMMAND_COMPLETE};
        cl_ulong t[5] = {};
        for (int i = 0; i < 5; ++i)
            REQUIRE(clGetEventProfilingInfo(done, params[i], sizeof t[i], &t[i], nullptr) == CL_SUCCESS);
        CAPTURE(launch, t[0], t[1], t[2], t[3], t[4]);
        CHECK(t[0] <= t[1]);
        CHECK(t[1] <= t[2]);
        CHECK(t[2] <= t[3]);
        CHECK(t[3] <= t[4]);
        CHECK(t[3] - t[2] >= 1'000'000);  // at least 1 ms of the kernel's milliseconds
        clReleaseEvent(done);
    }
    clReleaseMemObject(out);
    clReleaseKernel(spin);
    clReleaseProgram(p);
}

TEST_CASE("api: an out-of-order queue runs independent commands past a gated one", "[api][event]") {
    cltest::Env env;
    cl_command_queue q = makeQueue(env, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_mem gatedBuffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_mem freeBuffer = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_event gate = userEvent(env.context);
    cl_int one = 1, two = 2;
    cl_event gated = nullptr, independent = nullptr;
    REQUIRE(clEnqueueFillBuffer(q, gatedBuffer, &one, sizeof one, 0, 64, 1, &gate, &gated) == CL_SUCCESS);
    REQUIRE(clEnqueueFillBuffer(q, freeBuffer, &two, sizeof two, 0, 64, 0, nullptr, &independent) == CL_SUCCESS);
    // The later, independent command completes while the gate is still closed.
    CHECK(awaitFinal(independent) == CL_COMPLETE);
    CHECK(statusOf(gated) > CL_COMPLETE);
    cl_int back = 0;
    cl_event read = nullptr;
    REQUIRE(clEnqueueReadBuffer(q, freeBuffer, CL_FALSE, 0, sizeof back, &back, 1, &independent, &read) == CL_SUCCESS);
    CHECK(awaitFinal(read) == CL_COMPLETE);
    CHECK(back == 2);
    CHECK(statusOf(gated) > CL_COMPLETE);

    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    CHECK(awaitFinal(gated) == CL_COMPLETE);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    for (cl_event e : {gated, independent, read, gate}) clReleaseEvent(e);
    clReleaseMemObject(gatedBuffer);
    clReleaseMemObject(freeBuffer);
    clReleaseCommandQueue(q);
}

TEST_CASE("api: a barrier in an out-of-order queue orders what comes after it", "[api][event]") {
    cltest::Env env;
    cl_command_queue q = makeQueue(env, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int zero = 0, five = 5;
    REQUIRE(clEnqueueFillBuffer(env.queue, a, &zero, sizeof zero, 0, 64, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    cl_event gate = userEvent(env.context);
    REQUIRE(clEnqueueFillBuffer(q, a, &five, sizeof five, 0, 64, 1, &gate, nullptr) == CL_SUCCESS);
    cl_event barrier = nullptr;
    REQUIRE(clEnqueueBarrierWithWaitList(q, 0, nullptr, &barrier) == CL_SUCCESS);
    cl_event copy = nullptr;
    REQUIRE(clEnqueueCopyBuffer(q, a, b, 0, 0, 64, 0, nullptr, &copy) == CL_SUCCESS);  // after the barrier
    CHECK(statusOf(barrier) > CL_COMPLETE);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &copy) == CL_SUCCESS);
    CHECK(env.read<cl_int>(b, 16) == std::vector<cl_int>(16, 5));
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_BARRIER);
    CHECK(statusOf(barrier) == CL_COMPLETE);
    for (cl_event e : {gate, barrier, copy}) clReleaseEvent(e);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

TEST_CASE("api: markers complete after what they wait for", "[api][event]") {
    cltest::Env env;
    cl_command_queue q = makeQueue(env, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_event first = userEvent(env.context), second = userEvent(env.context);
    cl_event list[] = {first, second};
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(q, 2, list, &marker) == CL_SUCCESS);
    // A marker without a wait list waits for everything enqueued before it (here: the first marker).
    cl_event all = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(q, 0, nullptr, &all) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(first, CL_COMPLETE) == CL_SUCCESS);
    CHECK(statusOf(marker) > CL_COMPLETE);
    CHECK(statusOf(all) > CL_COMPLETE);
    REQUIRE(clSetUserEventStatus(second, CL_COMPLETE) == CL_SUCCESS);
    CHECK(awaitFinal(marker) == CL_COMPLETE);
    CHECK(awaitFinal(all) == CL_COMPLETE);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_MARKER);
    cl_command_queue owner = nullptr;
    REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_QUEUE, sizeof owner, &owner, nullptr) == CL_SUCCESS);
    CHECK(owner == q);

    // The OpenCL 1.1 forms.
    cl_event legacy = nullptr;
    CHECK(clEnqueueMarker(q, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clEnqueueMarker(q, &legacy) == CL_SUCCESS);
    CHECK(clEnqueueWaitForEvents(q, 0, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clEnqueueWaitForEvents(q, 1, &legacy) == CL_SUCCESS);
    REQUIRE(clEnqueueBarrier(q) == CL_SUCCESS);
    REQUIRE(clFinish(q) == CL_SUCCESS);
    CHECK(statusOf(legacy) == CL_COMPLETE);
    for (cl_event e : {first, second, marker, all, legacy}) clReleaseEvent(e);
    clReleaseCommandQueue(q);
}

TEST_CASE("api: wait lists across queues order the commands", "[api][event]") {
    cltest::Env env;
    cl_command_queue other = makeQueue(env, 0);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int zero = 0, eight = 8;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &zero, sizeof zero, 0, 64, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    cl_event gate = userEvent(env.context);
    cl_event fill = nullptr;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &eight, sizeof eight, 0, 64, 1, &gate, &fill) == CL_SUCCESS);
    std::vector<cl_int> back(16, -1);
    cl_event read = nullptr;
    REQUIRE(clEnqueueReadBuffer(other, m, CL_FALSE, 0, 64, back.data(), 1, &fill, &read) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
    CHECK(back == std::vector<cl_int>(16, 8));
    // Events of two queues of one context may be waited for together.
    cl_event both[] = {fill, read};
    CHECK(clWaitForEvents(2, both) == CL_SUCCESS);
    for (cl_event e : {gate, fill, read}) clReleaseEvent(e);
    clReleaseMemObject(m);
    clReleaseCommandQueue(other);
}

TEST_CASE("api: wait list and clWaitForEvents argument errors", "[api][event]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int v = 0;
    cl_event gate = userEvent(env.context);
    CHECK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, 4, &v, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
    CHECK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, 4, &v, 0, &gate, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
    cl_event withNull[] = {gate, nullptr};
    CHECK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, 4, &v, 2, withNull, nullptr) == CL_INVALID_EVENT_WAIT_LIST);
    CHECK(clEnqueueMarkerWithWaitList(env.queue, 1, nullptr, nullptr) == CL_INVALID_EVENT_WAIT_LIST);

    cltest::Env other;
    cl_event foreign = userEvent(other.context);
    CHECK(clEnqueueWriteBuffer(env.queue, m, CL_FALSE, 0, 4, &v, 1, &foreign, nullptr) == CL_INVALID_CONTEXT);
    cl_event mixed[] = {gate, foreign};
    CHECK(clWaitForEvents(2, mixed) == CL_INVALID_CONTEXT);
    CHECK(clWaitForEvents(0, &gate) == CL_INVALID_VALUE);

    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(foreign, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseEvent(gate);
    clReleaseEvent(foreign);
    clReleaseMemObject(m);
}

TEST_CASE("api: in-order commands see the effects of the gated command before them", "[api][event]") {
    cltest::Env env;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int zero = 0, six = 6;
    REQUIRE(clEnqueueFillBuffer(env.queue, a, &zero, sizeof zero, 0, 64, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_event gate = userEvent(env.context);
    REQUIRE(clEnqueueFillBuffer(env.queue, a, &six, sizeof six, 0, 64, 1, &gate, nullptr) == CL_SUCCESS);
    cl_event copy = nullptr;
    REQUIRE(clEnqueueCopyBuffer(env.queue, a, b, 0, 0, 64, 0, nullptr, &copy) == CL_SUCCESS);
    CHECK(statusOf(copy) > CL_COMPLETE);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    CHECK(env.read<cl_int>(b, 16) == std::vector<cl_int>(16, 6));
    clReleaseEvent(copy);
    clReleaseEvent(gate);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

TEST_CASE("api: a callback may release the last reference to its event", "[api][event]") {
    cltest::Env env;
    std::atomic<int> calls{0};
    struct Data {
        std::atomic<int>* calls;
        cl_event next;  // completed from the callback: chains user events
    };
    auto releaseSelf = [](cl_event e, cl_int status, void* user) {
        auto* d = static_cast<Data*>(user);
        if (d->next) clSetUserEventStatus(d->next, status);
        clReleaseEvent(e);  // the application's only reference
        ++*d->calls;
    };
    cl_event second = userEvent(env.context);
    cl_event first = userEvent(env.context);
    Data firstData{&calls, second}, secondData{&calls, nullptr};
    REQUIRE(clSetEventCallback(first, CL_COMPLETE, releaseSelf, &firstData) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(second, CL_COMPLETE, releaseSelf, &secondData) == CL_SUCCESS);
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 1, &second, &marker) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(first, CL_COMPLETE) == CL_SUCCESS);  // releases first and second
    CHECK(awaitFinal(marker) == CL_COMPLETE);
    CHECK(calls == 2);
    clReleaseEvent(marker);
}

TEST_CASE("api: every command's event names its command type, queue and context", "[api][event]") {
    cltest::Env env;
    const size_t n = 64;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, n), b = env.buffer(CL_MEM_READ_WRITE, n);
    std::vector<unsigned char> host(n);
    cl_int zero = 0;
    std::vector<std::pair<cl_event, cl_command_type>> events;
    cl_event e = nullptr;
    // Reads `e` only after the enqueue call (an argument would be evaluated in unspecified order).
    auto record = [&](cl_int err, cl_command_type type) {
        REQUIRE(err == CL_SUCCESS);
        events.emplace_back(e, type);
    };
    record(clEnqueueWriteBuffer(env.queue, a, CL_FALSE, 0, n, host.data(), 0, nullptr, &e), CL_COMMAND_WRITE_BUFFER);
    record(clEnqueueReadBuffer(env.queue, a, CL_FALSE, 0, n, host.data(), 0, nullptr, &e), CL_COMMAND_READ_BUFFER);
    record(clEnqueueCopyBuffer(env.queue, a, b, 0, 0, n, 0, nullptr, &e), CL_COMMAND_COPY_BUFFER);
    record(clEnqueueFillBuffer(env.queue, a, &zero, sizeof zero, 0, n, 0, nullptr, &e), CL_COMMAND_FILL_BUFFER);
    size_t origin[3] = {0, 0, 0}, region[3] = {8, 2, 1};
    record(clEnqueueWriteBufferRect(env.queue, a, CL_FALSE, origin, origin, region, 8, 0, 8, 0, host.data(), 0, nullptr, &e),
           CL_COMMAND_WRITE_BUFFER_RECT);
    record(clEnqueueReadBufferRect(env.queue, a, CL_FALSE, origin, origin, region, 8, 0, 8, 0, host.data(), 0, nullptr, &e),
           CL_COMMAND_READ_BUFFER_RECT);
    record(clEnqueueCopyBufferRect(env.queue, a, b, origin, origin, region, 8, 0, 8, 0, 0, nullptr, &e),
           CL_COMMAND_COPY_BUFFER_RECT);
    cl_int err = CL_SUCCESS;
    void* p = clEnqueueMapBuffer(env.queue, a, CL_FALSE, CL_MAP_READ, 0, n, 0, nullptr, &e, &err);
    record(err, CL_COMMAND_MAP_BUFFER);
    record(clEnqueueUnmapMemObject(env.queue, a, p, 0, nullptr, &e), CL_COMMAND_UNMAP_MEM_OBJECT);
    record(clEnqueueMigrateMemObjects(env.queue, 1, &a, 0, 0, nullptr, &e), CL_COMMAND_MIGRATE_MEM_OBJECTS);
    record(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &e), CL_COMMAND_MARKER);
    record(clEnqueueBarrierWithWaitList(env.queue, 0, nullptr, &e), CL_COMMAND_BARRIER);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (auto [event, type] : events) {
        INFO("expected command type 0x" << std::hex << type);
        cl_command_type t = 0;
        REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS);
        CHECK(t == type);
        cl_command_queue q = nullptr;
        REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof q, &q, nullptr) == CL_SUCCESS);
        CHECK(q == env.queue);
        cl_context c = nullptr;
        REQUIRE(clGetEventInfo(event, CL_EVENT_CONTEXT, sizeof c, &c, nullptr) == CL_SUCCESS);
        CHECK(c == env.context);
        CHECK(statusOf(event) == CL_COMPLETE);
        clReleaseEvent(event);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

TEST_CASE("api: kernels ordered only by events in an out-of-order queue see each other's results", "[api][event]") {
    cltest::Env env;
    const char* source = R"CLC(
__kernel void scale_add(__global const int* in, __global int* out, int mul, int add) {
    size_t i = get_global_id(0);
    out[i] = in[i] * mul + add;
}
)CLC";
    cl_program p = env.build(source);
    cl_kernel first = env.kernel(p, "scale_add"), second = env.kernel(p, "scale_add"), third = env.kernel(p, "scale_add");
    cl_command_queue q = makeQueue(env, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    const size_t n = 1024;
    std::vector<cl_int> input(n);
    for (size_t i = 0; i < n; ++i) input[i] = static_cast<cl_int>(i);
    cl_mem a = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), input.data());
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int)), c = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    auto set = [](cl_kernel k, cl_mem in, cl_mem out, cl_int mul, cl_int add) {
        cltest::setArg(k, 0, in);
        cltest::setArg(k, 1, out);
        cltest::setArg(k, 2, mul);
        cltest::setArg(k, 3, add);
    };
    set(first, a, b, 2, 1);   // b = 2a + 1
    set(second, b, c, 3, 0);  // c = 3b
    set(third, c, a, 1, -5);  // a = c - 5
    cl_event gate = userEvent(env.context), e1 = nullptr, e2 = nullptr, e3 = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(q, first, 1, nullptr, &n, nullptr, 1, &gate, &e1) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q, second, 1, nullptr, &n, nullptr, 1, &e1, &e2) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(q, third, 1, nullptr, &n, nullptr, 1, &e2, &e3) == CL_SUCCESS);
    std::vector<cl_int> back(n, 0);
    cl_event read = nullptr;
    REQUIRE(clEnqueueReadBuffer(q, a, CL_FALSE, 0, n * sizeof(cl_int), back.data(), 1, &e3, &read) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &read) == CL_SUCCESS);
    for (size_t i = 0; i < n; ++i)
        if (back[i] != 3 * (2 * input[i] + 1) - 5) FAIL_CHECK("element " << i << " is " << back[i]);

    for (cl_event e : {gate, e1, e2, e3, read}) clReleaseEvent(e);
    for (cl_mem m : {a, b, c}) clReleaseMemObject(m);
    for (cl_kernel k : {first, second, third}) clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
}

TEST_CASE("api: a failure propagates through wait lists across queues", "[api][event]") {
    cltest::Env env;
    cl_command_queue other = makeQueue(env, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_event gate = userEvent(env.context), fill = nullptr, copy = nullptr, marker = nullptr;
    cl_int pattern = 1;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &pattern, sizeof pattern, 0, 64, 1, &gate, &fill) == CL_SUCCESS);
    REQUIRE(clEnqueueCopyBuffer(other, m, m, 0, 32, 32, 1, &fill, &copy) == CL_SUCCESS);
    REQUIRE(clEnqueueMarkerWithWaitList(other, 1, &copy, &marker) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_INVALID_VALUE) == CL_SUCCESS);  // any negative value is an error
    CHECK(awaitFinal(fill) < 0);
    CHECK(awaitFinal(copy) < 0);
    CHECK(awaitFinal(marker) < 0);
    cl_event all[] = {copy, marker};
    CHECK(clWaitForEvents(2, all) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    // The queues stay usable.
    cl_event fine = nullptr;
    REQUIRE(clEnqueueFillBuffer(other, m, &pattern, sizeof pattern, 0, 64, 0, nullptr, &fine) == CL_SUCCESS);
    CHECK(awaitFinal(fine) == CL_COMPLETE);
    for (cl_event e : {gate, fill, copy, marker, fine}) clReleaseEvent(e);
    clReleaseMemObject(m);
    clReleaseCommandQueue(other);
}

TEST_CASE("api: once a command is complete, every command it waited for is seen complete", "[api][event]") {
    cltest::Env env;
    cl_program p = env.build("__kernel void inc(__global int* d) { d[get_global_id(0)] += 1; }");
    cl_kernel k = env.kernel(p, "inc");
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 256 * sizeof(cl_int));
    cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &zero, sizeof zero, 0, 256 * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    cltest::setArg(k, 0, m);
    // Launches (alternating between slots where there are two) and copies, in order.
    std::vector<cl_event> events;
    for (int i = 0; i < 40; ++i) {
        cl_event e = nullptr;
        size_t global = 256;
        if (i % 4 == 3)
            REQUIRE(clEnqueueCopyBuffer(env.queue, m, m, 0, 128 * sizeof(cl_int), 128 * sizeof(cl_int), 0, nullptr, &e) ==
                    CL_SUCCESS);
        else
            REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e) == CL_SUCCESS);
        events.push_back(e);
    }
    REQUIRE(clWaitForEvents(1, &events.back()) == CL_SUCCESS);
    for (size_t i = 0; i < events.size(); ++i) {
        INFO("command " << i);
        CHECK(statusOf(events[i]) == CL_COMPLETE);
    }
    // 30 increments, and every fourth step copies the low half over the high half.
    std::vector<cl_int> expect(256, 0);
    for (int i = 0; i < 40; ++i) {
        if (i % 4 == 3)
            std::copy(expect.begin(), expect.begin() + 128, expect.begin() + 128);
        else
            for (auto& v : expect) ++v;
    }
    CHECK(env.read<cl_int>(m, 256) == expect);
    for (cl_event e : events) clReleaseEvent(e);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// Found by the API fuzzer under ASan (test/fuzz, etc/sanitize.sh): CL_EVENT_COMMAND_QUEUE read the
// queue object, which a completed event no longer keeps alive. The event still answers its handle.
TEST_CASE("api: an event names its queue after the queue was released", "[api][event]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event marker = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker) == CL_SUCCESS);
    REQUIRE(clFinish(queue) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(queue) == CL_SUCCESS);
    // Other allocations take the queue's memory (what made the stale read visible without ASan).
    std::vector<cl_mem> reuse;
    for (int i = 0; i < 16; ++i) reuse.push_back(env.buffer(CL_MEM_READ_WRITE, 64));
    cl_command_queue named = nullptr;
    REQUIRE(clGetEventInfo(marker, CL_EVENT_COMMAND_QUEUE, sizeof named, &named, nullptr) == CL_SUCCESS);
    CHECK(named == queue);
    for (cl_mem m : reuse) clReleaseMemObject(m);
    clReleaseEvent(marker);
}
