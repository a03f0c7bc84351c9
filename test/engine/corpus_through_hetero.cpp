// The split engine's differential test: every corpus kernel (test/transform/corpus) launched
// through Hetero — split, under the engine's random schedules — must leave every buffer bit-identical
// to the same launch on PoCL directly. Hetero is reached through the ICD loader, which shows only it
// (ocl-icd drops Hetero when PoCL is listed beside it); PoCL's platform is taken from PoCL's own ICD
// entry point, and every call on its objects still goes through the loader, which dispatches on them.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "cl_test.hpp"
#include "corpus_inputs.hpp"
#include "hetero_counters.hpp"
#include "corpus_spec.hpp"

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <string>
#include <vector>

namespace {

// The first device of a vendor ICD library, reached through its own entry point.
cl_device_id vendorDevice(const char* library) {
    void* pocl = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(pocl != nullptr);
    using GetIds = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
    using GetAddress = void*(CL_API_CALL*)(const char*);
    auto getAddress = reinterpret_cast<GetAddress>(dlsym(pocl, "clGetExtensionFunctionAddress"));
    REQUIRE(getAddress != nullptr);
    auto getIds = reinterpret_cast<GetIds>(getAddress("clIcdGetPlatformIDsKHR"));
    REQUIRE(getIds != nullptr);
    cl_platform_id platform = nullptr;
    REQUIRE(getIds(1, &platform, nullptr) == CL_SUCCESS);
    cl_device_id d = nullptr;
    REQUIRE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d, nullptr) == CL_SUCCESS);
    return d;
}

cl_device_id poclDevice() { return vendorDevice("libpocl.so.2"); }

// When Hetero wraps an NVIDIA GPU beside PoCL, the GPU's own results: the two round differently
// (docs/hazards.md, H7), and a split launch holds, element by element, what one of them computed.
cl_device_id nvidiaDevice() {
    const char* devices = std::getenv("HETERO_DEVICES");
    if (!devices || std::string(devices).find("nvidia") == std::string::npos) return nullptr;
    return vendorDevice("libnvidia-opencl.so.1");
}

using Buffers = std::vector<std::vector<unsigned char>>;

// Every scalar of `actual` equals the same scalar of `a`, or of `b` when there is a `b`.
bool eachScalarFromOneOf(const std::vector<unsigned char>& actual, const std::vector<unsigned char>& a,
                         const std::vector<unsigned char>* b, size_t scalarSize) {
    if (actual.size() != a.size() || (b && b->size() != a.size())) return false;
    if (!b) return actual == a;
    if (scalarSize == 0) scalarSize = 1;
    for (size_t i = 0; i < actual.size(); i += scalarSize) {
        size_t n = std::min(scalarSize, actual.size() - i);
        if (std::memcmp(&actual[i], &a[i], n) != 0 && std::memcmp(&actual[i], &(*b)[i], n) != 0) return false;
    }
    return true;
}

// Runs the kernel once on `device` with `inputs`; returns every buffer argument's final bytes.
Buffers run(cl_device_id device, const corpus::ProgramSpec& program, const corpus::KernelSpec& spec,
            const Buffers& inputs) {
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<const char*> sources;
    for (const auto& s : program.sources) sources.push_back(s.c_str());
    cl_program p = clCreateProgramWithSource(context, static_cast<cl_uint>(sources.size()), sources.data(), nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clBuildProgram(p, 1, &device, program.options.c_str(), nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = clCreateKernel(p, spec.name.c_str(), &err);
    REQUIRE(err == CL_SUCCESS);
    std::vector<cl_mem> mems(spec.args.size(), nullptr);
    for (cl_uint i = 0; i < spec.args.size(); ++i) {
        const auto& a = spec.args[i];
        if (a.kind == corpus::ArgKind::Global || a.kind == corpus::ArgKind::Constant) {
            mems[i] = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, inputs[i].size(),
                                     const_cast<unsigned char*>(inputs[i].data()), &err);
            REQUIRE(err == CL_SUCCESS);
            REQUIRE(clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]) == CL_SUCCESS);
        } else if (a.kind == corpus::ArgKind::Local) {
            REQUIRE(clSetKernelArg(k, i, a.localBytes, nullptr) == CL_SUCCESS);
        } else {
            REQUIRE(clSetKernelArg(k, i, a.valueBytes.size(), a.valueBytes.data()) == CL_SUCCESS);
        }
    }
    const auto& r = spec.ndrange;
    REQUIRE(clEnqueueNDRangeKernel(queue, k, r.dims, r.offset, r.global, r.local, 0, nullptr, nullptr) == CL_SUCCESS);
    Buffers out(spec.args.size());
    for (size_t i = 0; i < mems.size(); ++i) {
        if (!mems[i]) continue;
        out[i].resize(inputs[i].size());
        REQUIRE(clEnqueueReadBuffer(queue, mems[i], CL_TRUE, 0, out[i].size(), out[i].data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        clReleaseMemObject(mems[i]);
    }
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return out;
}

// The kernels the engine splits (refused ones run whole, as the ICD tests cover; some of them write
// through made-up addresses by design and are only analysed).
bool runnable(const corpus::KernelSpec& spec) {
    if (!spec.expectSplittable || !spec.hasNDRange || spec.requiresCl20 || spec.requiresNonUniform) return false;
    for (const auto& a : spec.args)
        if (a.kind == corpus::ArgKind::Image) return false;
    return true;
}

}  // namespace

// Bit for bit equal to PoCL when Hetero wraps PoCL devices only; with NVIDIA beside PoCL, every
// scalar bit for bit equal to what PoCL or NVIDIA computed on its own.
TEST_CASE("every corpus kernel through Hetero equals PoCL bit for bit", "[engine][corpus]") {
    cl_device_id pocl = poclDevice();
    cl_device_id nvidia = nvidiaDevice();
    cl_device_id hetero = cltest::heteroDevice();
    size_t ran = 0;
    for (const auto& program : corpus::loadCorpus(HETERO_CORPUS_DIR)) {
        for (const auto& spec : program.kernels) {
            if (!runnable(spec)) continue;
            DYNAMIC_SECTION(spec.testId) {
                for (uint64_t seed = 1; seed <= 2; ++seed) {
                    Buffers inputs = corpus::initialBuffers(spec, seed);
                    Buffers expected = run(pocl, program, spec, inputs);
                    Buffers onGpu = nvidia ? run(nvidia, program, spec, inputs) : Buffers{};
                    Buffers actual = run(hetero, program, spec, inputs);
                    for (size_t i = 0; i < expected.size(); ++i) {
                        INFO(spec.testId << " argument " << spec.args[i].name << " seed " << seed);
                        CHECK(eachScalarFromOneOf(actual[i], expected[i], nvidia ? &onGpu[i] : nullptr,
                                                  spec.args[i].scalarSize));
                    }
                }
                ++ran;
            }
        }
    }
    CHECK(ran > 0);
}

// Run after the corpus (declaration order) where the configuration makes slots stand in for GPUs
// (HETERO_TEST_EXPECT_NWAY, test/engine/CMakeLists.txt): the corpus above went through the N-way
// engine (platform/split/nway_split.hpp), not only the GPU + CPU pair.
TEST_CASE("the corpus split N-way where two slots are GPUs", "[engine][corpus]") {
    if (!std::getenv("HETERO_TEST_EXPECT_NWAY")) return;
    const cltest::Counters c = cltest::Counters::read(cltest::heteroPlatform());
    CHECK(c[CL_HETERO_LAUNCHES_SPLIT_NWAY] > 0);
}
