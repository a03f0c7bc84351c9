// How the memory of a context's objects is laid out (issue 5):
//   Discrete  one copy per slot plus a host copy, kept coherent with version numbers
//             (platform/memory/discrete_storage.cpp); split launches merge (platform/split/discrete_split.cpp).
//   Unified   one host allocation that every slot's backend buffer uses directly
//             (CL_MEM_USE_HOST_PTR on the same pointer, platform/memory/unified_storage.cpp); split launches
//             partition the work-groups exclusively (platform/split/unified_split.cpp), nothing is copied.
// Chosen per context: the context property CL_CONTEXT_MEMORY_MODEL_HETERO, else HETERO_MEMORY
// (config key `memory`: auto|unified|discrete), else detection: unified iff every slot's device
// reports CL_DEVICE_HOST_UNIFIED_MEMORY.
#pragma once

#include <CL/cl.h>

#include <string>

namespace hetero {

enum class MemoryModel { Discrete, Unified };

struct MemoryModelChoice {
    MemoryModel model = MemoryModel::Discrete;
    std::string why;          // for the log and clinfo: what decided it
    bool unsafe = false;      // unified forced on devices that do not report host-unified memory
};

const char* memoryModelName(MemoryModel model);

// The device-wide default: HETERO_MEMORY if set, else detection (read once).
const MemoryModelChoice& defaultMemoryModel();

// For one context: `requested` is the value of CL_CONTEXT_MEMORY_MODEL_HETERO, or
// CL_MEMORY_MODEL_AUTO_HETERO when absent. Throws CL_INVALID_PROPERTY for an unknown value.
MemoryModelChoice chooseMemoryModel(cl_context_properties requested);

}  // namespace hetero
