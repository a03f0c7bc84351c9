#include "platform/split/decision.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/split/chaos.hpp"
#include "platform/split/config.hpp"
#include "platform/split/discrete_split.hpp"
#include "platform/split/nway_split.hpp"
#include "platform/split/one_device_split.hpp"
#include "platform/memory/memory_model.hpp"
#include "platform/objects/platform.hpp"
#include "platform/split/history_store.hpp"
#include "platform/split/launch_timing.hpp"
#include "platform/split/split_common.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace hetero {

namespace {

// The work-items in `partGroups` of a launch's `groups` work-groups (the history counts speeds per
// work-item; 0 when the launch has none).
double itemsIn(const LaunchGeometry& launch, uint64_t groups, uint64_t partGroups) {
    return groups == 0 ? 0 : historySizeOf(launch).workItems() * double(partGroups) / double(groups);
}

// What a launch may write, in bytes of memory objects (`memAt(i)`: argument i's object or null).
template <typename MemAt>
double bytesMayWriteOf(const KernelVariants& kv, size_t count, MemAt memAt) {
    double bytes = 0;
    const auto& params = kv.analysis->params;
    for (size_t i = 0; i < count && i < params.size(); ++i)
        if (const Mem* m = memAt(i); m && params[i].mayWrite) bytes += double(m->storage().bytes());
    return bytes;
}

// What a split of the launch would move between the devices, for auto mode's model: in discrete
// memory the written objects' results back to the CPU, and as much again for the CPU's chunks and
// stale inputs. Walks the arguments only (no allocation: it runs at every decision).
// `cost` comes with the launch's work-groups and the GPU slot's compute units.
LaunchCost splitCost(const Kernel& kernel, const KernelVariants& kv, const std::vector<KernelArg>& args, LaunchCost cost) {
    if (kernel.context()->memoryModel() == MemoryModel::Unified) return cost;
    cost.plannable = true;  // the discrete engine runs planned shares
    cost.bytesWritten = bytesMayWriteOf(kv, args.size(), [&](size_t i) { return args[i].mem.get(); });
    cost.bytesMoved = 2 * cost.bytesWritten;
    return cost;
}

// The same for an N-way split over `slots` (nway_split.hpp): each other GPU sends back what it
// changed of the written objects, about its share of them, and inputs the host wrote are already
// there (DiscreteStorage::mirrorHostWrite), at the speed of a span sent between two GPUs through
// a pinned block (22-26 GB/s between two H100s, docs/results/h100-session15). The others are
// expected to do their weights' share in the time the first does its own (nwayOthersOverFirst: GPUs
// of different names by their measured speeds; the history then keeps whichever way a size was
// measured faster).
constexpr double kNwayLinkBytesPerSecond = 20e9;
LaunchCost nwaySplitCost(const KernelVariants& kv, const std::vector<KernelArg>& args, const std::vector<unsigned>& slots,
                         LaunchCost cost) {
    const double ratio = nwayOthersOverFirst(slots, kv.historyKey);
    const double othersShare = ratio / (1 + ratio);
    cost.bytesMoved += othersShare * bytesMayWriteOf(kv, args.size(), [&](size_t i) { return args[i].mem.get(); });
    cost.linkBytesPerSecond = kNwayLinkBytesPerSecond;
    cost.priorRatio = ratio;
    return cost;
}

// What auto mode's history was learned on (history_store.hpp): Hetero's version, the memory model
// contexts get by default, and each slot's platform, device, device version and driver version.
std::string deviceSet() {
    std::string set = std::string("Hetero ") + HETERO_VERSION_STRING + "; memory " +
                      memoryModelName(defaultMemoryModel().model);
    auto info = [](cl_device_id d, cl_device_info param) {
        std::string s = backend::deviceInfoString(d, param);
        return s.empty() ? std::string("?") : s;
    };
    for (const auto& s : Device::instance()->slots())
        set += "; slot " + std::to_string(s.index) + ": " + s.platformName + " | " + s.deviceName + " | " +
               info(s.device, CL_DEVICE_VERSION) + " | driver " + info(s.device, CL_DRIVER_VERSION);
    return set;
}

}  // namespace

LaunchSize historySizeOf(const LaunchGeometry& l) {
    LaunchSize s;
    s.dims = l.dims;
    for (cl_uint d = 0; d < l.dims && d < 3; ++d) s.global[d] = l.global[d];
    return s;
}

double bytesMayWrite(const Kernel& kernel, const KernelVariants& kv, Mem* const* mems, size_t count) {
    if (kernel.context()->memoryModel() == MemoryModel::Unified) return 0;
    return bytesMayWriteOf(kv, count, [&](size_t i) { return mems[i]; });
}

void keepSplitHistoryBetweenRuns() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!history_store::enabled()) return;
        static const std::string* set = new std::string(deviceSet());  // never destroyed: used at exit
        history_store::load(SplitHistory::instance(), *set);
        std::atexit([] {
            pollLaunchTimings(/*now=*/true);  // a program's last timing (e.g. its second launch)
            history_store::save(SplitHistory::instance(), *set);
        });
    });
}

cl_event startTiming(cl_command_queue queue, const std::vector<cl_event>& waitList) {
    cl_event marker = nullptr;
    if (backend::enqueueMarker(queue, waitList, &marker) != CL_SUCCESS)
        return nullptr;
    return marker;
}

void timeUnsplitLaunch(cl_event done, const std::string& kernel, const LaunchGeometry& launch) {
    if (done) return timeWholeLaunch(done, kernel, historySizeOf(launch));
    SplitHistory::instance().recordWhole(kernel, historySizeOf(launch), -1);  // untimed: the size may be timed again
}

void recordSplit(const std::string& name, const LaunchGeometry& launch, double seconds, bool probe,
                 double cpuShare, bool planned) {
    SplitHistory::instance().recordSplit(name, historySizeOf(launch), seconds, probe, cpuShare, planned);
}

void recordTrialSplit(const std::string& kernel, const LaunchGeometry& launch, double seconds) {
    SplitHistory::instance().recordTrialSplit(kernel, historySizeOf(launch), seconds);
}

void recordCpuSpeed(const std::string& kernel, const LaunchGeometry& launch, uint64_t groups, uint64_t chunkGroups,
                    double chunkSeconds, double startSeconds) {
    SplitHistory::instance().recordCpuSpeed(kernel, itemsIn(launch, groups, chunkGroups), chunkSeconds, startSeconds);
}

void recordNwayGpuSpeed(const std::string& kernel, unsigned slot, const LaunchGeometry& launch, uint64_t groups,
                        uint64_t partGroups, double seconds) {
    SplitHistory::instance().recordNwayGpuSpeed(kernel, slot, itemsIn(launch, groups, partGroups), seconds);
}

bool writtenStorages(const KernelVariants& kv, const std::vector<KernelArg>& args, std::vector<Written>& out,
                     const char*& why) {
    const auto& params = kv.analysis->params;
    if (params.size() != args.size()) {
        why = "analysis and kernel disagree on the parameters";
        return false;
    }
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i].sampler || (args[i].mem && args[i].mem->isImage())) {
            why = "image or sampler arguments";
            return false;
        }
        if (!args[i].mem || !params[i].mayWrite) continue;
        if (params[i].storeSizes.size() != 1) {
            why = "a parameter is written through several element sizes";
            return false;
        }
        size_t size = params[i].storeSizes[0];
        if (size != 1 && size != 2 && size != 4 && size != 8) {
            why = "unsupported element size";
            return false;
        }
        Storage* s = &args[i].mem->storage();
        bool seen = false;
        for (auto& w : out)
            if (w.storage == s) {
                seen = true;
                if (w.elementSize != size) {  // the same memory through two element sizes (H2, H5)
                    why = "one memory object is written through two element sizes";
                    return false;
                }
            }
        if (!seen) out.push_back({s, size});
    }
    return true;
}

namespace {

// The GPU slots an N-way split of a launch from `preferred` takes, `preferred` first: every GPU
// slot (Backends::gpuSlots) with the chunk variant, when `preferred` is one and there are two or more; else
// none. `hasChunk` answers for variants not built yet as if they were. In auto mode a slot of
// `preferred`'s device (one backend context) is left out: it adds no compute, so such slots alone
// leave the launch to the GPU + CPU pair (HETERO_SPLIT=always splits over them, one_device_split.hpp).
template <typename HasChunk>
std::vector<unsigned> nwayParticipants(const Context& context, unsigned preferred, HasChunk hasChunk) {
    std::vector<unsigned> slots;
    const auto& gpus = Backends::instance().gpuSlots();
    if (gpus.size() < 2 || std::find(gpus.begin(), gpus.end(), preferred) == gpus.end() || !hasChunk(preferred))
        return slots;
    slots.push_back(preferred);
    const bool sameDeviceToo = splitMode() == SplitMode::Always;
    for (unsigned s : gpus)
        if (s != preferred && hasChunk(s) && (sameDeviceToo || !context.sameBackend(s, preferred))) slots.push_back(s);
    if (slots.size() < 2) slots.clear();
    return slots;
}

// The CPU slot that joins an N-way split over `gpus` (HETERO_SPLIT_NWAY_CPU): the first slot that
// is no GPU slot, has a CPU device and the chunk variant (variants not built yet count as there);
// -1 when there is none, or when the GPUs are one device (their parts share the primary's memory
// objects, one_device_split.hpp, which a CPU with a context of its own cannot). Asked only once a
// launch splits.
int nwayCpuSlot(const Context& context, const std::vector<unsigned>& gpus, const KernelVariants& kv, bool ready) {
    if (!nwayCpuJoins() || std::all_of(gpus.begin(), gpus.end(), [&](unsigned g) { return context.sameBackend(g, gpus[0]); }))
        return -1;
    const auto& gpuSlots = Backends::instance().gpuSlots();
    for (const auto& s : Device::instance()->slots())
        if ((s.type & CL_DEVICE_TYPE_CPU) && std::find(gpuSlots.begin(), gpuSlots.end(), s.index) == gpuSlots.end() &&
            (!ready || kv.chunk[s.index]))
            return static_cast<int>(s.index);
    return -1;
}

// Whether a launch that meets a build of its kernel's variants completes after it. Only where
// every launch is to split (HETERO_SPLIT=always): the launches after the one that started the
// build then all split. Elsewhere a launch runs whole at once: the first launch of a process that
// split, which started the build, took syr2k 113-168 ms on the H100 against 9 whole
// (docs/results/h100-session47); the exit waits for the build instead (variants.hpp).
bool holdsBuild() { return splitMode() == SplitMode::Always; }

// A launch whose variants are not built yet starts their build and runs whole, without waiting
// for it; under HETERO_SPLIT=always it completes only after the build (holdsBuild).
void unlessBuilt(SplitDecision& d, Kernel& kernel, KernelVariants& kv, bool ready) {
    if (!d.split || ready) return;
    std::shared_ptr<Tail> building = kv.program->buildInBackground(kernel.context());
    if (holdsBuild()) d.variantsBuilding = std::move(building);
    if (!kv.ready()) {
        d.split = false;
        d.probe.reset();
        d.plannedShare = -1;
        d.nwaySlots.clear();
        d.why = "its split variants are being built";
    }
}

// What both engines decide alike for a launch on d.gpuSlot: auto mode's history when `askHistory`
// (a launch the GPU runs in one go, LaunchCost::fitsGpuAtOnce, is decided before the history's lock
// and lookups: launch-heavy programs such as adi and jacobi-1d launch many), then whether what the
// launch writes can be merged and a split has room among those in flight. Sets d.split,
// d.timeUnsplit, d.probe and d.why.
void decideSplit(SplitDecision& d, Kernel& kernel, KernelVariants& kv, const std::vector<KernelArg>& args,
                 const LaunchGeometry& launch, bool askHistory, const std::vector<unsigned>* nwaySlots = nullptr) {
    SplitHistory::Decision h;
    h.split = true;
    if (askHistory) {
        LaunchCost fits;
        fits.workGroups = workGroupsOf(launch, kernel.maxWorkGroupSize());
        fits.gpuComputeUnits = computeUnits(d.gpuSlot);
        if (fits.fitsGpuAtOnce()) {
            d.why = "the GPU runs all its work-groups at once: a split cannot shorten it";
            d.wholeUntimedFor = SplitHistory::kMostWholeUntimed;
            d.historyCounts = false;
            return;
        }
        pollLaunchTimings();
        fits.variantsLoaded = kv.ready();  // else a split would first load them (SplitHistory::paysBackHere)
        h = SplitHistory::instance().decide(kv.historyKey, historySizeOf(launch),
                                            nwaySlots ? nwaySplitCost(kv, args, *nwaySlots, fits)
                                                      : splitCost(kernel, kv, args, fits));
        if (!h.split && !h.timeWhole) {
            d.why = "history: running whole is faster, or a split cannot pay back";
            d.wholeUntimedFor = h.wholeUntimedFor;
            d.timeNext = h.timeNext;
            return;
        }
    }
    std::vector<Written> written;
    bool splittable = writtenStorages(kv, args, written, d.why);
    if (splittable && h.split &&
        discreteSplitsInFlight() + nwaySplitsInFlight() + oneDeviceSplitsInFlight() >= kMaxDiscreteSplitsInFlight) {
        d.why = "the most split launches allowed are still in flight";
        splittable = false;
    }
    if (!splittable) {
        // Never timed for a launch that could not split: the size may be timed again.
        if (h.timeWhole) SplitHistory::instance().recordWhole(kv.historyKey, historySizeOf(launch), -1);
        return;
    }
    d.split = h.split;
    d.timeUnsplit = h.timeWhole;
    d.probe = std::move(h.probe);
    d.plannedShare = h.plannedShare;  // only where the engine runs plans (LaunchCost::plannable)
    d.expectedWholeSeconds = h.wholeSeconds;
    if (!d.split) d.why = "history: running whole is timed first";
}

// The N-way decision (nway_split.hpp): split over `slots` as decideSplit says. Auto mode's history
// decides as for the GPU + CPU pair, with the N-way split's own costs (nwaySplitCost): with the
// pair's (every written object twice, at host-memory speed), two H100s never tried LARGE syrk or
// gemm, which split gain 0.70x and 0.92x (docs/results/h100-session16).
// The CPU slot (nwayCpuSlot) joins at the top of the work-groups with the share the history plans
// from the speeds measured in earlier N-way splits (SplitHistory::nwayCpuShare), or
// kNwayCpuTrialShare while they are not known (a trial: no measurement of the split itself); not
// where the plan finds no gain. Under the chaos knob it always joins (the engine draws random shares).
SplitDecision nwayDecision(Kernel& kernel, KernelVariants& kv, const std::vector<KernelArg>& args,
                           const LaunchGeometry& launch, std::vector<unsigned> slots, bool ready) {
    SplitDecision d;
    d.gpuSlot = slots[0];
    decideSplit(d, kernel, kv, args, launch, splitMode() != SplitMode::Always, &slots);
    if (d.split) {
        d.cpuSlot = slots[1];
        if (const int cpu = nwayCpuSlot(*kernel.context(), slots, kv, ready); cpu >= 0) {
            LaunchCost cost = splitCost(kernel, kv, args, {});
            cost.workGroups = workGroupsOf(launch, kernel.maxWorkGroupSize());
            const double planned = SplitHistory::instance().nwayCpuShare(
                kv.historyKey, historySizeOf(launch), slots[0], 1 + nwayOthersOverFirst(slots, kv.historyKey), cost);
            d.nwayCpuTrial = planned < 0;
            d.nwayCpuShare = planned < 0 || (planned == 0 && chaos::on()) ? SplitHistory::kNwayCpuTrialShare : planned;
            if (d.nwayCpuShare > 0) slots.push_back(static_cast<unsigned>(cpu));
        }
        d.nwaySlots = std::move(slots);
    }
    unlessBuilt(d, kernel, kv, ready);
    return d;
}

SplitDecision decideLaunch(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                           unsigned preferredSlot) {
    SplitDecision d;
    d.gpuSlot = preferredSlot;
    auto kv = kernel.variants();
    if (!kv) {
        d.why = "not splittable";
        return d;
    }
    if (launch.empty) return d;
    // Not built yet (HETERO_SPLIT_BUILD=lazy): decided as if the variants existed on every slot;
    // a launch that would split starts their build and runs whole (below).
    const bool ready = kv->ready();
    auto hasChunk = [&](unsigned slot) { return !ready || kv->chunk[slot]; };
    // Two or more GPUs: the launch is split over them (a fixed CPU share keeps the GPU + CPU pair).
    if (nwaySplits() && cpuShare() < 0 && kernel.context()->memoryModel() == MemoryModel::Discrete)
        if (auto gpus = nwayParticipants(*kernel.context(), preferredSlot, hasChunk); !gpus.empty())
            return nwayDecision(kernel, *kv, args, launch, std::move(gpus), ready);
    const auto& slots = Device::instance()->slots();
    int cpu = -1;
    for (const auto& s : slots)
        if (s.index != preferredSlot && (s.type & CL_DEVICE_TYPE_CPU) && hasChunk(s.index)) {
            cpu = static_cast<int>(s.index);
            break;
        }
    for (const auto& s : slots)
        if (cpu < 0 && s.index != preferredSlot && hasChunk(s.index)) cpu = static_cast<int>(s.index);
    if (cpu < 0 || (ready && !kv->abort[preferredSlot])) {
        d.why = "the variants are missing on a slot";
        return d;
    }
    // PoCL (3.1 at least) miscompiles async_work_group_copy behind the abort variant's work-group-
    // uniform early return: the kernel crashes (CTS test_basic async_copy_local_to_global; the
    // smallest such kernel is in docs/results/cts.md). The abort variant runs on `preferredSlot`.
    if (kv->analysis && kv->analysis->usesAsyncCopies && slots[preferredSlot].isPocl()) {
        d.why = "PoCL runs the abort variant, and it uses async work-group copies";
        return d;
    }
    double share = cpuShare();
    if (share == 0.0) {
        d.why = "HETERO_CPU_SHARE=0";
        return d;
    }
    d.cpuSlot = static_cast<unsigned>(cpu);
    // Auto mode asks the history first: most launches of a launch-heavy program run whole and
    // untimed, and need nothing else looked at (no allocation, no walk over the storages).
    decideSplit(d, kernel, *kv, args, launch, splitMode() != SplitMode::Always && share < 0);
    unlessBuilt(d, kernel, *kv, ready);
    return d;
}

}  // namespace

SplitDecision splitDecision(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
                            unsigned preferredSlot) {
    SplitDecision d = decideLaunch(kernel, args, launch, preferredSlot);
    // Under HETERO_SPLIT=always a build of the variants under way (started by an earlier launch)
    // holds every launch of the kernel until it is over, as it holds the launch that started it.
    if (!d.variantsBuilding && holdsBuild())
        if (auto kv = kernel.variants(); kv && !kv->ready()) d.variantsBuilding = kv->program->buildingTail();
    return d;
}

}  // namespace hetero
