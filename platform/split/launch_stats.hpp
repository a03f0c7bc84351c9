// What every kernel launch reports, whole or split: the launch counters (counters.hpp) and one span
// on the trace's {kHost, "launches"} lane, whose arguments the bench runner sums into the CPU's
// share of the work-groups.
#pragma once

#include "platform/observe/counters.hpp"
#include "platform/split/launch_geometry.hpp"
#include "platform/observe/trace.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace hetero {

// True when `slot` is a CPU device (its work-groups count as the CPU's).
bool isCpuSlot(unsigned slot);

// One launch: `kind` (LaunchesWhole, LaunchesSplitDiscrete or LaunchesSplitUnified) + 1, and its
// work-groups, of which `cpuWorkGroups` ran on a CPU slot. Call before the launch is seen complete.
void countLaunch(counters::Counter kind, uint64_t workGroups, uint64_t cpuWorkGroups);

// A launch run whole on `slot`: countLaunch, and `slot`'s work-groups. Returns the work-groups that
// ran on a CPU slot (all or none).
uint64_t countWholeLaunch(unsigned slot, uint64_t workGroups);

// A launch split N-way (nway_split, one_device_split) into `parts` (each a slot and its
// work-groups): countLaunch as LaunchesSplitNway, and each slot's work-groups. Returns the
// work-groups that ran on CPU slots; `shares` says who took what ("slot 0: n, slot 1: m").
uint64_t countNwayLaunch(uint64_t workGroups, const std::vector<std::pair<unsigned, uint64_t>>& parts,
                         std::string& shares);

// The launch's span on {kHost, "launches"}, named by the kernel, with args work_groups,
// cpu_work_groups, split (0/1), slot, then `extra`. Nothing when tracing is off.
void traceLaunch(const std::string& kernel, int slot, uint64_t workGroups, uint64_t cpuWorkGroups, bool split,
                 double beginUs, double endUs, std::vector<trace::Arg> extra = {});

}  // namespace hetero
