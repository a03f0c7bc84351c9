// The only functions Hetero exports (see hetero.map): what an ICD loader looks up by name.
// clIcdGetPlatformIDsKHR and clGetPlatformInfo are defined in platform/objects/platform.cpp.
#include "platform/api/api.hpp"
#include "platform/observe/counters.hpp"
#include "platform/objects/platform.hpp"

#include <cstring>

namespace {
struct Named {
    const char* name;
    void* function;
};
// Extension functions reachable by name: cl_khr_icd's own entry point, and cl_hetero_counters'.
const Named kExtensionFunctions[] = {
    {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR)},
    {"clGetHeteroCountersEXT", reinterpret_cast<void*>(&clGetHeteroCountersEXT)},
};
}  // namespace

void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
    if (!func_name) return nullptr;
    for (const auto& f : kExtensionFunctions)
        if (std::strcmp(f.name, func_name) == 0) return f.function;
    return nullptr;
}

void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name) {
    if (!hetero::fromHandle<hetero::Platform>(platform)) return nullptr;
    return clGetExtensionFunctionAddress(func_name);
}
