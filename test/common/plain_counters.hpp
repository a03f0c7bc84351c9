// For the plain (Catch-free) exit-time test programs: a failed check, and the Hetero platform's
// counters (clGetHeteroCountersEXT, <CL/cl_ext_hetero.h>).
#pragma once

#include "plain_cl.hpp"

#include <CL/cl_ext_hetero.h>

#include <cstdio>
#include <cstdlib>

namespace plaincl {

// Prints "FAIL: what" (the tests' FAIL_REGULAR_EXPRESSION) and ends the process with status 1,
// running no exit handler.
[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    std::fflush(stderr);
    std::_Exit(1);
}

// The counters of `platform` (Hetero's); fails without the extension.
class Counters {
public:
    explicit Counters(cl_platform_id platform)
        : platform_(platform),
          read_(reinterpret_cast<clGetHeteroCountersEXT_fn>(
              clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT"))) {
        if (!read_) fail("no clGetHeteroCountersEXT");
    }
    // One counter's value now (CL_HETERO_*).
    cl_ulong operator[](int index) const {
        cl_ulong v[CL_HETERO_COUNTER_COUNT] = {};
        PLAIN_CL_CHECK(read_(platform_, CL_HETERO_COUNTER_COUNT, v, nullptr));
        return v[index];
    }

private:
    cl_platform_id platform_;
    clGetHeteroCountersEXT_fn read_;
};

}  // namespace plaincl
