// The memory model choice: configuration, the context property, and detection from the slots.
#include "platform/memory/memory_model.hpp"

#include "devices/backend_objects.hpp"

#include "platform/support/config.hpp"
#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include "platform/objects/platform.hpp"

#include <CL/cl_ext_hetero.h>

namespace hetero {
namespace {

// Every wrapped device reports host-unified memory; `why` names the first one that does not.
bool slotsShareHostMemory(std::string& why) {
    Device* device = Device::instance();
    if (!device) {
        why = "no device";
        return false;
    }
    for (const Slot& s : device->slots()) {
        if (!backend::deviceInfo<cl_bool>(s.device, CL_DEVICE_HOST_UNIFIED_MEMORY)) {
            why = s.describe() + " has no host-unified memory";
            return false;
        }
    }
    why = "every device reports host-unified memory";
    return true;
}

// Forcing unified where a device does not report it: allowed (the tests' PoCL pairs, integrated
// GPUs that under-report), but only correct if the devices really share memory.
MemoryModelChoice forcedUnified(const std::string& by) {
    MemoryModelChoice c{MemoryModel::Unified, "forced by " + by, false};
    std::string detected;
    if (!slotsShareHostMemory(detected)) {
        c.unsafe = true;
        c.why += " although " + detected;
    }
    return c;
}

MemoryModelChoice detected() {
    MemoryModelChoice c;
    std::string why;
    c.model = slotsShareHostMemory(why) ? MemoryModel::Unified : MemoryModel::Discrete;
    c.why = "detected: " + why;
    return c;
}

}  // namespace

const char* memoryModelName(MemoryModel model) { return model == MemoryModel::Unified ? "unified" : "discrete"; }

const MemoryModelChoice& defaultMemoryModel() {
    static const MemoryModelChoice choice = [] {
        std::string v = config::get("HETERO_MEMORY", "memory").value_or("auto");
        if (v == "unified") return forcedUnified("HETERO_MEMORY=unified");
        if (v == "discrete") return MemoryModelChoice{MemoryModel::Discrete, "forced by HETERO_MEMORY=discrete", false};
        if (v != "auto") HETERO_LOG(Warn, "HETERO_MEMORY=%s not understood (auto|unified|discrete); using auto", v.c_str());
        return detected();
    }();
    return choice;
}

MemoryModelChoice chooseMemoryModel(cl_context_properties requested) {
    switch (requested) {
    case CL_MEMORY_MODEL_AUTO_HETERO: return defaultMemoryModel();
    case CL_MEMORY_MODEL_DISCRETE_HETERO:
        return MemoryModelChoice{MemoryModel::Discrete, "forced by CL_CONTEXT_MEMORY_MODEL_HETERO", false};
    case CL_MEMORY_MODEL_UNIFIED_HETERO: return forcedUnified("CL_CONTEXT_MEMORY_MODEL_HETERO");
    default: fail(CL_INVALID_PROPERTY);
    }
}

}  // namespace hetero
