// The platform and its one virtual device as the OpenCL 3.0 API describes them: info queries,
// their size rules, device selection by type, and the optional features a 3.0 device may lack.
#include "cl_test.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string platformString(cl_platform_id p, cl_platform_info param) {
    size_t n = 0;
    REQUIRE(clGetPlatformInfo(p, param, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n > 0);
    std::string s(n, '\0');
    size_t again = 0;
    REQUIRE(clGetPlatformInfo(p, param, n, s.data(), &again) == CL_SUCCESS);
    CHECK(again == n);
    CHECK(s.back() == '\0');  // strings come with their terminator counted
    s.pop_back();
    return s;
}

std::string deviceString(cl_device_id d, cl_device_info param) {
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, param, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n > 0);
    std::string s(n, '\0');
    REQUIRE(clGetDeviceInfo(d, param, n, s.data(), nullptr) == CL_SUCCESS);
    CHECK(s.back() == '\0');
    s.pop_back();
    return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info param) {
    T v{};
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, param, sizeof v, &v, &n) == CL_SUCCESS);
    CHECK(n == sizeof v);
    return v;
}

std::set<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::set<std::string> out;
    for (std::string w; in >> w;) out.insert(w);
    return out;
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

}  // namespace

TEST_CASE("api: platform info strings follow the 3.0 formats", "[api][platform]") {
    cl_platform_id p = cltest::heteroPlatform();
    CHECK(platformString(p, CL_PLATFORM_NAME) == "Hetero");
    CHECK(platformString(p, CL_PLATFORM_PROFILE) == "FULL_PROFILE");
    CHECK(startsWith(platformString(p, CL_PLATFORM_VERSION), "OpenCL 3.0 "));
    CHECK(words(platformString(p, CL_PLATFORM_EXTENSIONS)).count("cl_khr_icd") == 1);
    CHECK_FALSE(platformString(p, CL_PLATFORM_VENDOR).empty());

    cl_version numeric = 0;
    REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, nullptr) == CL_SUCCESS);
    CHECK(CL_VERSION_MAJOR(numeric) == 3);
    CHECK(CL_VERSION_MINOR(numeric) == 0);

    // Every name of CL_PLATFORM_EXTENSIONS appears in the versioned list, and only those.
    size_t n = 0;
    REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n % sizeof(cl_name_version) == 0);
    std::vector<cl_name_version> list(n / sizeof(cl_name_version));
    REQUIRE(clGetPlatformInfo(p, CL_PLATFORM_EXTENSIONS_WITH_VERSION, n, list.data(), nullptr) == CL_SUCCESS);
    std::set<std::string> versioned;
    for (const auto& nv : list) versioned.insert(nv.name);
    CHECK(versioned == words(platformString(p, CL_PLATFORM_EXTENSIONS)));
}

TEST_CASE("api: platform info rejects unknown names and short buffers", "[api][platform]") {
    cl_platform_id p = cltest::heteroPlatform();
    char tiny[3] = {};
    CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof tiny, tiny, nullptr) == CL_INVALID_VALUE);
    char buffer[64] = {};
    CHECK(clGetPlatformInfo(p, 0x7fff, sizeof buffer, buffer, nullptr) == CL_INVALID_VALUE);
    // A value buffer with a size of 0 is not a query.
    CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, buffer, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("api: extension functions are found by name for the platform", "[api][platform]") {
    cl_platform_id p = cltest::heteroPlatform();
    CHECK(clGetExtensionFunctionAddressForPlatform(p, "clNoSuchFunctionHETERO") == nullptr);
    CHECK(clGetExtensionFunctionAddressForPlatform(p, "clIcdGetPlatformIDsKHR") != nullptr);
}

TEST_CASE("api: clGetPlatformIDs checks its arguments", "[api][platform]") {
    cl_platform_id p = nullptr;
    CHECK(clGetPlatformIDs(0, &p, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetPlatformIDs(0, nullptr, nullptr) == CL_INVALID_VALUE);
    cl_uint n = 0;
    REQUIRE(clGetPlatformIDs(0, nullptr, &n) == CL_SUCCESS);
    CHECK(n >= 1);
}

TEST_CASE("api: clGetDeviceIDs selects the virtual device by type", "[api][device]") {
    cl_platform_id p = cltest::heteroPlatform();
    cl_device_id all = nullptr;
    cl_uint n = 0;
    REQUIRE(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &all, &n) == CL_SUCCESS);
    CHECK(n == 1);
    REQUIRE(all != nullptr);

    cl_device_id byDefault = nullptr;
    REQUIRE(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &byDefault, nullptr) == CL_SUCCESS);
    CHECK(byDefault == all);

    // The device answers to each type bit it reports, and to no type it lacks.
    cl_device_type type = deviceValue<cl_device_type>(all, CL_DEVICE_TYPE);
    CHECK((type & ~CL_DEVICE_TYPE_DEFAULT) != 0);
    for (cl_device_type bit : {CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_CUSTOM}) {
        cl_device_id d = nullptr;
        cl_uint count = 99;
        cl_int err = clGetDeviceIDs(p, bit, 1, &d, &count);
        if (type & bit) {
            CHECK(err == CL_SUCCESS);
            CHECK(d == all);
        } else {
            CHECK(err == CL_DEVICE_NOT_FOUND);
            CHECK(count == 0);
        }
    }
}

TEST_CASE("api: clGetDeviceIDs rejects bad types and counts", "[api][device]") {
    cl_platform_id p = cltest::heteroPlatform();
    cl_device_id d = nullptr;
    cl_uint n = 0;
    CHECK(clGetDeviceIDs(p, cl_device_type(1) << 40, 1, &d, &n) == CL_INVALID_DEVICE_TYPE);
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, &d, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, nullptr, nullptr) == CL_INVALID_VALUE);
}

TEST_CASE("api: device identity and version queries", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    CHECK(deviceValue<cl_platform_id>(d, CL_DEVICE_PLATFORM) == cltest::heteroPlatform());
    CHECK(startsWith(deviceString(d, CL_DEVICE_NAME), "Hetero"));
    CHECK(startsWith(deviceString(d, CL_DEVICE_VERSION), "OpenCL 3.0 "));
    CHECK(startsWith(deviceString(d, CL_DEVICE_OPENCL_C_VERSION), "OpenCL C 1."));
    std::string profile = deviceString(d, CL_DEVICE_PROFILE);
    CHECK((profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE"));
    cl_version numeric = deviceValue<cl_version>(d, CL_DEVICE_NUMERIC_VERSION);
    CHECK(CL_VERSION_MAJOR(numeric) == 3);
    CHECK(deviceValue<cl_bool>(d, CL_DEVICE_AVAILABLE) == CL_TRUE);
    CHECK(deviceValue<cl_bool>(d, CL_DEVICE_COMPILER_AVAILABLE) == CL_TRUE);
    CHECK(deviceValue<cl_bool>(d, CL_DEVICE_LINKER_AVAILABLE) == CL_TRUE);
    CHECK(deviceValue<cl_device_id>(d, CL_DEVICE_PARENT_DEVICE) == nullptr);
    CHECK(deviceValue<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);

    // A root device: retain and release succeed and change nothing.
    CHECK(clRetainDevice(d) == CL_SUCCESS);
    CHECK(clReleaseDevice(d) == CL_SUCCESS);
    CHECK(deviceValue<cl_uint>(d, CL_DEVICE_REFERENCE_COUNT) == 1);
}

TEST_CASE("api: device work-size limits are consistent", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    cl_uint dims = deviceValue<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
    CHECK(dims >= 3);
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == dims * sizeof(size_t));
    std::vector<size_t> sizes(dims);
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, n, sizes.data(), nullptr) == CL_SUCCESS);
    size_t group = deviceValue<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    CHECK(group >= 1);
    for (size_t s : sizes) CHECK(s >= 1);
    CHECK(deviceValue<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS) >= 1);

    cl_ulong global = deviceValue<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
    cl_ulong alloc = deviceValue<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    CHECK(alloc > 0);
    CHECK(alloc <= global);
    // Sub-buffer origins are checked against this alignment (in bits), which holds any type.
    cl_uint align = deviceValue<cl_uint>(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    CHECK(align >= 8 * sizeof(cl_long16));
}

TEST_CASE("api: extension string and versioned list name the same extensions", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    std::set<std::string> names = words(deviceString(d, CL_DEVICE_EXTENSIONS));
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_name_version> list(n / sizeof(cl_name_version));
    if (n) REQUIRE(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS_WITH_VERSION, n, list.data(), nullptr) == CL_SUCCESS);
    std::set<std::string> versioned;
    for (const auto& nv : list) versioned.insert(nv.name);
    CHECK(versioned == names);

    // OpenCL C 1.2 is available on every 3.0 full-profile device that has a compiler.
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_name_version> cVersions(n / sizeof(cl_name_version));
    REQUIRE(!cVersions.empty());
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, n, cVersions.data(), nullptr) == CL_SUCCESS);
    CHECK(std::any_of(cVersions.begin(), cVersions.end(),
                      [](const cl_name_version& v) { return v.version == CL_MAKE_VERSION(1, 2, 0); }));
}

TEST_CASE("api: every OpenCL 3.0 core device query is answered", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    const cl_device_info params[] = {
        CL_DEVICE_TYPE, CL_DEVICE_VENDOR_ID, CL_DEVICE_MAX_COMPUTE_UNITS, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
        CL_DEVICE_MAX_WORK_ITEM_SIZES, CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT,
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, CL_DEVICE_MAX_CLOCK_FREQUENCY, CL_DEVICE_ADDRESS_BITS,
        CL_DEVICE_MAX_MEM_ALLOC_SIZE, CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_MAX_READ_IMAGE_ARGS,
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, CL_DEVICE_IL_VERSION,
        CL_DEVICE_ILS_WITH_VERSION, CL_DEVICE_IMAGE2D_MAX_WIDTH, CL_DEVICE_IMAGE2D_MAX_HEIGHT,
        CL_DEVICE_IMAGE3D_MAX_WIDTH, CL_DEVICE_IMAGE3D_MAX_HEIGHT, CL_DEVICE_IMAGE3D_MAX_DEPTH,
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, CL_DEVICE_MAX_SAMPLERS,
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, CL_DEVICE_MAX_PIPE_ARGS,
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, CL_DEVICE_PIPE_MAX_PACKET_SIZE, CL_DEVICE_MAX_PARAMETER_SIZE,
        CL_DEVICE_MEM_BASE_ADDR_ALIGN, CL_DEVICE_SINGLE_FP_CONFIG, CL_DEVICE_DOUBLE_FP_CONFIG,
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
        CL_DEVICE_GLOBAL_MEM_SIZE, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, CL_DEVICE_MAX_CONSTANT_ARGS,
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, CL_DEVICE_LOCAL_MEM_TYPE,
        CL_DEVICE_LOCAL_MEM_SIZE, CL_DEVICE_ERROR_CORRECTION_SUPPORT, CL_DEVICE_PROFILING_TIMER_RESOLUTION,
        CL_DEVICE_ENDIAN_LITTLE, CL_DEVICE_AVAILABLE, CL_DEVICE_COMPILER_AVAILABLE, CL_DEVICE_LINKER_AVAILABLE,
        CL_DEVICE_EXECUTION_CAPABILITIES, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES,
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, CL_DEVICE_MAX_ON_DEVICE_QUEUES,
        CL_DEVICE_MAX_ON_DEVICE_EVENTS, CL_DEVICE_BUILT_IN_KERNELS, CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION,
        CL_DEVICE_PLATFORM, CL_DEVICE_NAME, CL_DEVICE_VENDOR, CL_DRIVER_VERSION, CL_DEVICE_PROFILE, CL_DEVICE_VERSION,
        CL_DEVICE_NUMERIC_VERSION, CL_DEVICE_OPENCL_C_VERSION, CL_DEVICE_OPENCL_C_ALL_VERSIONS,
        CL_DEVICE_OPENCL_C_FEATURES, CL_DEVICE_EXTENSIONS, CL_DEVICE_EXTENSIONS_WITH_VERSION,
        CL_DEVICE_PRINTF_BUFFER_SIZE, CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, CL_DEVICE_PARENT_DEVICE,
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES, CL_DEVICE_PARTITION_PROPERTIES, CL_DEVICE_PARTITION_AFFINITY_DOMAIN,
        CL_DEVICE_PARTITION_TYPE, CL_DEVICE_REFERENCE_COUNT, CL_DEVICE_SVM_CAPABILITIES,
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT,
        CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, CL_DEVICE_MAX_NUM_SUB_GROUPS,
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES,
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT,
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, CL_DEVICE_PIPE_SUPPORT, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, CL_DEVICE_HOST_UNIFIED_MEMORY};
    for (cl_device_info param : params) {
        INFO("param 0x" << std::hex << param);
        size_t n = 0;
        REQUIRE(clGetDeviceInfo(d, param, 0, nullptr, &n) == CL_SUCCESS);
        std::vector<unsigned char> value(n + 1);
        size_t again = 0;
        CHECK(clGetDeviceInfo(d, param, value.size(), value.data(), &again) == CL_SUCCESS);
        CHECK(again == n);
        // One byte short of the answer must be refused, never truncated.
        if (n > 0) CHECK(clGetDeviceInfo(d, param, n - 1, value.data(), nullptr) == CL_INVALID_VALUE);
    }
    size_t n = 0;
    CHECK(clGetDeviceInfo(d, 0x7fff, 0, nullptr, &n) == CL_INVALID_VALUE);
}

TEST_CASE("api: optional 2.x features the device lacks are reported absent", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    CHECK(deviceValue<cl_device_svm_capabilities>(d, CL_DEVICE_SVM_CAPABILITIES) == 0);
    CHECK(deviceValue<cl_bool>(d, CL_DEVICE_PIPE_SUPPORT) == CL_FALSE);
    CHECK(deviceValue<cl_device_device_enqueue_capabilities>(d, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0);
    CHECK(deviceValue<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES) == 0);
    cl_command_queue_properties host = deviceValue<cl_command_queue_properties>(d, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
    CHECK((host & CL_QUEUE_PROFILING_ENABLE) != 0);
    CHECK((host & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0);
    // Features whose API side is absent must not be advertised to OpenCL C either.
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &n) == CL_SUCCESS);
    std::vector<cl_name_version> features(n / sizeof(cl_name_version));
    if (n) REQUIRE(clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, n, features.data(), nullptr) == CL_SUCCESS);
    for (const auto& f : features) {
        INFO(f.name);
        CHECK(std::strcmp(f.name, "__opencl_c_pipes") != 0);
        CHECK(std::strcmp(f.name, "__opencl_c_device_enqueue") != 0);
    }

    // The host timer: CL_PLATFORM_HOST_TIMER_RESOLUTION 0 means no timer, so the calls are invalid.
    cl_ulong resolution = 1;
    REQUIRE(clGetPlatformInfo(cltest::heteroPlatform(), CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution,
                              &resolution, nullptr) == CL_SUCCESS);
    if (resolution == 0) {
        cl_ulong dt = 0, ht = 0;
        CHECK(clGetDeviceAndHostTimer(d, &dt, &ht) == CL_INVALID_OPERATION);
        CHECK(clGetHostTimer(d, &ht) == CL_INVALID_OPERATION);
    }
}

TEST_CASE("api: the device cannot be partitioned", "[api][device]") {
    cl_device_id d = cltest::heteroDevice();
    CHECK(deviceValue<cl_uint>(d, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id out[4] = {};
    cl_uint n = 0;
    CHECK(clCreateSubDevices(d, equally, 4, out, &n) == CL_INVALID_VALUE);
    CHECK(clCreateSubDevices(d, nullptr, 4, out, &n) == CL_INVALID_VALUE);
}
