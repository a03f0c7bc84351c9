// A program that returns from main while a split launch's CPU side still runs its chunks: from the
// exit on, the split engines enqueue no kernel (platform/split/exit_gate.hpp), so that none runs
// while the libraries' exit handlers do (PoCL compiles a kernel at its first run at a work-group
// size, and its exit handler breaks that compile: SIGSEGV in LLVM's pass manager).
//
// Environment (test/stress/CMakeLists.txt): two slots, every launch split with its variants built
// with the program, and HETERO_TEST_SPLIT_GPU_AFTER_CPU=1: the GPU kernel waits for the CPU side,
// which then computes every work-group, chunk after chunk, so a launch of many slow work-groups is
// still enqueueing chunks when main returns. One launch is waited for first (every kernel
// compiled), a second is left running. An exit handler registered then runs after the main
// thread's end closed the gate: it checks that no chunk is enqueued any more (CL_HETERO_SPLIT_CHUNKS
// unchanged over 300 ms) and that the running launch's CPU side was refused one
// (CL_HETERO_CHUNKS_REFUSED_AT_EXIT, waited for up to 60 s). Prints PASS; a failed check exits with status 1.
#define CL_TARGET_OPENCL_VERSION 300
#include "plain_counters.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

const char* kSource = R"(
__kernel void spin(__global float* out, int rounds) {
    size_t i = get_global_id(0);
    float x = (float)i;
    for (int r = 0; r < rounds; ++r) x = x * 0.999f + 1.0f;
    out[i] = x;
}
)";

constexpr size_t kItems = 1 << 16;

using plaincl::fail;
const plaincl::Counters* counters = nullptr;  // the process's to its end (read by an exit handler)
cl_ulong counter(int index) { return (*counters)[index]; }

void noChunkAfterTheExit() {
    const cl_ulong chunks = counter(CL_HETERO_SPLIT_CHUNKS);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    if (counter(CL_HETERO_SPLIT_CHUNKS) != chunks) fail("a chunk was enqueued while the process exited");
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (counter(CL_HETERO_CHUNKS_REFUSED_AT_EXIT) == 0) {
        if (std::chrono::steady_clock::now() > until) fail("the running launch's CPU side was never refused a chunk");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::printf("PASS\n");
    std::fflush(stdout);
}

}  // namespace

int main() {
    cl_platform_id platform = nullptr;
    cl_device_id device = plaincl::heteroDevice(platform);
    counters = new plaincl::Counters(platform);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    PLAIN_CL_CHECK(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    PLAIN_CL_CHECK(err);
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    PLAIN_CL_CHECK(err);
    PLAIN_CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
    cl_kernel kernel = clCreateKernel(program, "spin", &err);
    PLAIN_CL_CHECK(err);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(float), nullptr, &err);
    PLAIN_CL_CHECK(err);
    int rounds = 20000;
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 1, sizeof rounds, &rounds));
    size_t global = kItems, local = 64;
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clFinish(queue));
    if (counter(CL_HETERO_LAUNCHES_SPLIT_DISCRETE) != 1 || counter(CL_HETERO_SPLIT_CHUNKS) < 2)
        fail("the first launch did not split in chunks");
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clFlush(queue));
    std::atexit(noChunkAfterTheExit);
    return 0;  // with the second launch running
}
