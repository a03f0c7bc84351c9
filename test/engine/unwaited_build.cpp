// A launch that starts the build of its kernel's split variants runs whole and completes without
// waiting for that build (auto mode: platform/split/decision.cpp, holdsBuild); the end of the
// application waits for it instead (platform/split/thread_end.hpp),
// before any exit handler runs, those registered after the build started included (LLVM
// registers some during a compile, and the compiler must not run on past them).
//
//   hetero_unwaited_build return|exit|thread
//
// The test's environment holds the build back (HETERO_TEST_VARIANTS_BUILD_DELAY_MS) and gives the
// CPU a fixed share (HETERO_CPU_SHARE), so that the first launch would split. After the launch's
// clFinish the build must still be under way (CL_HETERO_VARIANT_BUILDS unchanged), and the result
// right. Then:
//   return: main returns; exit: std::exit from main. An exit handler registered after the launch
//           checks that the build had ended before it ran.
//   thread: the launch is made by a thread of its own, joined by main: the build has ended when
//           the join returns.
// Prints PASS when every check held; any failed check exits with status 1.
#define CL_TARGET_OPENCL_VERSION 300
#include "plain_counters.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

const char* kSource = R"(
__kernel void triple(__global int* out, __global const int* in) {
    size_t i = get_global_id(0);
    out[i] = 3 * in[i];
}
)";

constexpr size_t kItems = 1 << 16;

using plaincl::fail;
const plaincl::Counters* counters = nullptr;  // the process's to its end (read by an exit handler)
cl_ulong buildsBefore = 0;

cl_ulong variantBuilds() { return (*counters)[CL_HETERO_VARIANT_BUILDS]; }

cl_device_id heteroDevice() {
    cl_platform_id platform = nullptr;
    cl_device_id d = plaincl::heteroDevice(platform);
    counters = new plaincl::Counters(platform);
    return d;
}

// Builds the program, launches `triple` once and waits for it: the launch is complete, the
// variants' build it started is not, the result is right. Leaves every object unreleased, as an
// application that exits at once may.
void launchOnce(cl_context context, cl_device_id device) {
    cl_int err = CL_SUCCESS;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    PLAIN_CL_CHECK(err);
    cl_program program = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    PLAIN_CL_CHECK(err);
    PLAIN_CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
    cl_kernel kernel = clCreateKernel(program, "triple", &err);
    PLAIN_CL_CHECK(err);
    std::vector<cl_int> input(kItems);
    for (size_t i = 0; i < kItems; ++i) input[i] = static_cast<cl_int>(i);
    cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, kItems * sizeof(cl_int), input.data(), &err);
    PLAIN_CL_CHECK(err);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &err);
    PLAIN_CL_CHECK(err);
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 0, sizeof out, &out));
    PLAIN_CL_CHECK(clSetKernelArg(kernel, 1, sizeof in, &in));
    buildsBefore = variantBuilds();
    size_t global = kItems, local = 64;
    PLAIN_CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    PLAIN_CL_CHECK(clFinish(queue));
    if (variantBuilds() != buildsBefore) fail("the launch completed only after the variants' build");
    std::vector<cl_int> result(kItems);
    PLAIN_CL_CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, kItems * sizeof(cl_int), result.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < kItems; ++i)
        if (result[i] != 3 * static_cast<cl_int>(i)) fail("wrong result");
}

// Registered after the build started: runs before every exit handler registered earlier.
void buildOverAtExit() {
    if (variantBuilds() == buildsBefore) fail("an exit handler ran while the variants' build was under way");
    std::printf("PASS\n");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "return";
    if (mode != "return" && mode != "exit" && mode != "thread") fail("mode: return, exit or thread");
    cl_device_id device = heteroDevice();
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    PLAIN_CL_CHECK(err);
    if (mode == "thread") {
        std::thread launcher([&] { launchOnce(context, device); });
        launcher.join();
        if (variantBuilds() == buildsBefore) fail("the launching thread ended while the variants' build was under way");
        std::printf("PASS\n");
        return 0;
    }
    launchOnce(context, device);
    std::atexit(buildOverAtExit);
    if (mode == "exit") std::exit(0);
    return 0;
}
