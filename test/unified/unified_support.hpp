// Helpers of the unified-memory tests: contexts with a chosen memory model, Hetero's counters.
#pragma once

#include "cl_test.hpp"

#include <CL/cl_ext_hetero.h>

#include <array>
#include <cstdlib>
#include <string>

namespace unified {

// A context with CL_CONTEXT_MEMORY_MODEL_HETERO = `model` and an in-order queue, released at scope end.
struct ModelEnv : cltest::Env {
    explicit ModelEnv(cl_context_properties model, cl_command_queue_properties props = 0)
        : cltest::Env(props, std::array<cl_context_properties, 3>{CL_CONTEXT_MEMORY_MODEL_HETERO, model, 0}.data()) {}
};

using Counters = std::array<cl_ulong, CL_HETERO_COUNTER_COUNT>;

inline Counters counters(cl_platform_id platform) {
    auto get = reinterpret_cast<clGetHeteroCountersEXT_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"));
    REQUIRE(get != nullptr);
    Counters c{};
    cl_uint n = 0;
    REQUIRE(get(platform, CL_HETERO_COUNTER_COUNT, c.data(), &n) == CL_SUCCESS);
    REQUIRE(n >= CL_HETERO_COUNTER_COUNT);
    return c;
}

// What HETERO_MEMORY says for this run ("" when unset: detection, unified on two PoCL slots).
inline std::string configuredMemory() {
    const char* v = std::getenv("HETERO_MEMORY");
    return v ? v : "";
}

// Whether every splittable launch is split in this run (HETERO_SPLIT=always).
inline bool alwaysSplit() {
    const char* v = std::getenv("HETERO_SPLIT");
    return v && std::string(v) == "always";
}

// Adds 1 to every element its work-item covers and records its global id: a work-group that ran
// twice (or not at all) shows as a count other than the number of launches.
inline const char* kMarkSource = R"(
    __kernel void mark1(__global int* hits, __global int* ids) {
        size_t i = get_global_id(0);
        hits[i] += 1;
        ids[i] = (int)i;
    }
    __kernel void mark2(__global int* hits, __global int* ids) {
        size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
        hits[i] += 1;
        ids[i] = (int)i;
    }
    __kernel void mark3(__global int* hits, __global int* ids) {
        size_t i = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
        hits[i] += 1;
        ids[i] = (int)i;
    }
    __kernel void affine(__global const int* x, __global int* y, int a, int b) {
        size_t i = get_global_id(0);
        y[i] = a * x[i] + b;
    }
)";

}  // namespace unified
