// cl_hetero_counters through the ICD loader: where the extension is named, how the function is
// found, its errors, and how the counters move for a known sequence (write 1 MiB, launch, read back,
// map). Counters are process-wide, so every check compares before and after.
#include "cl_test.hpp"

#include <CL/cl_ext_hetero.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

using cltest::Env;
using cltest::setArg;

namespace {

const char* kKernels = R"(
    __kernel void increment(__global int* v) { v[get_global_id(0)] += 1; }
    __kernel void single(__global int* v) { v[0] += 100; })";

clGetHeteroCountersEXT_fn countersFunction(cl_platform_id platform) {
    auto fn = reinterpret_cast<clGetHeteroCountersEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"));
    REQUIRE(fn != nullptr);
    return fn;
}

struct Counters {
    cl_ulong v[CL_HETERO_COUNTER_COUNT] = {};
    static Counters read(cl_platform_id platform) {
        Counters c;
        cl_uint n = 0;
        REQUIRE(countersFunction(platform)(platform, CL_HETERO_COUNTER_COUNT, c.v, &n) == CL_SUCCESS);
        REQUIRE(n == CL_HETERO_COUNTER_COUNT);
        return c;
    }
    cl_ulong operator[](int i) const { return v[i]; }
};

std::string platformString(cl_platform_id p, cl_platform_info what) {
    size_t n = 0;
    REQUIRE(clGetPlatformInfo(p, what, 0, nullptr, &n) == CL_SUCCESS);
    std::string s(n, '\0');
    REQUIRE(clGetPlatformInfo(p, what, n, s.data(), nullptr) == CL_SUCCESS);
    return s.c_str();
}

}  // namespace

TEST_CASE("cl_hetero_counters is a platform extension, found by name", "[counters]") {
    cl_platform_id platform = cltest::heteroPlatform();
    std::string extensions = platformString(platform, CL_PLATFORM_EXTENSIONS);
    CHECK(extensions.find(CL_HETERO_COUNTERS_EXTENSION_NAME) != std::string::npos);

    size_t n = 0;
    REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_name_version> versioned(n / sizeof(cl_name_version));
    REQUIRE(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, versioned.data(), nullptr) == CL_SUCCESS);
    bool listed = false;
    for (const auto& e : versioned) listed = listed || std::strcmp(e.name, CL_HETERO_COUNTERS_EXTENSION_NAME) == 0;
    CHECK(listed);

    // Not the device's: the counters belong to the process, not to what the device supports.
    cl_device_id device = cltest::heteroDevice();
    REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &n) == CL_SUCCESS);
    std::string deviceExtensions(n, '\0');
    REQUIRE(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, n, deviceExtensions.data(), nullptr) == CL_SUCCESS);
    CHECK(deviceExtensions.find(CL_HETERO_COUNTERS_EXTENSION_NAME) == std::string::npos);

    void* viaPlatform = clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT");
    CHECK(viaPlatform != nullptr);
    CHECK(clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersNOPE") == nullptr);
    // The library's own clGetExtensionFunctionAddress (what the Khronos loader asks every vendor;
    // ocl-icd only forwards names ending in the platform's suffix, HETERO) gives the same function.
    void* library = dlopen(HETERO_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(library != nullptr);
    auto exported = reinterpret_cast<void*(CL_API_CALL*)(const char*)>(dlsym(library, "clGetExtensionFunctionAddress"));
    REQUIRE(exported != nullptr);
    CHECK(exported("clGetHeteroCountersEXT") == viaPlatform);
    dlclose(library);
}

TEST_CASE("clGetHeteroCountersEXT refuses bad arguments as cl_ext_hetero.h says", "[counters]") {
    cl_platform_id platform = cltest::heteroPlatform();
    auto get = countersFunction(platform);
    cl_ulong values[CL_HETERO_COUNTER_COUNT + 4];
    cl_uint n = 0;

    CHECK(get(nullptr, CL_HETERO_COUNTER_COUNT, values, &n) == CL_INVALID_PLATFORM);
    // Another object's handle (the device) is not a platform; it is rejected without being used.
    auto notPlatform = reinterpret_cast<cl_platform_id>(cltest::heteroDevice());
    CHECK(get(notPlatform, CL_HETERO_COUNTER_COUNT, values, &n) == CL_INVALID_PLATFORM);
    cl_ulong onStack = 0;
    CHECK(get(reinterpret_cast<cl_platform_id>(&onStack), 1, values, &n) == CL_INVALID_PLATFORM);
    CHECK(get(platform, 1, nullptr, &n) == CL_INVALID_VALUE);

    // How many exist, without values.
    n = 0;
    CHECK(get(platform, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == CL_HETERO_COUNTER_COUNT);
    CHECK(get(platform, 0, nullptr, nullptr) == CL_SUCCESS);
    // Fewer than exist: only those are written.
    const cl_ulong untouched = 0xfeedfacecafebeefull;
    for (auto& v : values) v = untouched;
    n = 0;
    CHECK(get(platform, 3, values, &n) == CL_SUCCESS);
    CHECK(n == CL_HETERO_COUNTER_COUNT);
    CHECK(values[3] == untouched);
    // More than exist: the extra entries are left alone.
    CHECK(get(platform, CL_HETERO_COUNTER_COUNT + 4, values, nullptr) == CL_SUCCESS);
    CHECK(values[CL_HETERO_COUNTER_COUNT] == untouched);
    CHECK(values[CL_HETERO_WORK_GROUPS_CPU] <= values[CL_HETERO_WORK_GROUPS_TOTAL]);
}

TEST_CASE("write 1 MiB, launch, read back, map: the counters move by what was done", "[counters]") {
    Env env;
    const size_t n = (1 << 20) / sizeof(cl_int), local = 64;
    std::vector<cl_int> data(n);
    for (size_t i = 0; i < n; ++i) data[i] = cl_int(i);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_program p = env.build(kKernels);
    cl_kernel increment = env.kernel(p, "increment"), single = env.kernel(p, "single");
    setArg(increment, 0, buf);
    setArg(single, 0, buf);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    Counters before = Counters::read(env.platform);

    REQUIRE(clEnqueueWriteBuffer(env.queue, buf, CL_TRUE, 0, n * sizeof(cl_int), data.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    // One launch with a local size, one without (counted with the split engine's choice: 64 here,
    // which divides n), one task (one work-group).
    REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, increment, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueTask(env.queue, single, 0, nullptr, nullptr) == CL_SUCCESS);
    auto back = env.read<cl_int>(buf, n);
    CHECK(back[0] == 102);
    CHECK(back[n - 1] == cl_int(n - 1 + 2));
    cl_int err = CL_SUCCESS;
    void* mapped = clEnqueueMapBuffer(env.queue, buf, CL_TRUE, CL_MAP_READ, 0, n * sizeof(cl_int), 0, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(static_cast<cl_int*>(mapped)[1] == 3);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, buf, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    Counters after = Counters::read(env.platform);
    auto delta = [&](int i) { return after[i] - before[i]; };

    const cl_ulong mib = 1 << 20, groups = n / local;
    // Application transfers go straight to the slot; only migrations of Hetero's copies count.
    const char* runOn = std::getenv("HETERO_RUN_ON");
    if (runOn && std::string(runOn) == "1") {
        // Slot 1 is a CPU slot: its copy is the host copy (platform/memory/discrete_storage.hpp). The write
        // (the application's, not counted) goes through it to slot 0, so the launch on slot 1 and
        // the map need nothing more.
        INFO("two slots: written through the host copy (slot 1's copy) to slot 0, launched on slot 1");
        CHECK(delta(CL_HETERO_BYTES_DEVICE_TO_HOST) == 0);
        CHECK(delta(CL_HETERO_BYTES_HOST_TO_DEVICE) == 0);
    } else {
        INFO("one slot: only the map brings the contents to the host");
        CHECK(delta(CL_HETERO_BYTES_DEVICE_TO_HOST) == mib);
        CHECK(delta(CL_HETERO_BYTES_HOST_TO_DEVICE) == 0);
    }
    CHECK(delta(CL_HETERO_BYTES_BETWEEN_DEVICES) == 0);
    CHECK(delta(CL_HETERO_MERGES) == 0);
    CHECK(delta(CL_HETERO_LAUNCHES_WHOLE) == 3);
    CHECK(delta(CL_HETERO_LAUNCHES_SPLIT_DISCRETE) == 0);
    CHECK(delta(CL_HETERO_LAUNCHES_SPLIT_UNIFIED) == 0);
    CHECK(delta(CL_HETERO_WORK_GROUPS_TOTAL) == 2 * groups + 1);
    // Every slot here is PoCL, a CPU device.
    CHECK(delta(CL_HETERO_WORK_GROUPS_CPU) == 2 * groups + 1);
    clReleaseKernel(increment), clReleaseKernel(single), clReleaseProgram(p), clReleaseMemObject(buf);
}
