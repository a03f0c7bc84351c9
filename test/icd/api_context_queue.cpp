// Contexts and command queues: creation arguments, properties, info queries, reference counts,
// destructor callbacks and what a released object still owes the objects that depend on it.
#include "cl_test.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

template <class T>
T contextValue(cl_context c, cl_context_info param) {
    T v{};
    REQUIRE(clGetContextInfo(c, param, sizeof v, &v, nullptr) == CL_SUCCESS);
    return v;
}

template <class T>
T queueValue(cl_command_queue q, cl_command_queue_info param) {
    T v{};
    REQUIRE(clGetCommandQueueInfo(q, param, sizeof v, &v, nullptr) == CL_SUCCESS);
    return v;
}

cl_context makeContext(const cl_context_properties* props = nullptr) {
    cl_device_id d = cltest::heteroDevice();
    cl_int err = CL_INVALID_VALUE;
    cl_context c = clCreateContext(props, 1, &d, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(c != nullptr);
    return c;
}

// Records the order in which destructor callbacks run.
struct CallOrder {
    std::vector<int> calls;
};
struct Tagged {
    CallOrder* order;
    int tag;
};
void CL_CALLBACK recordContextDestroyed(cl_context, void* data) {
    auto* t = static_cast<Tagged*>(data);
    t->order->calls.push_back(t->tag);
}

}  // namespace

TEST_CASE("api: clCreateContext checks devices, callback and properties", "[api][context]") {
    cl_device_id d = cltest::heteroDevice();
    cl_int err = CL_SUCCESS;
    CHECK(clCreateContext(nullptr, 0, &d, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    int data = 0;
    CHECK(clCreateContext(nullptr, 1, &d, nullptr, &data, &err) == nullptr);  // user data without a callback
    CHECK(err == CL_INVALID_VALUE);

    cl_context_properties unknown[] = {0x7777, 1, 0};
    CHECK(clCreateContext(unknown, 1, &d, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);

    auto platform = reinterpret_cast<cl_context_properties>(cltest::heteroPlatform());
    cl_context_properties twice[] = {CL_CONTEXT_PLATFORM, platform, CL_CONTEXT_PLATFORM, platform, 0};
    CHECK(clCreateContext(twice, 1, &d, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
}

TEST_CASE("api: context info reports devices, properties and reference count", "[api][context]") {
    auto platform = reinterpret_cast<cl_context_properties>(cltest::heteroPlatform());
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform, 0};
    cl_context c = makeContext(props);
    CHECK(contextValue<cl_uint>(c, CL_CONTEXT_NUM_DEVICES) == 1);
    CHECK(contextValue<cl_device_id>(c, CL_CONTEXT_DEVICES) == cltest::heteroDevice());

    size_t n = 0;
    REQUIRE(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n == sizeof props);
    cl_context_properties back[3] = {};
    REQUIRE(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, n, back, nullptr) == CL_SUCCESS);
    CHECK(back[0] == CL_CONTEXT_PLATFORM);
    CHECK(back[1] == platform);
    CHECK(back[2] == 0);

    CHECK(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) == 1);
    REQUIRE(clRetainContext(c) == CL_SUCCESS);
    CHECK(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) == 2);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    CHECK(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) == 1);

    cl_uint v = 0;
    CHECK(clGetContextInfo(c, 0x7777, sizeof v, &v, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, 1, &v, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);

    // Without properties, CL_CONTEXT_PROPERTIES has nothing to return.
    cl_context plain = makeContext();
    REQUIRE(clGetContextInfo(plain, CL_CONTEXT_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == 0);
    REQUIRE(clReleaseContext(plain) == CL_SUCCESS);
}

TEST_CASE("api: clCreateContextFromType finds the device by the types it reports", "[api][context]") {
    cl_device_type type = 0;
    REQUIRE(clGetDeviceInfo(cltest::heteroDevice(), CL_DEVICE_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    auto platform = reinterpret_cast<cl_context_properties>(cltest::heteroPlatform());
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, platform, 0};
    cl_int err = CL_INVALID_VALUE;
    cl_context c = clCreateContextFromType(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(contextValue<cl_device_id>(c, CL_CONTEXT_DEVICES) == cltest::heteroDevice());
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);

    for (cl_device_type bit : {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR}) {
        if (type & bit) continue;
        CHECK(clCreateContextFromType(props, bit, nullptr, nullptr, &err) == nullptr);
        CHECK(err == CL_DEVICE_NOT_FOUND);
    }
    CHECK(clCreateContextFromType(props, cl_device_type(1) << 40, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_DEVICE_TYPE);
}

TEST_CASE("api: context destructor callbacks run in reverse order once the last dependant is gone",
          "[api][context]") {
    cl_context c = makeContext();
    CallOrder order;
    Tagged first{&order, 1}, second{&order, 2};
    REQUIRE(clSetContextDestructorCallback(c, recordContextDestroyed, &first) == CL_SUCCESS);
    REQUIRE(clSetContextDestructorCallback(c, recordContextDestroyed, &second) == CL_SUCCESS);
    CHECK(clSetContextDestructorCallback(c, nullptr, nullptr) == CL_INVALID_VALUE);

    // A buffer keeps its context alive after the application's release of the context.
    cl_int err = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    CHECK(order.calls.empty());
    cl_context owner = nullptr;
    REQUIRE(clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof owner, &owner, nullptr) == CL_SUCCESS);
    CHECK(owner == c);

    REQUIRE(clReleaseMemObject(buffer) == CL_SUCCESS);
    CHECK(order.calls == std::vector<int>{2, 1});
}

static void CL_CALLBACK countContextDestroyed(cl_context, void* data) {
    static_cast<std::atomic<int>*>(data)->fetch_add(1);
}

// A blocking call whose command fails (here: after a failed command of its in-order queue) returns
// an error. The application then has no event to release: Hetero must not have handed one out,
// or that event would keep the context alive for ever.
TEST_CASE("api: a failed blocking transfer or map hands out no event and keeps nothing alive",
          "[api][context][event]") {
    cl_context c = makeContext();
    // Static: should the context outlive the wait below, its callback must not find a dead frame.
    static std::atomic<int> destroyed{0};
    destroyed = 0;
    REQUIRE(clSetContextDestructorCallback(c, countContextDestroyed, &destroyed) == CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, cltest::heteroDevice(), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, 256, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event gate = clCreateUserEvent(c, &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<char> data(256, 1);
    REQUIRE(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, data.size(), data.data(), 1, &gate, nullptr) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, -7) == CL_SUCCESS);

    cl_event out = nullptr;
    CHECK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, data.size(), data.data(), 0, nullptr, &out) ==
          CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(out == nullptr);
    CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, data.size(), data.data(), 0, nullptr, &out) ==
          CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(out == nullptr);
    void* mapped = clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, data.size(), 0, nullptr, &out, &err);
    CHECK(mapped == nullptr);
    CHECK(err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    CHECK(out == nullptr);

    REQUIRE(clReleaseEvent(gate) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(b) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    // The last reference may drop on one of Hetero's threads: wait for it (bounded). (It once took
    // longer than 30 s: the scheduler kept the queue while the next event anywhere was awaited.)
    for (int i = 0; i < 3000 && destroyed.load() == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(destroyed.load() == 1);
}

// Keeps the thread that runs its callback until released (or the test ends): unrelated work that
// occupies one of Hetero's threads.
struct HeldThread {
    std::mutex mutex;
    std::condition_variable changed;
    bool entered = false, released = false;

    void awaitEntered() {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return entered; });
    }
    void release() {
        std::lock_guard lock(mutex);
        released = true;
        changed.notify_all();
    }
};

static void CL_CALLBACK holdThread(cl_event, cl_int, void* data) {
    auto* held = static_cast<HeldThread*>(data);
    std::unique_lock lock(held->mutex);
    held->entered = true;
    held->changed.notify_all();
    held->changed.wait(lock, [&] { return held->released; });
}

// A command whose wait list is not met when it is enqueued is submitted later, by the scheduler
// thread that watches its queue, or by the application's next enqueue on the queue. That thread
// also runs the callbacks of the commands it completes. With every command of a queue done, the
// queue and its context go at their release, whatever that thread is busy with (issue 20: a
// context outlived its last release by over 30 s while the scheduler still watched its queue).
TEST_CASE("api: a context goes at its last release while the scheduler thread is busy elsewhere",
          "[api][context][queue]") {
    // Unrelated work on the scheduler thread: a command it fails (its wait list failed) runs a
    // callback that waits. Static: the callback may still touch it as the case ends.
    static HeldThread heldThread;
    HeldThread* held = &heldThread;
    held->entered = held->released = false;
    cltest::Env other;
    cl_int err = CL_SUCCESS;
    cl_event otherGate = clCreateUserEvent(other.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event otherDone = nullptr;
    REQUIRE(clEnqueueMarkerWithWaitList(other.queue, 1, &otherGate, &otherDone) == CL_SUCCESS);
    REQUIRE(clSetEventCallback(otherDone, CL_COMPLETE, holdThread, held) == CL_SUCCESS);
    struct ReleaseAtEnd {
        HeldThread* held;
        ~ReleaseAtEnd() { held->release(); }  // also when a REQUIRE below fails
    } releaseAtEnd{held};
    REQUIRE(clSetUserEventStatus(otherGate, -1) == CL_SUCCESS);
    held->awaitEntered();

    cl_context c = makeContext();
    static std::atomic<int> destroyed{0};
    destroyed = 0;
    REQUIRE(clSetContextDestructorCallback(c, countContextDestroyed, &destroyed) == CL_SUCCESS);
    cl_command_queue q = clCreateCommandQueueWithProperties(c, cltest::heteroDevice(), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event gate = clCreateUserEvent(c, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clEnqueueMarkerWithWaitList(q, 1, &gate, nullptr) == CL_SUCCESS);  // waits: the scheduler watches q
    REQUIRE(clSetUserEventStatus(gate, -7) == CL_SUCCESS);
    // The scheduler is held: this enqueue fails the marker before it, then its own command.
    REQUIRE(clEnqueueMarkerWithWaitList(q, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(gate) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    CHECK(destroyed.load() == 1);

    held->release();
    REQUIRE(clReleaseEvent(otherDone) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(otherGate) == CL_SUCCESS);
}

TEST_CASE("api: queue properties are kept and reported", "[api][queue]") {
    cltest::Env env;
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_int err = CL_INVALID_VALUE;
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, props, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(queueValue<cl_command_queue_properties>(q, CL_QUEUE_PROPERTIES) ==
          (CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE));
    CHECK(queueValue<cl_context>(q, CL_QUEUE_CONTEXT) == env.context);
    CHECK(queueValue<cl_device_id>(q, CL_QUEUE_DEVICE) == env.device);
    CHECK(queueValue<cl_command_queue>(q, CL_QUEUE_DEVICE_DEFAULT) == nullptr);

    size_t n = 0;
    REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n == sizeof props);
    cl_queue_properties back[3] = {};
    REQUIRE(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, n, back, nullptr) == CL_SUCCESS);
    CHECK(back[0] == props[0]);
    CHECK(back[1] == props[1]);
    CHECK(back[2] == 0);

    CHECK(queueValue<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT) == 1);
    REQUIRE(clRetainCommandQueue(q) == CL_SUCCESS);
    CHECK(queueValue<cl_uint>(q, CL_QUEUE_REFERENCE_COUNT) == 2);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);

    // CL_QUEUE_SIZE exists for on-device queues only.
    cl_uint size = 0;
    CHECK(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof size, &size, nullptr) == CL_INVALID_COMMAND_QUEUE);
    CHECK(clGetCommandQueueInfo(q, 0x7777, sizeof size, &size, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);

    // The 1.x entry point takes the same properties as a bit field.
    cl_command_queue legacy = clCreateCommandQueue(env.context, env.device, CL_QUEUE_PROFILING_ENABLE, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(queueValue<cl_command_queue_properties>(legacy, CL_QUEUE_PROPERTIES) == CL_QUEUE_PROFILING_ENABLE);
    REQUIRE(clReleaseCommandQueue(legacy) == CL_SUCCESS);
}

TEST_CASE("api: queue creation rejects unknown and unsupported properties", "[api][queue]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_queue_properties unknownKey[] = {0x7777, 0, 0};
    CHECK(clCreateCommandQueueWithProperties(env.context, env.device, unknownKey, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    cl_queue_properties unknownBit[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 20, 0};
    CHECK(clCreateCommandQueueWithProperties(env.context, env.device, unknownBit, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    // On-device queues are valid properties the device does not support.
    cl_queue_properties onDevice[] = {CL_QUEUE_PROPERTIES,
                                      CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    CHECK(clCreateCommandQueueWithProperties(env.context, env.device, onDevice, &err) == nullptr);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES);

    CHECK(clCreateCommandQueue(env.context, env.device, cl_command_queue_properties(1) << 20, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    CHECK(clSetDefaultDeviceCommandQueue(env.context, env.device, env.queue) == CL_INVALID_OPERATION);
}

TEST_CASE("api: a queue keeps its context alive", "[api][queue]") {
    cl_context c = makeContext();
    cl_device_id d = cltest::heteroDevice();
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(contextValue<cl_uint>(c, CL_CONTEXT_REFERENCE_COUNT) >= 2);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    // The context handle stays valid through the queue, and still works for new objects.
    cl_context owner = queueValue<cl_context>(q, CL_QUEUE_CONTEXT);
    CHECK(owner == c);
    cl_mem m = clCreateBuffer(owner, CL_MEM_READ_WRITE, 16, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int value = 5;
    REQUIRE(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof value, &value, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_int back = 0;
    REQUIRE(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof back, &back, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(back == 5);
    REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);
}

TEST_CASE("api: commands of a released queue still complete", "[api][queue]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int value = 77;
    cl_event write = nullptr;
    REQUIRE(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof value, &value, 1, &gate, &write) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);  // the write is still waiting for the gate

    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &write) == CL_SUCCESS);
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(write, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    CHECK(env.read<cl_int>(m, 1)[0] == 77);
    clReleaseEvent(write);
    clReleaseEvent(gate);
    clReleaseMemObject(m);
}

TEST_CASE("api: flush and finish on empty and busy queues", "[api][queue]") {
    cltest::Env env;
    CHECK(clFlush(env.queue) == CL_SUCCESS);
    CHECK(clFinish(env.queue) == CL_SUCCESS);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 1024);
    cl_uchar pattern = 0x5a;
    cl_event fill = nullptr;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &pattern, 1, 0, 1024, 0, nullptr, &fill) == CL_SUCCESS);
    CHECK(clFlush(env.queue) == CL_SUCCESS);
    CHECK(clFinish(env.queue) == CL_SUCCESS);
    // After clFinish every command enqueued before it has completed.
    cl_int status = CL_QUEUED;
    REQUIRE(clGetEventInfo(fill, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
    CHECK(status == CL_COMPLETE);
    clReleaseEvent(fill);
    clReleaseMemObject(m);
}

TEST_CASE("api: a pending command keeps its released queue and context alive until it completes",
          "[api][context][queue]") {
    cl_context c = makeContext();
    cl_device_id d = cltest::heteroDevice();
    std::atomic<int> destroyed{0};
    REQUIRE(clSetContextDestructorCallback(
                c, [](cl_context, void* n) { ++*static_cast<std::atomic<int>*>(n); }, &destroyed) == CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_event gate = clCreateUserEvent(c, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_int pattern = 3;
    cl_event fill = nullptr;
    REQUIRE(clEnqueueFillBuffer(q, m, &pattern, sizeof pattern, 0, 64, 1, &gate, &fill) == CL_SUCCESS);
    // The application lets go of everything but the two events.
    REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
    REQUIRE(clReleaseCommandQueue(q) == CL_SUCCESS);
    REQUIRE(clReleaseContext(c) == CL_SUCCESS);
    CHECK(destroyed == 0);
    cl_context owner = nullptr;
    REQUIRE(clGetEventInfo(fill, CL_EVENT_CONTEXT, sizeof owner, &owner, nullptr) == CL_SUCCESS);
    CHECK(owner == c);

    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &fill) == CL_SUCCESS);
    CHECK(destroyed == 0);  // the events still hold the context
    REQUIRE(clReleaseEvent(fill) == CL_SUCCESS);
    REQUIRE(clReleaseEvent(gate) == CL_SUCCESS);
    // Internal references (a backend's completion callback) may outlive the application's by a
    // moment: wait for the destruction, bounded so that a leak fails instead of hanging.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (destroyed == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(destroyed == 1);
}
