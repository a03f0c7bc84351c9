// The real OpenCL implementations behind Hetero ("backends"), found and loaded without the ICD
// loader (it would find Hetero itself and recurse), and the backend devices ("slots") the virtual device wraps.
#pragma once

#include "devices/backend_commands.hpp"

#include <string>
#include <vector>

namespace hetero {

// One wrapped backend device. The same backend device may fill several slots (e.g. "pocl:0,pocl:0"):
// each slot has memory objects of its own; GPU slots of one device share a backend context
// (Backends::contextSlot), every other slot has one of its own.
struct Slot {
    unsigned index = 0;
    std::string library;          // vendor ICD library it came from
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string platformName;
    std::string deviceName;
    cl_device_type type = 0;
    // Handy for error messages and logs: "NVIDIA H100 (NVIDIA CUDA)".
    std::string describe() const { return deviceName + " (" + platformName + ")"; }
    bool isPocl() const { return platformName == "Portable Computing Language"; }
};

// `options` for building a program on `slot`, with a define of the slot's own where an earlier slot
// has the same PoCL device: the build then has a kernel hash of its own. PoCL 4.0-5.0 give back a
// command's loaded kernel by hash and local size only (pocl_release_dlhandle_cache,
// lib/CL/devices/common.c:922-944 in 5.0; fixed in 6.0 by 9184812d6), so two commands of one hash
// in flight at once with different global offsets or sizes give back each other's and abort
// ("found->ref_count > 0"): the two sides of a split on two slots of one PoCL device run the same
// chunk variant at once (bench/tools/pocl_dlhandle_race.c). Other backends keep `options`. Builds
// of one source alive at once in several contexts are named apart by DistinctBuild
// (distinct_build.hpp).
inline std::string slotOwnBuildOptions(const std::vector<Slot>& slots, unsigned slot, const std::string& options) {
    if (slot >= slots.size() || !slots[slot].isPocl()) return options;
    for (unsigned earlier = 0; earlier < slot; ++earlier)
        if (slots[earlier].device == slots[slot].device)
            return options + (options.empty() ? "" : " ") + "-DHETERO_SLOT_" + std::to_string(slot);
    return options;
}

struct BackendPlatform {
    std::string library;
    cl_platform_id platform = nullptr;
    std::string name;
    std::string vendor;
    std::vector<cl_device_id> devices;
};

class Backends {
public:
    // Loaded once, on first use, thread-safely.
    static const Backends& instance();

    const std::vector<BackendPlatform>& platforms() const { return platforms_; }
    const std::vector<Slot>& slots() const { return slots_; }
    // Why there is no slot (empty when there are slots).
    const std::string& problem() const { return problem_; }
    // The slot unsplit work runs on by default: the first GPU, else slot 0.
    unsigned primarySlot() const { return primary_; }
    // The slots that count as GPUs, in slot order: HETERO_GPU_SLOTS=<slot>,<slot>,... where set
    // (tests make PoCL slots stand in for GPUs this way), else every slot whose device is a GPU.
    // N-way splits go over them (platform/split/nway_split.hpp), and no host copy is kept as one's
    // (platform/memory/discrete_storage.cpp). Slot numbers that do not exist are ignored with a warning.
    const std::vector<unsigned>& gpuSlots() const { return gpuSlots_; }
    bool isGpuSlot(unsigned slot) const;
    // The slot whose backend context `slot` uses: the first GPU slot of the same backend device
    // (HETERO_SLOT_CONTEXTS=shared, the default), else `slot` itself (=own: a context per slot).
    // Two contexts on one GPU take turns on it and their buffers meet only through the host; in
    // one context the slots' kernels run side by side and their copies move on the device
    // (docs/multi-slot.md, "Slots of one GPU"). CPU slots keep their own: the pair engine's CPU
    // side computes in host memory of its own.
    unsigned contextSlot(unsigned slot) const { return slot < contextSlot_.size() ? contextSlot_[slot] : slot; }

private:
    Backends();
    void load();
    void lockViews() const;  // HETERO_BACKEND_VIEW_LOCK
    void chooseGpuSlots();   // HETERO_GPU_SLOTS
    void chooseContexts();   // HETERO_SLOT_CONTEXTS
    std::vector<BackendPlatform> platforms_;
    std::vector<Slot> slots_;
    std::string problem_;
    unsigned primary_ = 0;
    std::vector<unsigned> gpuSlots_;
    std::vector<unsigned> contextSlot_;
};

}  // namespace hetero
