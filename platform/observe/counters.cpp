// The engine's counters: one relaxed atomic each (they are statistics, ordered by nothing), the
// extension function that reads them, and the line logged at exit (HETERO_LOG=info).
#include "platform/observe/counters.hpp"

#include "platform/support/error.hpp"
#include "platform/support/log.hpp"
#include "platform/objects/platform.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace hetero::counters {
namespace {

// Zero-initialised static storage with trivial destructors: safe to add to while the process exits.
std::atomic<uint64_t> values[kCount]{};

static_assert(kCount == CL_HETERO_COUNTER_COUNT, "cl_ext_hetero.h and counters.hpp list the same counters");
static_assert(BytesHostToDevice == CL_HETERO_BYTES_HOST_TO_DEVICE && BytesDeviceToHost == CL_HETERO_BYTES_DEVICE_TO_HOST &&
                  BytesBetweenDevices == CL_HETERO_BYTES_BETWEEN_DEVICES && Merges == CL_HETERO_MERGES &&
                  LaunchesWhole == CL_HETERO_LAUNCHES_WHOLE && LaunchesSplitDiscrete == CL_HETERO_LAUNCHES_SPLIT_DISCRETE &&
                  LaunchesSplitUnified == CL_HETERO_LAUNCHES_SPLIT_UNIFIED && WorkGroupsTotal == CL_HETERO_WORK_GROUPS_TOTAL &&
                  WorkGroupsCpu == CL_HETERO_WORK_GROUPS_CPU && NsHostToDevice == CL_HETERO_NS_HOST_TO_DEVICE &&
                  NsDeviceToHost == CL_HETERO_NS_DEVICE_TO_HOST && PinnedBytesAllocated == CL_HETERO_PINNED_BYTES_ALLOCATED &&
                  PinnedReuses == CL_HETERO_PINNED_REUSES && HostCopiesUnpinned == CL_HETERO_HOST_COPIES_UNPINNED &&
                      BackendKernelArgs == CL_HETERO_BACKEND_KERNEL_ARGS &&
                  LaunchesSplitNway == CL_HETERO_LAUNCHES_SPLIT_NWAY && WorkGroupsSlot0 == CL_HETERO_WORK_GROUPS_SLOT0 &&
                  ProgramsFromKeptBinaries == CL_HETERO_PROGRAMS_FROM_KEPT_BINARIES && MergesAhead == CL_HETERO_MERGES_AHEAD &&
                  VariantBuilds == CL_HETERO_VARIANT_BUILDS && SplitChunks == CL_HETERO_SPLIT_CHUNKS &&
                  ChunksRefusedAtExit == CL_HETERO_CHUNKS_REFUSED_AT_EXIT,
              "the extension's indices are the counters' own");

// Logs every counter when the library goes (exit, or unload by the loader).
struct LogAtExit {
    ~LogAtExit() {
        if (!logEnabled(LogLevel::Info)) return;
        std::string line;
        for (unsigned c = 0; c < kCount; ++c) {
            auto counter = static_cast<Counter>(c);
            line += (c ? " " : "") + std::string(name(counter)) + "=" + std::to_string(get(counter));
        }
        HETERO_LOG(Info, "counters: %s", line.c_str());
        // No rate to the devices: uploads from pinned host copies are sent without waiting, untimed.
        HETERO_LOG(Info, "migrations: host to device %.1f MB (%.3f ms waited for), device to host %.1f MB in %.3f ms (%.2f GB/s)",
                   get(BytesHostToDevice) / 1e6, get(NsHostToDevice) / 1e6, get(BytesDeviceToHost) / 1e6,
                   get(NsDeviceToHost) / 1e6,
                   get(NsDeviceToHost) ? double(get(BytesDeviceToHost)) / double(get(NsDeviceToHost)) : 0.0);
    }
} logAtExit;

}  // namespace

void add(Counter c, uint64_t amount) { values[c].fetch_add(amount, std::memory_order_relaxed); }

void addSlotWorkGroups(unsigned slot, uint64_t workGroups) {
    if (slot < CL_HETERO_WORK_GROUPS_SLOTS) add(static_cast<Counter>(WorkGroupsSlot0 + slot), workGroups);
}

uint64_t get(Counter c) { return values[c].load(std::memory_order_relaxed); }

const char* name(Counter c) {
    static const char* const names[kCount] = {
        "bytes_host_to_device", "bytes_device_to_host", "bytes_between_devices", "merges",  "launches_whole",
        "launches_split_discrete", "launches_split_unified", "work_groups_total", "work_groups_cpu",
        "ns_host_to_device", "ns_device_to_host", "pinned_bytes_allocated", "pinned_reuses", "host_copies_unpinned",
        "backend_kernel_args", "launches_split_nway", "work_groups_slot0", "work_groups_slot1", "work_groups_slot2",
        "work_groups_slot3", "work_groups_slot4", "work_groups_slot5", "work_groups_slot6", "work_groups_slot7",
        "programs_from_kept_binaries", "merges_ahead", "variant_builds", "split_chunks",
        "chunks_refused_at_exit"};
    static_assert(CL_HETERO_WORK_GROUPS_SLOTS == 8, "a name per slot counter");
    return c < kCount ? names[c] : "unknown";
}

}  // namespace hetero::counters
