// The measuring knob HETERO_TEST_SPLIT_ONLY: one side of a static split, alone (only_side.hpp).
#include "platform/split/only_side.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/objects/context.hpp"
#include "platform/split/config.hpp"
#include "platform/split/variants.hpp"
#include "platform/support/log.hpp"

#include <cmath>
#include <mutex>
#include <set>
#include <string>

namespace hetero {
namespace {

// Once per kernel name: which kernels ran whole under the knob (the measurement includes them whole).
void noteWhole(const Kernel& kernel, const char* why) {
    static std::mutex mutex;
    static std::set<std::string> told;
    std::lock_guard lock(mutex);
    if (told.insert(kernel.name()).second)
        HETERO_LOG(Warn, "HETERO_TEST_SPLIT_ONLY: kernel %s runs whole (%s)", kernel.name().c_str(), why);
}

}  // namespace

unsigned onlySideSlot(const Kernel& kernel, unsigned gpuSlot) {
    if (testOnlySide() != OnlySide::Cpu || !kernel.variants()) return gpuSlot;
    const auto& slots = Device::instance()->slots();
    for (const auto& s : slots)
        if (s.index != gpuSlot && (s.type & CL_DEVICE_TYPE_CPU) && kernel.availableOn(s.index)) return s.index;
    for (const auto& s : slots)
        if (s.index != gpuSlot && kernel.availableOn(s.index)) return s.index;
    return gpuSlot;
}

bool submitOnlySide(Submission& sub, Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                    const std::vector<Access>& accesses, cl_event& done) {
    auto kv = kernel.variants();
    const unsigned slot = static_cast<unsigned>(sub.slot);
    const bool gpuSide = testOnlySide() == OnlySide::Gpu;
    if (!kv || !kv->ready()) {
        noteWhole(kernel, "not splittable");
        return false;
    }
    if (!(gpuSide ? kv->abort[slot] : kv->chunk[slot])) {
        noteWhole(kernel, "its variant is missing on the slot");
        return false;
    }
    LaunchGeometry l = launch;
    const transform::NDRange range = resolveSplitRange(l, kernel.maxWorkGroupSize());
    const uint64_t groups = range.numGroups();
    // The static split's cut (discrete_split.cpp): the CPU takes [cut, groups), the GPU the rest.
    const uint64_t cut = groups - static_cast<uint64_t>(std::llround(cpuShare() * double(groups)));
    const cl_uint numArgs = static_cast<cl_uint>(args.size());
    done = submitWith(sub, accesses, [&](std::vector<cl_event>& wait) -> cl_event {
        std::lock_guard lock(kv->mutex);
        cl_command_queue q = sub.backendQueue;
        KernelVariants::LaneCommand c = gpuSide ? kv->abortOn(slot, q) : kv->chunkOn(slot, q);
        cl_kernel variant = c.kernel;
        kernel.applyArgs(variant, slot, args);
        cl_event e = nullptr;
        if (gpuSide) {
            // The status word says from the start that the CPU did [cut, groups): those groups return
            // at once. A buffer of this launch's own, released once the kernel is done with it.
            const uint32_t launchId = 1;
            cl_uint status[2] = {launchId, static_cast<cl_uint>(cut)};
            cl_int err = CL_SUCCESS;
            backend::Buffer word = backend::buffer(kernel.context()->backend(slot), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                                   sizeof status, status, &err);
            if (!word) fail(err ? err : CL_OUT_OF_RESOURCES);
            check(backend::setArg(variant, numArgs, word.get()));
            setVariantExtraArgs(variant, numArgs + 1, transform::abortExtraArgs(range, launchId));
            check(backend::enqueueKernel(q, variant, l.dims, l.hasOffset ? l.offset : nullptr, l.global, l.local, wait, &e));
            c.choice.ran(e);
            return e;
        }
        auto subLaunches = transform::chunkLaunches(range, cut, groups);
        for (const auto& sl : subLaunches) {
            setVariantExtraArgs(variant, numArgs, sl.extraArgs);
            check(backend::enqueueKernel(q, variant, sl.dims, sl.offset, sl.global, sl.local, wait, nullptr));
        }
        // After every sub-launch (a marker without a wait list waits for all before it), or none.
        check(backend::enqueueMarker(q, subLaunches.empty() ? backend::WaitList(wait) : backend::WaitList(), &e));
        c.choice.ran(e);
        return e;
    });
    return true;
}

}  // namespace hetero
