// OpenCL entry points for the cl_hetero_counters extension: validate, translate handles, hand off to observe/counters.hpp.
#include "platform/observe/counters.hpp"

#include "platform/api/api.hpp"
#include "platform/objects/platform.hpp"
#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include <algorithm>
#include <string>

using namespace hetero;

cl_int CL_API_CALL clGetHeteroCountersEXT(cl_platform_id platform, cl_uint count, cl_ulong* values, cl_uint* count_ret) {
    return guarded([&] {
        require(fromHandle<Platform>(platform) != nullptr, CL_INVALID_PLATFORM);
        require(values != nullptr || count == 0, CL_INVALID_VALUE);
        cl_uint n = std::min<cl_uint>(count, counters::kCount);
        for (cl_uint i = 0; i < n; ++i) values[i] = counters::get(static_cast<counters::Counter>(i));
        if (count_ret) *count_ret = counters::kCount;
        return CL_SUCCESS;
    });
}
