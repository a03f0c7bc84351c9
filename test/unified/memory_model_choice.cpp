// The memory model choice as an application sees it: the device's default (clinfo), and the
// per-context property.
#include "unified_support.hpp"

#include <vector>

using namespace unified;

TEST_CASE("unified: the device reports the default memory model and why", "[unified][model]") {
    cl_device_id d = cltest::heteroDevice();
    cl_bool hostUnified = CL_FALSE;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof hostUnified, &hostUnified, nullptr) == CL_SUCCESS);
    size_t n = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DRIVER_VERSION, 0, nullptr, &n) == CL_SUCCESS);
    std::string driver(n, '\0');
    REQUIRE(clGetDeviceInfo(d, CL_DRIVER_VERSION, n, driver.data(), nullptr) == CL_SUCCESS);
    INFO("CL_DRIVER_VERSION: " << driver);
    // Two PoCL slots report host-unified memory: unified unless forced otherwise.
    if (configuredMemory() == "discrete") {
        CHECK(hostUnified == CL_FALSE);
        CHECK(driver.find("discrete memory, forced by HETERO_MEMORY=discrete") != std::string::npos);
    } else if (configuredMemory() == "unified") {
        CHECK(hostUnified == CL_TRUE);
        CHECK(driver.find("unified memory, forced by HETERO_MEMORY=unified") != std::string::npos);
    } else {
        CHECK(hostUnified == CL_TRUE);
        CHECK(driver.find("unified memory, detected: every device reports host-unified memory") != std::string::npos);
    }
}

TEST_CASE("unified: the memory model context property is accepted, returned, and checked", "[unified][model]") {
    cl_platform_id platform = cltest::heteroPlatform();
    cl_device_id d = cltest::heteroDevice();
    for (cl_context_properties model :
         {CL_MEMORY_MODEL_AUTO_HETERO, CL_MEMORY_MODEL_DISCRETE_HETERO, CL_MEMORY_MODEL_UNIFIED_HETERO}) {
        cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                         CL_CONTEXT_MEMORY_MODEL_HETERO, model, 0};
        cl_int err = CL_INVALID_VALUE;
        cl_context c = clCreateContext(props, 1, &d, nullptr, nullptr, &err);
        REQUIRE(err == CL_SUCCESS);
        size_t bytes = 0;
        REQUIRE(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, 0, nullptr, &bytes) == CL_SUCCESS);
        std::vector<cl_context_properties> back(bytes / sizeof(cl_context_properties));
        REQUIRE(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, bytes, back.data(), nullptr) == CL_SUCCESS);
        CHECK(back == std::vector<cl_context_properties>(props, props + 5));
        clReleaseContext(c);
    }
    cl_int err = CL_SUCCESS;
    cl_context_properties bad[] = {CL_CONTEXT_MEMORY_MODEL_HETERO, 7, 0};
    CHECK(clCreateContext(bad, 1, &d, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
    cl_context_properties twice[] = {CL_CONTEXT_MEMORY_MODEL_HETERO, CL_MEMORY_MODEL_UNIFIED_HETERO,
                                     CL_CONTEXT_MEMORY_MODEL_HETERO, CL_MEMORY_MODEL_DISCRETE_HETERO, 0};
    CHECK(clCreateContext(twice, 1, &d, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
    cl_context_properties badWithPlatform[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                               CL_CONTEXT_MEMORY_MODEL_HETERO, 7, 0};
    CHECK(clCreateContextFromType(badWithPlatform, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
}
