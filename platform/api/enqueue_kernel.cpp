// clEnqueueNDRangeKernel / clEnqueueTask: validation, and a launch on one slot (chosen by
// HETERO_RUN_ON) with its memory objects brought there first, or split between two slots (by the
// discrete engine, or the unified one in a context with unified memory).
#include "platform/api/api.hpp"
#include "platform/support/config.hpp"
#include "platform/api/enqueue.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/launch_stats.hpp"
#include "platform/support/log.hpp"
#include "platform/split/discrete_split.hpp"
#include "platform/split/unified_split.hpp"
#include "platform/observe/trace.hpp"

#include <atomic>

using namespace hetero;

namespace {

// HETERO_RUN_ON: gpu | cpu | <slot> | alternate (round robin over slots, to exercise coherence).
int chooseSlot(const Kernel& kernel) {
    static const std::string setting = config::get("HETERO_RUN_ON", "run_on").value_or("gpu");
    static std::atomic<unsigned> next{0};
    const auto& slots = Device::instance()->slots();
    auto firstOfType = [&](cl_device_type t) -> int {
        for (const auto& s : slots)
            if ((s.type & t) && kernel.availableOn(s.index)) return static_cast<int>(s.index);
        return -1;
    };
    int slot = -1;
    if (setting == "alternate") {
        for (size_t tries = 0; tries < slots.size() && slot < 0; ++tries) {
            unsigned s = next++ % slots.size();
            if (kernel.availableOn(s)) slot = static_cast<int>(s);
        }
    } else if (setting == "cpu") {
        slot = firstOfType(CL_DEVICE_TYPE_CPU);
    } else if (setting == "gpu") {
        slot = firstOfType(CL_DEVICE_TYPE_GPU);
    } else if (!setting.empty() && setting.find_first_not_of("0123456789") == std::string::npos) {
        unsigned s = static_cast<unsigned>(std::stoul(setting));
        if (s < slots.size() && kernel.availableOn(s)) slot = static_cast<int>(s);
    } else {
        static bool warned = false;
        if (!warned) HETERO_LOG(Warn, "HETERO_RUN_ON=%s not understood (gpu|cpu|<slot>|alternate)", setting.c_str());
        warned = true;
    }
    return slot >= 0 ? slot : kernel.referenceSlot();
}

using Launch = LaunchGeometry;  // empty: a zero global size, nothing runs (OpenCL 2.1+)

Launch validateLaunch(Kernel& kernel, cl_uint dims, const size_t* offset, const size_t* global, const size_t* local) {
    Launch l;
    require(dims >= 1 && dims <= 3, CL_INVALID_WORK_DIMENSION);
    // A NULL global size or a zero in it: from OpenCL 2.1 on the launch succeeds and does nothing
    // (after its wait list); before, CL_INVALID_GLOBAL_WORK_SIZE.
    const Device& device = *Device::instance();
    const bool emptyAllowed = device.versionMajor() * 10 + device.versionMinor() >= 21;
    static const size_t zeros[3] = {0, 0, 0};
    if (global == nullptr) {
        require(emptyAllowed, CL_INVALID_GLOBAL_WORK_SIZE);
        global = zeros;
    }
    l.dims = dims;
    l.hasOffset = offset != nullptr;
    l.hasLocal = local != nullptr;
    const DeviceLimits& limits = device.limits();
    const size_t* maxItems = limits.maxWorkItemSizes;
    const size_t maxGroup = limits.maxWorkGroupSize, kernelMax = kernel.maxWorkGroupSize();
    const cl_bool nonUniform = limits.nonUniformWorkGroups;
    size_t product = 1;
    for (cl_uint d = 0; d < dims; ++d) {
        l.global[d] = global[d];
        if (global[d] == 0) {
            require(emptyAllowed, CL_INVALID_GLOBAL_WORK_SIZE);
            l.empty = true;
        }
        if (offset) {
            l.offset[d] = offset[d];
            require(global[d] <= SIZE_MAX - offset[d], CL_INVALID_GLOBAL_OFFSET);
        }
        if (local) {
            require(local[d] > 0, CL_INVALID_WORK_GROUP_SIZE);
            require(local[d] <= maxItems[d], CL_INVALID_WORK_ITEM_SIZE);
            require(nonUniform || global[d] % local[d] == 0, CL_INVALID_WORK_GROUP_SIZE);
            l.local[d] = local[d];
            product *= local[d];
        }
    }
    if (local) require(product <= maxGroup && (kernelMax == 0 || product <= kernelMax), CL_INVALID_WORK_GROUP_SIZE);
    // reqd_work_group_size(X, Y, Z): the launch must name exactly that local size.
    const size_t* required = kernel.requiredLocalSize();
    if (required[0] != 0) {
        require(local != nullptr, CL_INVALID_WORK_GROUP_SIZE);
        for (cl_uint d = 0; d < 3; ++d) {
            size_t given = d < dims ? l.local[d] : 1;  // dimensions beyond work_dim have size 1
            require(given == required[d], CL_INVALID_WORK_GROUP_SIZE);
        }
    }
    return l;
}

}  // namespace

// Both launch entry points; `type` is what the event reports (CL_COMMAND_TASK for clEnqueueTask).
static cl_int enqueueKernel(cl_command_type type, cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                            const size_t* global_work_offset, const size_t* global_work_size,
                            const size_t* local_work_size, cl_uint num_events_in_wait_list,
                            const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        Queue* queue = queueOf(command_queue);
        Kernel* k = fromHandle<Kernel>(kernel);
        require(k != nullptr, CL_INVALID_KERNEL);
        require(k->context() == queue->context(), CL_INVALID_CONTEXT);
        Launch launch = validateLaunch(*k, work_dim, global_work_offset, global_work_size, local_work_size);
        auto args = k->argsForLaunch();
        auto deps = queue->waitList(num_events_in_wait_list, event_wait_list);
        Ref<Kernel> keep(k);
        // Every memory argument is brought to the slot; all but read-only objects count as written.
        auto accesses = [args] {
            std::vector<Access> a;
            for (const auto& arg : args)
                if (arg.mem) a.push_back({arg.mem.get(), !(arg.mem->flags() & CL_MEM_READ_ONLY), false});
            return a;
        };
        // A launch run whole is counted at submission and, when tracing, drawn on the "launches"
        // lane when it completes; the split engine counts and draws its own.
        struct Whole {
            uint64_t workGroups = 0, cpuWorkGroups = 0;
            bool submitted = false;
        };
        auto whole = std::make_shared<Whole>();
        CommandLabel what(type);
        if (trace::enabled()) {
            what.detail = k->name();
            what.alsoTrace = [whole, name = k->name()](int slot, double begin, double end, cl_int) {
                if (whole->submitted) traceLaunch(name, slot, whole->workGroups, whole->cpuWorkGroups, false, begin, end);
            };
        }
        auto ev = queue->enqueue(
            std::move(what), std::move(deps), [keep] { return chooseSlot(*keep); },
            [keep, args, launch, accesses, whole](Submission& sub) -> cl_event {
                SplitDecision decision = splitDecision(*keep, args, launch, static_cast<unsigned>(sub.slot));
                if (keep->context()->memoryModel() == MemoryModel::Unified) {
                    decision = unifiedSplitDecision(decision, *keep, args);
                    if (decision.split) return submitUnifiedSplit(sub, *keep, args, launch, decision);
                }
                if (decision.split) return submitSplit(sub, *keep, args, launch, decision);
                if (decision.variantsBuilding) sub.tails.push_back(decision.variantsBuilding);
                // A timed launch runs on the queue's profiling side queue (launch_timing.hpp).
                cl_command_queue timed = nullptr;
                if (decision.timeUnsplit && !launch.empty) timed = sub.queue.timingQueue(static_cast<unsigned>(sub.slot));
                if (timed) sub.backendQueue = timed;  // submitWith orders it after the commands ahead
                // No backend event unless someone needs one (deferred_event.hpp). Profiled and traced
                // commands take their times from it, and in unified memory each write bridges its
                // event to the other slots at once.
                const bool deferrable = !timed && !launch.empty && !sub.queue.profiling() && !trace::enabled() &&
                                        keep->context()->memoryModel() != MemoryModel::Unified;
                cl_event done = submitWith(sub, accesses(), [&](std::vector<cl_event>& wait) {
                    cl_event e = nullptr;
                    if (launch.empty) {
                        check(BACKEND(sub.backendQueue, clEnqueueMarkerWithWaitList)(sub.backendQueue, wait.size(),
                                                                                     listOrNull(wait), &e));
                        return e;
                    }
                    std::lock_guard lock(keep->launchMutex());
                    keep->applyArgs(static_cast<unsigned>(sub.slot), args);
                    cl_kernel bk = keep->backend(static_cast<unsigned>(sub.slot));
                    check(BACKEND(sub.backendQueue, clEnqueueNDRangeKernel)(
                        sub.backendQueue, bk, launch.dims, launch.hasOffset ? launch.offset : nullptr, launch.global,
                        launch.hasLocal ? launch.local : nullptr, wait.size(), listOrNull(wait), deferrable ? nullptr : &e));
                    if (deferrable) sub.deferredDone = sub.queue.deferredEventAfterLast(static_cast<unsigned>(sub.slot), sub.backendQueue);
                    return e;
                });
                // Unsplit launches feed the history that decides whether splitting this kernel pays.
                if (decision.timeUnsplit) timeUnsplitLaunch(timed ? done : nullptr, keep->name(), launch);
                whole->workGroups = workGroupsOf(launch, keep->maxWorkGroupSize());
                whole->cpuWorkGroups = isCpuSlot(static_cast<unsigned>(sub.slot)) ? whole->workGroups : 0;
                whole->submitted = true;
                countLaunch(counters::LaunchesWhole, whole->workGroups, whole->cpuWorkGroups);
                return done;
            });
        return finishEnqueue(ev, event, false);
    });
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                                          const size_t* global_work_offset, const size_t* global_work_size,
                                          const size_t* local_work_size, cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event) {
    return enqueueKernel(CL_COMMAND_NDRANGE_KERNEL, command_queue, kernel, work_dim, global_work_offset, global_work_size,
                         local_work_size, num_events_in_wait_list, event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event* event) {
    size_t one = 1;
    return enqueueKernel(CL_COMMAND_TASK, command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list,
                         event_wait_list, event);
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                                         void* args, size_t cb_args, cl_uint num_mem_objects, const cl_mem* mem_list,
                                         const void** args_mem_loc, cl_uint num_events_in_wait_list,
                                         const cl_event* event_wait_list, cl_event* event) {
    return guarded([&] {
        queueOf(command_queue);
        return CL_INVALID_OPERATION;  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL
    });
}
