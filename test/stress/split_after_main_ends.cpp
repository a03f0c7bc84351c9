// A program whose main thread ends by pthread_exit while another thread goes on launching. The
// process does not exit, so the CPU must go on helping: glibc runs no thread_local destructor of
// a main thread that ends so (only pthread keys' destructors), so the exit gate
// (platform/split/exit_gate.hpp) stays open, and the worker's exit closes it later through the
// exit handler. Two slots, every launch split (test/stress/CMakeLists.txt: adaptive and with a
// static share in discrete memory, and in unified memory), the GPU kernel held behind the CPU side
// (HETERO_TEST_SPLIT_GPU_AFTER_CPU=1), so the CPU side runs chunks at every launch.
//
// Once the main thread is gone (a zombie in /proc, up to 60 s), the worker makes five launches:
// each must split, run chunks on the CPU slot with none refused, and give the right result. It then
// ends the process with exit(0) from its own thread, as a program may. Prints PASS; a failed
// check exits with status 1, a failed call with status 2.
#define CL_TARGET_OPENCL_VERSION 300
#include "plain_counters.hpp"

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

// Integer arithmetic: the expected result is exact on every device.
const char* kSource = R"(
__kernel void scramble(__global uint* out, uint salt, int rounds) {
    uint i = (uint)get_global_id(0);
    uint x = i ^ salt;
    for (int r = 0; r < rounds; ++r) x = x * 1664525u + 1013904223u;
    out[i] = x;
}
)";

constexpr size_t kItems = 1 << 14;
constexpr int kRounds = 2000;

using plaincl::fail;
const plaincl::Counters* counters = nullptr;  // the process's to its end (read by the worker after main ended)
cl_command_queue queue = nullptr;
cl_kernel kernel = nullptr;
cl_mem out = nullptr;

cl_ulong counter(int index) { return (*counters)[index]; }

cl_ulong splitLaunches() {
    return counter(CL_HETERO_LAUNCHES_SPLIT_DISCRETE) + counter(CL_HETERO_LAUNCHES_SPLIT_UNIFIED);
}

// One launch with `salt`, its result read back and compared element by element.
void launchAndCheck(cl_uint salt) {
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 1, sizeof salt, &salt));
    size_t global = kItems, local = 64;
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::vector<cl_uint> got(kItems);
    PLAIN_CL_CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, kItems * sizeof(cl_uint), got.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < kItems; ++i) {
        cl_uint x = cl_uint(i) ^ salt;
        for (int r = 0; r < kRounds; ++r) x = x * 1664525u + 1013904223u;
        if (got[i] != x) {
            std::fprintf(stderr, "FAIL: launch with salt %u: element %zu is %u, expected %u\n", salt, i, got[i], x);
            std::fflush(stderr);
            std::_Exit(1);
        }
    }
}

// Whether the process's first thread has ended (its task is a zombie while the process goes on).
bool mainThreadEnded() {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/status", int(getpid()));
    std::FILE* f = std::fopen(path, "r");
    if (!f) return true;
    char line[128];
    bool zombie = false;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "State:", 6) == 0) zombie = std::strchr(line, 'Z') != nullptr;
    std::fclose(f);
    return zombie;
}

void worker() {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!mainThreadEnded()) {
        if (std::chrono::steady_clock::now() > until) fail("the main thread did not end");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (cl_uint salt = 1; salt <= 5; ++salt) {
        const cl_ulong split = splitLaunches(), chunks = counter(CL_HETERO_SPLIT_CHUNKS);
        launchAndCheck(salt);
        if (splitLaunches() != split + 1) fail("a launch after the main thread's end did not split");
        if (counter(CL_HETERO_SPLIT_CHUNKS) == chunks) fail("a launch after the main thread's end ran no CPU chunk");
    }
    if (counter(CL_HETERO_CHUNKS_REFUSED_AT_EXIT) != 0) fail("a chunk was refused though the process went on");
    std::printf("PASS\n");
    std::fflush(stdout);
    std::exit(0);
}

}  // namespace

int main() {
    cl_platform_id platform = nullptr;
    cl_device_id device = plaincl::heteroDevice(platform);
    counters = new plaincl::Counters(platform);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    PLAIN_CL_CHECK(err);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    PLAIN_CL_CHECK(err);
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    PLAIN_CL_CHECK(err);
    PLAIN_CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
    kernel = clCreateKernel(program, "scramble", &err);
    PLAIN_CL_CHECK(err);
    out = clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(cl_uint), nullptr, &err);
    PLAIN_CL_CHECK(err);
    int rounds = kRounds;
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 2, sizeof rounds, &rounds));
    // One launch from this thread first: its chunks ran (the gate was open), and it split.
    launchAndCheck(0);
    if (splitLaunches() != 1 || counter(CL_HETERO_SPLIT_CHUNKS) == 0) fail("the first launch did not split in chunks");
    std::thread(worker).detach();
    pthread_exit(nullptr);  // the process goes on in the worker
}
