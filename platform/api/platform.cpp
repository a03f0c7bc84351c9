// OpenCL entry points for the platform: validate, translate handles, hand off to objects/platform.cpp.
#include "platform/objects/platform.hpp"

#include "platform/api/api.hpp"
#include "platform/observe/counters.hpp"
#include "platform/split/thread_end.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/version.hpp"

using namespace hetero;

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
    holdThreadEnd();  // the thread that will call exit, most often
    return guarded([&] {
        require(!(num_entries == 0 && platforms), CL_INVALID_VALUE);
        require(platforms || num_platforms, CL_INVALID_VALUE);
        if (platforms) platforms[0] = Platform::instance().handle();
        if (num_platforms) *num_platforms = 1;
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
    return clGetPlatformIDs(num_entries, platforms, num_platforms);
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name, size_t param_value_size,
                                     void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        // A NULL platform means "the implementation's", which is ours (the loader routes by it).
        if (!platform) return Platform::instance().info(param_name, param_value_size, param_value, param_value_size_ret);
        auto p = fromHandle<Platform>(platform);
        require(p != nullptr, CL_INVALID_PLATFORM);
        return p->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}
