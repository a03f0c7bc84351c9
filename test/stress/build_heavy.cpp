// A build-heavy application, for measuring what clBuildProgram costs through Hetero against the
// backend alone (the CTS's test_api and astype build hundreds of small programs):
//
//   hetero_build_heavy [--platform NAME] [--programs N] [--launch]
//
// Builds N programs (each source distinct, so that no compiler cache answers), each with a few
// kernels like the CTS's; with --launch, runs one kernel of each once and reads its result (as
// astype does). Prints "programs=N build_s=... total_s=... result=PASS|FAIL".
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

#define CHECK(call)                                                                     \
    do {                                                                                \
        cl_int err_ = (call);                                                           \
        if (err_ != CL_SUCCESS) {                                                       \
            std::fprintf(stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, err_); \
            std::exit(2);                                                               \
        }                                                                               \
    } while (0)

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string source(int n) {
    // The nonce keeps every program distinct; the kernels are splittable and ordinary.
    return "// program " + std::to_string(n) + " of a build-heavy run, nonce " + std::to_string(now()) + "\n" +
           "#define SCALE " + std::to_string(n % 7 + 1) + "\n"
           "float helper(float x) { return x * SCALE + 1.0f; }\n"
           "__kernel void convert(__global const int* in, __global float* out) {\n"
           "    size_t i = get_global_id(0);\n"
           "    out[i] = helper(convert_float(in[i]));\n"
           "}\n"
           "__kernel void scale(__global float* data, float by) {\n"
           "    size_t i = get_global_id(0);\n"
           "    for (int k = 0; k < 4; ++k) data[i] = data[i] * by;\n"
           "}\n"
           "__kernel void sum_rows(__global const float* m, __global float* rows, int width) {\n"
           "    size_t r = get_global_id(0);\n"
           "    float s = 0;\n"
           "    for (int c = 0; c < width; ++c) s += m[r * width + c];\n"
           "    rows[r] = s;\n"
           "}\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::string platformName = "Hetero";
    int programs = 20;
    bool launch = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--platform" && i + 1 < argc) platformName = argv[++i];
        else if (a == "--programs" && i + 1 < argc) programs = std::atoi(argv[++i]);
        else if (a == "--launch") launch = true;
        else {
            std::fprintf(stderr, "usage: %s [--platform NAME] [--programs N] [--launch]\n", argv[0]);
            return 2;
        }
    }
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(0, nullptr, &n));
    std::vector<cl_platform_id> platforms(n);
    CHECK(clGetPlatformIDs(n, platforms.data(), nullptr));
    cl_platform_id platform = nullptr;
    for (cl_platform_id p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::strstr(name, platformName.c_str())) platform = p;
    }
    if (!platform) {
        std::fprintf(stderr, "no platform named like '%s'\n", platformName.c_str());
        return 2;
    }
    cl_device_id device = nullptr;
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);

    constexpr size_t kItems = 1024;
    std::vector<int> input(kItems);
    for (size_t i = 0; i < kItems; ++i) input[i] = static_cast<int>(i) - 500;
    cl_mem in = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(int) * kItems, input.data(), &err);
    CHECK(err);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, sizeof(float) * kItems, nullptr, &err);
    CHECK(err);

    bool ok = true;
    double buildSeconds = 0;
    const double start = now();
    for (int p = 0; p < programs; ++p) {
        std::string text = source(p);
        const char* s = text.c_str();
        cl_program program = clCreateProgramWithSource(context, 1, &s, nullptr, &err);
        CHECK(err);
        const double t0 = now();
        CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
        buildSeconds += now() - t0;
        cl_kernel kernels[3];
        const char* names[3] = {"convert", "scale", "sum_rows"};
        for (int k = 0; k < 3; ++k) {
            kernels[k] = clCreateKernel(program, names[k], &err);
            CHECK(err);
        }
        if (launch) {
            CHECK(clSetKernelArg(kernels[0], 0, sizeof in, &in));
            CHECK(clSetKernelArg(kernels[0], 1, sizeof out, &out));
            size_t global = kItems, local = 64;
            CHECK(clEnqueueNDRangeKernel(queue, kernels[0], 1, nullptr, &global, &local, 0, nullptr, nullptr));
            std::vector<float> result(kItems);
            CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(float) * kItems, result.data(), 0, nullptr, nullptr));
            const float scale = static_cast<float>(p % 7 + 1);
            for (size_t i = 0; i < kItems; ++i)
                if (result[i] != static_cast<float>(input[i]) * scale + 1.0f) ok = false;
        }
        for (cl_kernel k : kernels) clReleaseKernel(k);
        clReleaseProgram(program);
    }
    const double total = now() - start;
    std::printf("programs=%d build_s=%.2f total_s=%.2f result=%s\n", programs, buildSeconds, total, ok ? "PASS" : "FAIL");
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return ok ? 0 : 1;
}
