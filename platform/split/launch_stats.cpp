// Launch counting and the "launches" lane of the trace (launch_stats.hpp).
#include "platform/split/launch_stats.hpp"

#include "platform/objects/platform.hpp"

#include <algorithm>

namespace hetero {

bool isCpuSlot(unsigned slot) {
    const Device* device = Device::instance();
    return device && slot < device->slots().size() && (device->slots()[slot].type & CL_DEVICE_TYPE_CPU);
}

void countLaunch(counters::Counter kind, uint64_t workGroups, uint64_t cpuWorkGroups) {
    counters::add(kind);
    counters::add(counters::WorkGroupsTotal, workGroups);
    counters::add(counters::WorkGroupsCpu, cpuWorkGroups);
}

uint64_t countNwayLaunch(uint64_t workGroups, const std::vector<std::pair<unsigned, uint64_t>>& parts,
                         std::string& shares) {
    uint64_t cpu = 0;
    for (const auto& [slot, groups] : parts) {
        counters::addSlotWorkGroups(slot, groups);
        if (isCpuSlot(slot)) cpu += groups;
        shares += (shares.empty() ? "" : ", ") + ("slot " + std::to_string(slot) + ": " + std::to_string(groups));
    }
    countLaunch(counters::LaunchesSplitNway, workGroups, cpu);
    return cpu;
}

uint64_t countWholeLaunch(unsigned slot, uint64_t workGroups) {
    const uint64_t cpu = isCpuSlot(slot) ? workGroups : 0;
    countLaunch(counters::LaunchesWhole, workGroups, cpu);
    counters::addSlotWorkGroups(slot, workGroups);
    return cpu;
}

void traceLaunch(const std::string& kernel, int slot, uint64_t workGroups, uint64_t cpuWorkGroups, bool split,
                 double beginUs, double endUs, std::vector<trace::Arg> extra) {
    if (!trace::enabled()) return;
    std::vector<trace::Arg> args = {trace::num("work_groups", double(workGroups)),
                                    trace::num("cpu_work_groups", double(cpuWorkGroups)),
                                    trace::num("split", split ? 1 : 0), trace::num("slot", slot)};
    for (auto& a : extra) args.push_back(std::move(a));
    trace::span({trace::kHost, "launches"}, kernel, beginUs, endUs, std::move(args));
}

}  // namespace hetero
