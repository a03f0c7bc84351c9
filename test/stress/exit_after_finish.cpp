// An application that exits as soon as its last wait returns: split launches (two slots,
// HETERO_SPLIT=always), then one wait, then main returns without releasing anything (or calls
// exit() at once, or releases everything first). Whatever Hetero started for those launches
// (CPU chunks, the stream-back, variant builds) must be over by then: the process's exit-time
// destructors (LLVM's inside PoCL among them) run right after.
//
//   hetero_exit_after_finish [finish|read|wait|release|exit|threads] [launches]
//
// finish: clFinish then return; read: a blocking read is the last wait; wait: clWaitForEvents on
// the last launch; release: release every object, then return; exit: std::exit right after
// clFinish; threads: two threads with a queue each, joined, then return; nowait: 256 more launches
// without events, then return without any wait (with launch pipes, devices/call_pipe.hpp, some of
// them are not even made yet when main returns).
// Prints PASS when the results are right (checked before exiting); the exit status says the rest.
#define CL_TARGET_OPENCL_VERSION 300
#include "plain_cl.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

// Work enough per work-group that CPU chunks are often still running when the GPU side ends.
const char* kSource = R"(
__kernel void spin(__global float* out, __global const float* in, int rounds) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (int r = 0; r < rounds; ++r) x = x * 0.5f + 1.0f;
    out[i] = x;
}
__kernel void addone(__global int* data) {
    size_t i = get_global_id(0);
    data[i] += 1;
}
)";

struct Objects {
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    cl_kernel spin = nullptr, addone = nullptr;
    cl_mem in = nullptr, out = nullptr, counts = nullptr;
    cl_event last = nullptr;
};

constexpr size_t kItems = 1 << 14;

// Launches `launches` times each kernel, alternating; leaves the last launch's event in o.last.
void enqueueWork(Objects& o, cl_context context, cl_device_id device, int launches) {
    cl_int err = CL_SUCCESS;
    o.queue = clCreateCommandQueue(context, device, 0, &err);
    PLAIN_CL_CHECK(err);
    o.program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    PLAIN_CL_CHECK(err);
    PLAIN_CL_CHECK(clBuildProgram(o.program, 1, &device, "", nullptr, nullptr));
    o.spin = clCreateKernel(o.program, "spin", &err);
    PLAIN_CL_CHECK(err);
    o.addone = clCreateKernel(o.program, "addone", &err);
    PLAIN_CL_CHECK(err);
    std::vector<float> input(kItems, 3.0f);
    o.in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * sizeof(float), input.data(), &err);
    PLAIN_CL_CHECK(err);
    o.out = clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(float), nullptr, &err);
    PLAIN_CL_CHECK(err);
    std::vector<int> zeros(kItems, 0);
    o.counts = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kItems * sizeof(int), zeros.data(), &err);
    PLAIN_CL_CHECK(err);
    int rounds = 2000;
    PLAIN_CL_CHECK(clSetKernelArg(o.spin, 0, sizeof(cl_mem), &o.out));
    PLAIN_CL_CHECK(clSetKernelArg(o.spin, 1, sizeof(cl_mem), &o.in));
    PLAIN_CL_CHECK(clSetKernelArg(o.spin, 2, sizeof rounds, &rounds));
    PLAIN_CL_CHECK(clSetKernelArg(o.addone, 0, sizeof(cl_mem), &o.counts));
    size_t global = kItems, local = 64;
    for (int i = 0; i < launches; ++i) {
        cl_kernel k = i % 2 ? o.addone : o.spin;
        if (o.last) clReleaseEvent(o.last);
        PLAIN_CL_CHECK(clEnqueueNDRangeKernel(o.queue, k, 1, nullptr, &global, &local, 0, nullptr, &o.last));
    }
}

bool resultsRight(Objects& o, int launches) {
    std::vector<int> counts(kItems);
    std::vector<float> out(kItems);
    PLAIN_CL_CHECK(clEnqueueReadBuffer(o.queue, o.counts, CL_TRUE, 0, kItems * sizeof(int), counts.data(), 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clEnqueueReadBuffer(o.queue, o.out, CL_TRUE, 0, kItems * sizeof(float), out.data(), 0, nullptr, nullptr));
    float expect = 3.0f;
    for (int r = 0; r < 2000; ++r) expect = expect * 0.5f + 1.0f;
    for (size_t i = 0; i < kItems; ++i)
        if (counts[i] != launches / 2 || out[i] != expect) return false;
    return true;
}

void releaseAll(Objects& o) {
    clReleaseEvent(o.last);
    clReleaseMemObject(o.in);
    clReleaseMemObject(o.out);
    clReleaseMemObject(o.counts);
    clReleaseKernel(o.spin);
    clReleaseKernel(o.addone);
    clReleaseProgram(o.program);
    clReleaseCommandQueue(o.queue);
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "finish";
    int launches = argc > 2 ? std::atoi(argv[2]) : 8;
    launches += launches % 2;  // as many of each kernel
    cl_platform_id platform = nullptr;
    cl_device_id device = plaincl::heteroDevice(platform);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    PLAIN_CL_CHECK(err);

    if (mode == "threads") {
        Objects a, b;
        std::thread ta([&] { enqueueWork(a, context, device, launches); });
        std::thread tb([&] { enqueueWork(b, context, device, launches); });
        ta.join();
        tb.join();
        // The result check is each queue's last wait.
        bool ok = resultsRight(a, launches) && resultsRight(b, launches);
        std::printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    }

    Objects o;
    enqueueWork(o, context, device, launches);
    // The results are checked with blocking reads; in the other modes more launches follow, so
    // that the mode's own wait is the last one.
    if (mode == "read") {
        bool ok = resultsRight(o, launches);  // its blocking reads are the last waits
        std::printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    }
    bool ok = resultsRight(o, launches);
    // One more round after the check, so that the mode's wait is the last thing that happens.
    size_t global = kItems, local = 64;
    clReleaseEvent(o.last);
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(o.queue, o.spin, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(o.queue, o.addone, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(o.queue, o.addone, 1, nullptr, &global, &local, 0, nullptr, &o.last));
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    std::fflush(stdout);
    if (mode == "nowait") {
        for (int i = 0; i < 256; ++i)
            PLAIN_CL_CHECK(clEnqueueNDRangeKernel(o.queue, o.addone, 1, nullptr, &global, &local, 0, nullptr, nullptr));
        return ok ? 0 : 1;
    }
    if (mode == "wait") {
        PLAIN_CL_CHECK(clWaitForEvents(1, &o.last));  // the last launch: in order, it covers the others
    } else {
        PLAIN_CL_CHECK(clFinish(o.queue));
    }
    if (mode == "exit") std::exit(ok ? 0 : 1);
    if (mode == "release") {
        releaseAll(o);
        clReleaseContext(context);
    }
    return ok ? 0 : 1;
}
