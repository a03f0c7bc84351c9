#include "devices/backend.hpp"

#include "devices/backend_objects.hpp"
#include "devices/selection.hpp"
#include "devices/vendor_registry.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>

#include <mutex>
#include <sstream>

// Every Hetero library exports this symbol; a vendor library that has it is Hetero (this copy or
// another installed one) and must never become a backend, or Hetero would wrap itself.
extern "C" __attribute__((visibility("default"))) const char hetero_icd_marker[] = "Hetero OpenCL ICD";

namespace hetero {
namespace {
using GetPlatformIDs = cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*);
using GetExtensionFunctionAddress = void*(CL_API_CALL*)(const char*);

void loadLibrary(const std::string& library, std::vector<BackendPlatform>& out) {
    void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        HETERO_LOG(Warn, "cannot load vendor library %s: %s", library.c_str(), dlerror());
        return;
    }
    if (dlsym(handle, "hetero_icd_marker")) {
        HETERO_LOG(Debug, "skipping %s: it is Hetero", library.c_str());
        dlclose(handle);
        return;
    }
    auto getIds = reinterpret_cast<GetPlatformIDs>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    if (!getIds) {
        if (auto gefa = reinterpret_cast<GetExtensionFunctionAddress>(dlsym(handle, "clGetExtensionFunctionAddress")))
            getIds = reinterpret_cast<GetPlatformIDs>(gefa("clIcdGetPlatformIDsKHR"));
    }
    if (!getIds) {
        HETERO_LOG(Warn, "%s is not an OpenCL ICD (no clIcdGetPlatformIDsKHR)", library.c_str());
        return;  // keep it loaded: unloading libraries with constructors is riskier than a leak
    }
    cl_uint count = 0;
    if (getIds(0, nullptr, &count) != CL_SUCCESS || count == 0) {
        HETERO_LOG(Info, "%s reports no platform", library.c_str());
        return;
    }
    std::vector<cl_platform_id> ids(count);
    getIds(count, ids.data(), nullptr);
    for (auto p : ids) {
        if (!p || !p->dispatch) continue;
        BackendPlatform bp;
        bp.library = library;
        bp.platform = p;
        bp.name = backend::platformInfoString(p, CL_PLATFORM_NAME);
        bp.vendor = backend::platformInfoString(p, CL_PLATFORM_VENDOR);
        cl_uint n = 0;
        if (BACKEND(p, clGetDeviceIDs)(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &n) == CL_SUCCESS && n > 0) {
            bp.devices.resize(n);
            BACKEND(p, clGetDeviceIDs)(p, CL_DEVICE_TYPE_ALL, n, bp.devices.data(), nullptr);
        }
        HETERO_LOG(Info, "backend platform \"%s\" from %s with %u device(s)", bp.name.c_str(), library.c_str(), n);
        out.push_back(std::move(bp));
    }
}
}  // namespace

Backends::Backends() = default;

const Backends& Backends::instance() {
    static Backends* backends = [] {
        auto* b = new Backends;  // never destroyed: backend libraries outlive static destructors
        b->load();
        return b;
    }();
    return *backends;
}

void Backends::load() {
    // Before the first backend call, so that the counts include loading.
    if (auto counting = config::get("HETERO_COUNT_BACKEND_CALLS", "count_backend_calls"); counting && *counting == "on")
        backend::countCalls();
    for (const auto& library : vendorLibraries()) loadLibrary(library, platforms_);
    auto request = config::get("HETERO_DEVICES", "devices");
    Selection selection = selectSlots(platforms_, request ? &*request : nullptr);
    slots_ = std::move(selection.slots);
    problem_ = std::move(selection.error);
    if (!problem_.empty()) {
        HETERO_LOG(Error, "%s", problem_.c_str());
        return;
    }
    primary_ = 0;
    for (const auto& s : slots_)
        if (s.type & CL_DEVICE_TYPE_GPU) {
            primary_ = s.index;
            break;
        }
    for (const auto& s : slots_)
        HETERO_LOG(Info, "slot %u: %s", s.index, s.describe().c_str());
    chooseGpuSlots();
    chooseContexts();
    lockViews();
}

void Backends::chooseGpuSlots() {
    auto named = config::get("HETERO_GPU_SLOTS", "gpu_slots");
    if (!named) {
        for (const auto& s : slots_)
            if (s.type & CL_DEVICE_TYPE_GPU) gpuSlots_.push_back(s.index);
        return;
    }
    std::stringstream list(*named);
    std::string item;
    while (std::getline(list, item, ',')) {
        char* end = nullptr;
        unsigned long n = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end || n >= slots_.size()) {
            HETERO_LOG(Warn, "HETERO_GPU_SLOTS: \"%s\" is no slot (0 to %zu); ignored", item.c_str(), slots_.size() - 1);
            continue;
        }
        if (!isGpuSlot(unsigned(n))) gpuSlots_.push_back(unsigned(n));
    }
    std::sort(gpuSlots_.begin(), gpuSlots_.end());
}

void Backends::chooseContexts() {
    auto setting = config::get("HETERO_SLOT_CONTEXTS", "slot_contexts");
    std::string mode = setting ? *setting : "shared";
    if (mode != "shared" && mode != "own") {
        HETERO_LOG(Warn, "HETERO_SLOT_CONTEXTS=%s: expected shared or own; using shared", mode.c_str());
        mode = "shared";
    }
    for (const auto& s : slots_) {
        unsigned owner = s.index;
        if (mode == "shared" && isGpuSlot(s.index))
            for (unsigned earlier : gpuSlots_)
                if (earlier < s.index && slots_[earlier].device == s.device) {
                    owner = earlier;
                    break;
                }
        contextSlot_.push_back(owner);
        if (owner != s.index) HETERO_LOG(Info, "slot %u shares slot %u's backend context", s.index, owner);
    }
}

bool Backends::isGpuSlot(unsigned slot) const {
    return std::find(gpuSlots_.begin(), gpuSlots_.end(), slot) != gpuSlots_.end();
}

void Backends::lockViews() const {
    // NVIDIA's sub-buffers race with calls using their parent (devices/view_lock.hpp).
    auto setting = config::get("HETERO_BACKEND_VIEW_LOCK", "backend_view_lock");
    std::string mode = setting ? *setting : "auto";
    if (mode != "auto" && mode != "on" && mode != "off") {
        HETERO_LOG(Warn, "HETERO_BACKEND_VIEW_LOCK=%s: expected auto, on or off; using auto", mode.c_str());
        mode = "auto";
    }
    bool nvidia = std::any_of(slots_.begin(), slots_.end(),
                              [](const Slot& s) { return s.platformName.find("NVIDIA") != std::string::npos; });
    backend::lockViews(mode == "on" || (mode == "auto" && nvidia));
}

}  // namespace hetero
