// Launch counting and the "launches" lane of the trace (launch_stats.hpp).
#include "platform/split/launch_stats.hpp"

#include "platform/objects/platform.hpp"

#include <algorithm>

namespace hetero {

void chooseLocalSize(LaunchGeometry& l, size_t maxGroup) {
    for (cl_uint d = 0; d < l.dims; ++d) {
        size_t limit = d == 0 ? std::min<size_t>(64, maxGroup) : 1;
        size_t best = 1;
        for (size_t c = limit; c >= 1; --c)
            if (l.global[d] % c == 0) {
                best = c;
                break;
            }
        l.local[d] = best;
    }
    l.hasLocal = true;
}

uint64_t workGroupsOf(const LaunchGeometry& launch, size_t maxGroup) {
    if (launch.empty) return 0;
    LaunchGeometry l = launch;
    if (!l.hasLocal) chooseLocalSize(l, maxGroup ? maxGroup : 1);
    uint64_t groups = 1;
    for (cl_uint d = 0; d < l.dims; ++d) groups *= (l.global[d] + l.local[d] - 1) / l.local[d];  // non-uniform: the last is partial
    return groups;
}

bool isCpuSlot(unsigned slot) {
    const Device* device = Device::instance();
    return device && slot < device->slots().size() && (device->slots()[slot].type & CL_DEVICE_TYPE_CPU);
}

void countLaunch(counters::Counter kind, uint64_t workGroups, uint64_t cpuWorkGroups) {
    counters::add(kind);
    counters::add(counters::WorkGroupsTotal, workGroups);
    counters::add(counters::WorkGroupsCpu, cpuWorkGroups);
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
