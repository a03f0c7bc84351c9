// Hetero's engine counters (the cl_hetero_counters platform extension, <CL/cl_ext_hetero.h>), read
// at once, for tests that check what the engine did (launches split, bytes moved, merges).
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext_hetero.h>

#include <catch2/catch.hpp>

namespace cltest {

struct Counters {
    cl_ulong v[CL_HETERO_COUNTER_COUNT] = {};
    static Counters read(cl_platform_id platform) {
        auto fn = reinterpret_cast<clGetHeteroCountersEXT_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"));
        REQUIRE(fn != nullptr);
        Counters c;
        REQUIRE(fn(platform, CL_HETERO_COUNTER_COUNT, c.v, nullptr) == CL_SUCCESS);
        return c;
    }
    cl_ulong operator[](int i) const { return v[i]; }
};

}  // namespace cltest
