#define CL_TARGET_OPENCL_VERSION 300
#include "through_icd.hpp"

#include "corpus_inputs.hpp"

#include <CL/cl.h>
#include <CL/cl_ext_hetero.h>

#include <dlfcn.h>

#include <cstring>
#include <vector>

namespace fuzz {

struct IcdTarget {
    cl_device_id native = nullptr;
    cl_device_id hetero = nullptr;
    cl_platform_id heteroPlatform = nullptr;
    clGetHeteroCountersEXT_fn counters = nullptr;
};

namespace {

// PoCL's first device through its own ICD entry point (the loader shows Hetero alone, and ocl-icd
// drops Hetero when PoCL is listed beside it); calls on its objects still dispatch through the loader.
cl_device_id poclDevice(std::string& error) {
    void* pocl = dlopen("libpocl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!pocl) return error = "cannot load libpocl.so.2", nullptr;
    using GetIds = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
    using GetAddress = void*(CL_API_CALL*)(const char*);
    auto getAddress = reinterpret_cast<GetAddress>(dlsym(pocl, "clGetExtensionFunctionAddress"));
    auto getIds = getAddress ? reinterpret_cast<GetIds>(getAddress("clIcdGetPlatformIDsKHR")) : nullptr;
    cl_platform_id platform = nullptr;
    cl_device_id d = nullptr;
    if (!getIds || getIds(1, &platform, nullptr) != CL_SUCCESS ||
        clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) != CL_SUCCESS)
        return error = "no PoCL device", nullptr;
    return d;
}

cl_platform_id heteroPlatform(std::string& error) {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, nullptr, &n) != CL_SUCCESS || n == 0) return error = "no platform", nullptr;
    std::vector<cl_platform_id> platforms(n);
    clGetPlatformIDs(n, platforms.data(), nullptr);
    for (auto p : platforms) {
        char name[256] = {};
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
        if (std::string(name) == "Hetero") return p;
    }
    return error = "no platform named Hetero through the ICD loader", nullptr;
}

cl_ulong splitLaunches(const IcdTarget& t) {
    cl_ulong v[CL_HETERO_COUNTER_COUNT] = {};
    if (!t.counters || t.counters(t.heteroPlatform, CL_HETERO_COUNTER_COUNT, v, nullptr) != CL_SUCCESS) return 0;
    return v[CL_HETERO_LAUNCHES_SPLIT_DISCRETE] + v[CL_HETERO_LAUNCHES_SPLIT_UNIFIED] + v[CL_HETERO_LAUNCHES_SPLIT_NWAY];
}

using Buffers = std::vector<std::vector<unsigned char>>;

struct Session {
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    ~Session() {
        if (program) clReleaseProgram(program);
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }
};

// Builds `p` on `device` in a fresh context; the status of clBuildProgram.
cl_int build(cl_device_id device, const Program& p, Session& s) {
    cl_int err = CL_SUCCESS;
    s.context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return err;
    s.queue = clCreateCommandQueueWithProperties(s.context, device, nullptr, &err);
    if (err != CL_SUCCESS) return err;
    std::vector<const char*> strings;
    std::vector<size_t> lengths;
    for (const auto& src : p.sources) {
        strings.push_back(src.data());
        lengths.push_back(src.size());
    }
    s.program = clCreateProgramWithSource(s.context, static_cast<cl_uint>(strings.size()), strings.data(),
                                          lengths.data(), &err);
    if (err != CL_SUCCESS) return err;
    return clBuildProgram(s.program, 1, &device, p.options.c_str(), nullptr, nullptr);
}

// One launch of `k` with `inputs`; every buffer argument's final bytes, or an error text.
std::string launch(Session& s, const corpus::KernelSpec& k, const Buffers& inputs, Buffers& out) {
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(s.program, k.name.c_str(), &err);
    if (err != CL_SUCCESS) return "clCreateKernel(" + k.name + ") " + std::to_string(err);
    std::vector<cl_mem> mems(k.args.size(), nullptr);
    std::string problem;
    for (cl_uint i = 0; i < k.args.size() && problem.empty(); ++i) {
        const auto& a = k.args[i];
        if (a.kind == corpus::ArgKind::Global || a.kind == corpus::ArgKind::Constant) {
            mems[i] = clCreateBuffer(s.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, inputs[i].size(),
                                     const_cast<unsigned char*>(inputs[i].data()), &err);
            if (err == CL_SUCCESS) err = clSetKernelArg(kernel, i, sizeof(cl_mem), &mems[i]);
        } else if (a.kind == corpus::ArgKind::Local) {
            err = clSetKernelArg(kernel, i, a.localBytes, nullptr);
        } else {
            err = clSetKernelArg(kernel, i, a.valueBytes.size(), a.valueBytes.data());
        }
        if (err != CL_SUCCESS) problem = "argument " + std::to_string(i) + ": " + std::to_string(err);
    }
    const auto& r = k.ndrange;
    if (problem.empty() &&
        (err = clEnqueueNDRangeKernel(s.queue, kernel, r.dims, r.offset, r.global, r.local, 0, nullptr, nullptr)) !=
            CL_SUCCESS)
        problem = "clEnqueueNDRangeKernel " + std::to_string(err);
    out.assign(k.args.size(), {});
    for (size_t i = 0; i < mems.size(); ++i) {
        if (!mems[i]) continue;
        out[i].resize(inputs[i].size());
        if (problem.empty() && (err = clEnqueueReadBuffer(s.queue, mems[i], CL_TRUE, 0, out[i].size(), out[i].data(),
                                                          0, nullptr, nullptr)) != CL_SUCCESS)
            problem = "clEnqueueReadBuffer " + std::to_string(err);
        clReleaseMemObject(mems[i]);
    }
    clReleaseKernel(kernel);
    return problem;
}

}  // namespace

bool launchable(const corpus::KernelSpec& k) {
    if (!k.expectSplittable || !k.hasNDRange || k.requiresCl20 || k.requiresNonUniform) return false;
    for (const auto& a : k.args)
        if (a.kind == corpus::ArgKind::Image) return false;
    return true;
}

IcdTarget* openIcdTarget(std::string& error) {
    auto* t = new IcdTarget;
    t->heteroPlatform = heteroPlatform(error);
    if (!t->heteroPlatform || clGetDeviceIDs(t->heteroPlatform, CL_DEVICE_TYPE_ALL, 1, &t->hetero, nullptr) != CL_SUCCESS)
        return error = error.empty() ? "no Hetero device" : error, nullptr;
    t->native = poclDevice(error);
    if (!t->native) return nullptr;
    t->counters = reinterpret_cast<clGetHeteroCountersEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(t->heteroPlatform, "clGetHeteroCountersEXT"));
    return t;
}

IcdResult buildAndCompare(IcdTarget& t, const Program& p, const corpus::ProgramSpec& spec, uint64_t inputSeed) {
    IcdResult r;
    Session native, hetero;
    const cl_int nativeStatus = build(t.native, p, native);
    const cl_int heteroStatus = build(t.hetero, p, hetero);
    r.nativeBuilt = nativeStatus == CL_SUCCESS;
    r.heteroBuilt = heteroStatus == CL_SUCCESS;
    if (r.nativeBuilt != r.heteroBuilt) {
        r.problem = "clBuildProgram answered " + std::to_string(heteroStatus) + " through Hetero and " +
                    std::to_string(nativeStatus) + " on PoCL";
        return r;
    }
    if (!r.nativeBuilt) return r;
    for (const auto& k : spec.kernels) {
        if (!launchable(k)) continue;
        const Buffers inputs = corpus::initialBuffers(k, inputSeed);
        Buffers expected, actual;
        std::string e = launch(native, k, inputs, expected);
        if (!e.empty()) continue;  // the mutant broke this kernel's launch on PoCL itself
        const cl_ulong splitBefore = splitLaunches(t);
        e = launch(hetero, k, inputs, actual);
        if (!e.empty()) {
            r.problem = "kernel " + k.name + " launches on PoCL but not through Hetero: " + e;
            return r;
        }
        ++r.launchesCompared;
        if (splitLaunches(t) > splitBefore) ++r.launchesSplit;
        for (size_t i = 0; i < expected.size(); ++i)
            if (expected[i] != actual[i]) {
                r.problem = "kernel " + k.name + " argument " + k.args[i].name + " differs from PoCL's result";
                return r;
            }
    }
    return r;
}

}  // namespace fuzz
