// clGetPlatformIDs / clGetPlatformInfo and the ICD's platform entry.
#include "platform/objects/platform.hpp"

#include "platform/observe/counters.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/version.hpp"

namespace hetero {

Platform& Platform::instance() {
    static Platform* p = new Platform;  // lives as long as the process
    return *p;
}

cl_int Platform::info(cl_platform_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string("OpenCL 3.0 Hetero " HETERO_VERSION_STRING);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return out.string("Hetero");
    case CL_PLATFORM_VENDOR: return out.string("Hetero");
    // cl_hetero_counters is the platform's: the counters are process-wide, not the device's.
    case CL_PLATFORM_EXTENSIONS: return out.string("cl_khr_icd " CL_HETERO_COUNTERS_EXTENSION_NAME);
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
        cl_name_version icd{CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"};
        cl_name_version counters{CL_MAKE_VERSION(1, 0, 0), CL_HETERO_COUNTERS_EXTENSION_NAME};
        return out.array(std::vector<cl_name_version>{icd, counters});
    }
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string("HETERO");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar<cl_ulong>(0);
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
