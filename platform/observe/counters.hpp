// Process-wide counters of what the engine did: bytes moved, merges, launches and how their
// work-groups were shared. Read by tests (clGetHeteroCountersEXT, platform/include/CL/cl_ext_hetero.h),
// written into the trace and logged at exit (HETERO_LOG=info).
#pragma once

#include <CL/cl_ext_hetero.h>

#include <atomic>
#include <cstdint>

namespace hetero::counters {

enum Counter : unsigned {
    BytesHostToDevice = 0,   // uploads of a memory object's host copy to a slot
    BytesDeviceToHost,       // downloads to the host copy
    BytesBetweenDevices,     // split engine: CPU results to the GPU, merged results back, ...
    Merges,                  // merge kernels run
    LaunchesWhole,           // launches run whole on one slot
    LaunchesSplitDiscrete,   // launches split by the discrete (FluidiCL) engine
    LaunchesSplitUnified,    // launches split by the unified (exclusive partitioning) engine
    WorkGroupsTotal,         // work-groups of every launch
    WorkGroupsCpu,           // of those, run on a CPU-type slot
    NsHostToDevice,          // time threads waited for uploads (ns): those from pinned host copies are not waited for
    NsDeviceToHost,          // time the downloads took (ns)
    PinnedBytesAllocated,    // page-locked memory newly pinned for host copies (platform/memory/pinned_pool.hpp)
    PinnedReuses,            // host copies given a pinned block kept from an earlier buffer
    HostCopiesUnpinned,      // host copies in ordinary memory because pinning failed or the budget was spent
    BackendKernelArgs,       // arguments given to backend kernels (clSetKernelArg calls into a backend)
    LaunchesSplitNway,       // launches split over several GPU slots (platform/split/nway_split.hpp)
    WorkGroupsSlot0,         // work-groups run on slot 0, whole or as a split's part; then slots 1 to 7
    // backend programs built from a binary an earlier build kept (platform/objects/kept_binaries.hpp)
    ProgramsFromKeptBinaries = WorkGroupsSlot0 + CL_HETERO_WORK_GROUPS_SLOTS,
    MergesAhead,             // of Merges, enqueued behind the GPU kernel while it still ran (discrete_split.cpp)
    VariantBuilds,           // builds of a program's split variants that ended (platform/split/variants.hpp)
    SplitChunks,             // chunks the split engines enqueued on a CPU slot (platform/split/exit_gate.hpp)
    ChunksRefusedAtExit,     // chunks not enqueued because the process was exiting
    kCount
};

void add(Counter c, uint64_t amount = 1);
// Adds `workGroups` to `slot`'s WorkGroupsSlot counter (slots past the last counter are not counted).
void addSlotWorkGroups(unsigned slot, uint64_t workGroups);
uint64_t get(Counter c);
// The counter's name in the log, the trace and the bench runner: "bytes_host_to_device", ...
const char* name(Counter c);

}  // namespace hetero::counters

// The extension function (cl_ext_hetero.h), reached through clGetExtensionFunctionAddress*.
cl_int CL_API_CALL clGetHeteroCountersEXT(cl_platform_id platform, cl_uint count, cl_ulong* values, cl_uint* count_ret);
