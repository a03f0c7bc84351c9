// hetero-variants-check: builds each program and its rewritten variants program on a real device
// (the GPU by default) and checks that every splittable kernel's __hetero_chunk and __hetero_abort
// kernels exist. For corpus files, "//@ options" lines give build options (@CORPUS@ = the file's folder).
//   hetero-variants-check [--cpu] [--options "..."] file.cl...
#include "transform/transform.hpp"

#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tf = hetero::transform;

namespace {

std::string optionsIn(const std::string& source, const std::string& path) {
    const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
    std::istringstream in(source);
    std::string line, options;
    while (std::getline(in, line)) {
        if (line.rfind("//@ options ", 0) != 0) continue;
        std::string o = line.substr(12);
        for (size_t p; (p = o.find("@CORPUS@")) != std::string::npos;) o.replace(p, 8, dir);
        options += " " + o;
    }
    return options;
}

// "" if the program builds and has every kernel named, else what went wrong.
std::string buildAndFind(cl_context ctx, cl_device_id dev, const std::string& source, const std::string& options,
                         const std::vector<std::string>& kernels) {
    const char* s = source.c_str();
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, nullptr, &err);
    if (err != CL_SUCCESS) return "clCreateProgramWithSource failed";
    std::string problem;
    if (clBuildProgram(p, 1, &dev, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        problem = "build failed:\n" + log;
    }
    for (const auto& k : kernels) {
        if (!problem.empty()) break;
        cl_kernel kernel = clCreateKernel(p, k.c_str(), &err);
        if (err != CL_SUCCESS) problem = "kernel " + k + " missing";
        else clReleaseKernel(kernel);
    }
    clReleaseProgram(p);
    return problem;
}

}  // namespace

int main(int argc, char** argv) {
    bool cpu = false;
    std::string extraOptions;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--cpu")) cpu = true;
        else if (!std::strcmp(argv[i], "--options") && i + 1 < argc) extraOptions = argv[++i];
        else files.push_back(argv[i]);
    }
    cl_uint np = 0;
    clGetPlatformIDs(0, nullptr, &np);
    std::vector<cl_platform_id> platforms(np);
    clGetPlatformIDs(np, platforms.data(), nullptr);
    cl_device_id dev = nullptr;
    for (auto p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::string(name) == "Hetero") continue;
        if (clGetDeviceIDs(p, cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU, 1, &dev, nullptr) == CL_SUCCESS) break;
        dev = nullptr;
    }
    if (!dev) {
        std::fprintf(stderr, "hetero-variants-check: no %s device\n", cpu ? "CPU" : "GPU");
        return 2;
    }
    char devName[256] = {};
    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof devName, devName, nullptr);
    std::printf("device: %s\n", devName);
    cl_context ctx = clCreateContext(nullptr, 1, &dev, nullptr, nullptr, nullptr);
    int failures = 0, kernelsSplit = 0;
    for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string source = ss.str();
        const std::string options = optionsIn(source, path) + " " + extraOptions;
        const tf::ProgramAnalysis a = tf::analyze({source}, options);
        const tf::Variants v = tf::makeVariants({source}, options, a);
        std::vector<std::string> originals, expected;
        for (const auto& k : a.kernels) {
            originals.push_back(k.name);
            if (!k.splittable || v.source.find(k.name + "__hetero_chunk(") == std::string::npos) continue;
            expected.push_back(k.name + "__hetero_chunk");
            expected.push_back(k.name + "__hetero_abort");
            ++kernelsSplit;
        }
        if (buildAndFind(ctx, dev, source, options, originals).empty()) {  // else the device rejects the original
            expected.insert(expected.end(), originals.begin(), originals.end());
            const std::string problem = buildAndFind(ctx, dev, v.source, options, expected);
            std::printf("%-60s %s\n", path.c_str(), problem.empty() ? "ok" : problem.c_str());
            if (!problem.empty()) ++failures;
        } else {
            std::printf("%-60s original does not build here, skipped\n", path.c_str());
        }
    }
    std::printf("%d program(s) failed; %d kernel(s) with variants\n", failures, kernelsSplit);
    clReleaseContext(ctx);
    return failures ? 1 : 0;
}
