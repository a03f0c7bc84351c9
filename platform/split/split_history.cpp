#include "platform/split/split_history.hpp"

#include "platform/support/log.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace hetero {

double LaunchSize::workItems() const {
    double n = 1;
    for (unsigned d = 0; d < dims && d < 3; ++d) n *= double(global[d]);
    return n;
}

std::string LaunchSize::describe() const {
    std::string s;
    for (unsigned d = 0; d < dims && d < 3; ++d) s += (d ? "x" : "") + std::to_string(global[d]);
    return s;
}

SplitHistory& SplitHistory::instance() {
    static auto* history = new SplitHistory;  // never destroyed: split threads may record at exit
    return *history;
}

ProbeTicket::~ProbeTicket() {
    std::lock_guard lock(history_.mutex_);
    auto& k = history_.kernels_[kernel_];
    if (k.probing > 0) --k.probing;
}

namespace {
// A CPU that did nothing in a split still counts as this fast: long enough launches (25 ms with
// the fixed costs here) may be probed again, within the probe budget.
constexpr double kSlowestCpuRatio = 0.01;
}  // namespace

double SplitHistory::ratioFor(const Kernel& k) const {
    if (k.cpuRatio >= 0) return k.cpuRatio;
    // One split alone may have been a bad moment (a busy machine, a launch longer than the whole
    // time it was compared with): other kernels go by the device set only once two agree.
    return ratioKernels_ >= kRatioKernels ? bestCpuRatio_ : kPriorCpuRatio;
}

double SplitHistory::gainBoundLocked(const Kernel& k, double wholeSeconds, const LaunchCost& cost) const {
    const double r = k.cpuRatio < 0 && cost.priorRatio > 0 ? cost.priorRatio : ratioFor(k);
    const double link = cost.linkBytesPerSecond > 0 ? cost.linkBytesPerSecond : kLinkBytesPerSecond;
    return wholeSeconds * r / (1 + r) - kSplitFixedSeconds - cost.bytesMoved / link;
}

double SplitHistory::planShareLocked(const Kernel& k, double whole, double items, const LaunchCost& cost,
                                     double* gain) const {
    if (!cost.plannable || k.cpuSecondsPerItem <= 0 || whole <= 0 || items <= 0) return -1;
    const double gpuPerItem = whole / items, cpuPerItem = k.cpuSecondsPerItem;
    // The CPU's fixed costs: until its chunk starts (as measured: inputs brought to the CPU included),
    // and after it: its results compared and sent, the merge. (The merged result is not streamed
    // back to the CPU: discrete_split.cpp leaves its copies stale until something reads them.)
    const double fixed = (k.cpuStartSeconds >= 0 ? k.cpuStartSeconds : kSplitFixedSeconds) + kSplitFixedSeconds +
                         cost.bytesWritten / kSendBytesPerSecond;
    // Both end together when fixed + x * cpuPerItem == (items - x) * gpuPerItem.
    const double balanced = (whole - fixed) / (cpuPerItem + gpuPerItem);
    const double cpuItems = std::min(kPlanMargin * balanced, 0.5 * items);
    const double itemsPerGroup = cost.workGroups > 0 ? items / double(cost.workGroups) : 1;
    if (cpuItems < itemsPerGroup) return 0;  // not one work-group
    const double predicted = std::max(fixed + cpuItems * cpuPerItem, whole - cpuItems * gpuPerItem);
    if (gain) *gain = whole - predicted;
    return whole - predicted >= kMinPlanGain * whole ? cpuItems / items : 0;
}

double SplitHistory::planShare(const std::string& kernel, double wholeSeconds, double items, const LaunchCost& cost) {
    std::lock_guard lock(mutex_);
    return planShareLocked(kernels_[kernel], wholeSeconds, items, cost);
}

void SplitHistory::recordCpuSpeed(const std::string& kernel, double chunkItems, double chunkSeconds, double startSeconds) {
    if (chunkItems <= 0 || chunkSeconds <= 0) return;
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    if (!k.splitHere) return;  // the first split in the process compiled the CPU's chunk (recordSplit)
    // Slower news is believed at once, faster news half-way: a share planned on a speed the CPU
    // does not reach holds the launch back, one planned on a slower speed only gives a little away.
    const double measured = chunkSeconds / chunkItems;
    k.cpuSecondsPerItem = k.cpuSecondsPerItem <= 0 || measured > k.cpuSecondsPerItem
                              ? measured
                              : 0.5 * (k.cpuSecondsPerItem + measured);
    if (startSeconds >= 0) k.cpuStartSeconds = startSeconds;
    changed();
    HETERO_LOG(Debug, "history %s: CPU %.3f us per 1000 work-items in one chunk, starts %.3f ms into a split", kernel.c_str(),
               k.cpuSecondsPerItem * 1e9, k.cpuStartSeconds * 1e3);
}

void SplitHistory::recordTrialSplit(const std::string& kernel, const LaunchSize& size, double seconds) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    k.splitHere = true;
    ++k.nwayCpuTrials;
    changed();
    HETERO_LOG(Debug, "history %s:%s: split with the CPU's trial share %.3f ms, not counted", kernel.c_str(),
               size.describe().c_str(), seconds * 1e3);
}

void SplitHistory::recordNwayGpuSpeed(const std::string& kernel, unsigned slot, double items, double seconds) {
    if (items <= 0 || seconds <= 0) return;
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    if (!k.splitHere) return;  // the first split in the process loaded the chunk variants (recordSplit)
    const double measured = seconds / items;
    // Faster news is believed at once, slower news half-way: a GPU believed slower than it is plans
    // the CPU a share that ends after the GPUs' parts.
    auto [known, fresh] = k.nwayGpuSecondsPerItem.try_emplace(slot, measured);
    if (!fresh) known->second = measured < known->second ? measured : 0.5 * (known->second + measured);
    changed();
}

void SplitHistory::nwayGpuWeights(const std::string& kernel, const std::vector<unsigned>& slots,
                                  const std::vector<unsigned>& computeUnits, bool alike, std::vector<double>& weights) {
    weights.assign(slots.size(), 1.0);
    if (alike) return;
    std::lock_guard lock(mutex_);
    const auto k = kernels_.find(kernel);
    bool measured = k != kernels_.end();
    for (size_t i = 0; measured && i < slots.size(); ++i) {
        const auto speed = k->second.nwayGpuSecondsPerItem.find(slots[i]);
        measured = speed != k->second.nwayGpuSecondsPerItem.end() && speed->second > 0;
        if (measured) weights[i] = 1 / speed->second;
    }
    if (!measured)
        for (size_t i = 0; i < slots.size(); ++i) weights[i] = i < computeUnits.size() ? std::max(1u, computeUnits[i]) : 1.0;
}

double SplitHistory::nwayCpuShare(const std::string& kernel, const LaunchSize& size, unsigned primary, double gpus,
                                  const LaunchCost& cost) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    const double items = size.workItems();
    const double unknown = k.nwayCpuTrials >= kMaxNwayCpuTrials ? 0 : -1;
    if (k.cpuSecondsPerItem <= 0 || gpus <= 0 || items <= 0) return unknown;
    const auto s = k.sizes.find(size);
    const auto measured = k.nwayGpuSecondsPerItem.find(primary);
    const double gpuPerItem = s != k.sizes.end() && s->second.measured && s->second.whole > 0 ? s->second.whole / items
                              : measured != k.nwayGpuSecondsPerItem.end()                    ? measured->second
                                                                                             : k.secondsPerItem;
    if (gpuPerItem <= 0) return unknown;
    LaunchCost planned = cost;
    planned.plannable = true;
    return std::max(0.0, planShareLocked(k, gpuPerItem * items / gpus, items, planned));
}

double SplitHistory::gainBound(const std::string& kernel, double wholeSeconds, const LaunchCost& cost) {
    std::lock_guard lock(mutex_);
    return gainBoundLocked(kernels_[kernel], wholeSeconds, cost);
}

bool SplitHistory::prebuildVariants(const std::string& kernel) {
    std::lock_guard lock(mutex_);
    const auto k = kernels_.find(kernel);
    return k != kernels_.end() && k->second.prebuild;
}

bool SplitHistory::paysBackHere(const Kernel& k, const LaunchCost& cost, double gainPerLaunch) const {
    if (k.splitHere || k.launchesPerProcess < 0) return true;  // paid already, or nothing known to go by
    // The launches left, this one included: the average's remainder, or, in a process already past
    // it, as many again as it made (a process that ran long is likely to run on).
    const double made = k.launchesHere;
    const double left = std::max(k.launchesPerProcess - made + 1, made);
    // A launch that loads the variants runs whole (and waits for them); the first split gains too,
    // beyond its own extra.
    const double splits = cost.variantsLoaded ? left : left - 1;
    const double firstCosts = (cost.variantsLoaded ? 0 : kVariantLoadSeconds) + kFirstSplitSeconds;
    return splits * gainPerLaunch > firstCosts;
}

SplitHistory::Decision SplitHistory::decide(const std::string& kernel, const LaunchSize& size, const LaunchCost& cost) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    ++s.launches;
    ++k.launches;
    const bool loading = k.launchesHere++ == 0;  // its time would include loading the kernel
    Decision d;
    if (s.timing && s.launches - s.timingSince > kTimingLost) s.timing = false;
    if (cost.fitsGpuAtOnce()) return d;  // cannot gain, and more data cannot change that
    // Running whole takes the size's measured time, else the kernel's time per work-item there.
    const double whole = s.measured ? s.whole : k.secondsPerItem >= 0 ? k.secondsPerItem * size.workItems() : -1;
    d.wholeSeconds = whole;
    // Once the CPU's speed is known, only a plan that gains may split (and splits as planned); what
    // a split is expected to gain is then the plan's prediction, else the model's bound.
    double planGain = 0;
    const double plan = planShareLocked(k, whole, size.workItems(), cost, &planGain);
    const double expectedGain = plan >= 0 ? planGain : whole >= 0 ? gainBoundLocked(k, whole, cost) : 0;
    const bool mayGain = whole < 0 || (plan >= 0 ? plan > 0 : expectedGain > 0);
    if (plan > 0) d.plannedShare = plan;
    // Only a launch that runs whole takes the size's one timing: a split one never reports it.
    auto runWhole = [&] {
        d.plannedShare = -1;
        // A timing costs a side queue and an event (microseconds on NVIDIA): a size that may gain
        // is timed again every 16th launch, one that cannot every 256th, then ever more rarely
        // (its time may grow with its data); one not measured yet at once, if it may gain.
        if (mayGain) s.retimeEvery = kFirstRetimeEvery;
        const unsigned every = mayGain ? 16 : s.retimeEvery;
        d.timeWhole = !loading && !s.timing && ((!s.measured && mayGain) || s.launches % every == 0);
        d.timeNext = loading && !s.timing && !s.measured && mayGain;
        if (d.timeWhole) {
            s.timing = true;
            s.timingSince = s.launches;
            if (!mayGain) s.retimeEvery = std::min(s.retimeEvery * 2, kMaxRetimeEvery);
        } else if (!mayGain) {
            // The launches before the next one due for a timing run whole untimed as well.
            d.wholeUntimedFor = std::min(kMostWholeUntimed, every - 1 - s.launches % every);
        }
        if (s.whole > 0) k.wholeSeconds += s.whole;
        return d;
    };
    if (!s.measured) return runWhole();
    // Whether a split that would be made now pays back in this process; where it does not only
    // because the variants are not loaded, the next process builds them with the program
    // (prebuildVariants).
    auto paysBack = [&](double gain) {
        if (paysBackHere(k, cost, gain)) return k.wantedHere = true;
        LaunchCost loaded = cost;
        loaded.variantsLoaded = true;
        k.wantedHere = k.wantedHere || paysBackHere(k, loaded, gain);
        return false;
    };
    if (s.splitPays()) {
        // Splitting was measured to pay (whatever the model expected): run whole now and then, to
        // see whether it still does.
        if (s.launches % s.probeEvery == 0 || !paysBack(s.whole - s.split)) return runWhole();
        d.split = true;
        return d;
    }
    if (!mayGain) return runWhole();
    // A split now would be a probe: the first at this size, or a re-probe of a split that lost (a
    // split measured here did not pay, or the branch above took it).
    // A size's first plan is tried at once, whatever earlier (adaptive) probes lost: it promises a gain,
    // and what it measures decides from then on.
    const bool firstPlan = plan > 0 && (s.triedShare < 0 || (s.split >= 0 && plan < kRetryShare * s.triedShare));
    const bool due = firstPlan || (s.split < 0 ? k.launches % k.probeEvery == 0 : s.launches % s.probeEvery == 0);
    if (!due || k.probing > 0 || (!firstPlan && k.probeLoss + k.lastLoss > kProbeBudget * k.wholeSeconds))
        return runWhole();
    // A probe or a plan's trial measures only after the process's first split: it is worth trying
    // where a process of this kernel could gain it back at the gain expected.
    if (!paysBack(expectedGain)) return runWhole();
    ++k.probing;
    d.split = true;
    d.probe = std::make_shared<ProbeTicket>(*this, kernel);
    return d;
}

void SplitHistory::countWholeLaunches(const std::string& kernel, const LaunchSize& size, unsigned launches) {
    if (launches == 0) return;
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    s.launches += launches;
    k.launches += launches;
    k.launchesHere += launches;
    if (s.whole > 0) k.wholeSeconds += s.whole * launches;
}

void SplitHistory::recordWhole(const std::string& kernel, const LaunchSize& size, double seconds) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    s.timing = false;
    changed();  // (also a timing that failed: the size may be timed again)
    if (seconds < 0) return;
    HETERO_LOG(Debug, "history %s:%s: whole %.3f ms", kernel.c_str(), size.describe().c_str(), seconds * 1e3);
    s.whole = seconds;
    s.measured = true;
    k.secondsPerItem = seconds / size.workItems();
}

void SplitHistory::recordSplit(const std::string& kernel, const LaunchSize& size, double seconds, bool probe,
                               double cpuShare, bool planned) {
    std::lock_guard lock(mutex_);
    changed();
    Kernel& k = kernels_[kernel];
    if (!k.splitHere) {
        k.splitHere = true;
        HETERO_LOG(Debug, "history %s:%s: first split %.3f ms, not counted (it loaded the variants)", kernel.c_str(),
                   size.describe().c_str(), seconds * 1e3);
        return;
    }
    Size& s = k.sizes[size];
    s.split = seconds;
    if (planned) s.triedShare = cpuShare;
    if (s.whole >= 0 && probe) {
        k.lastLoss = std::max(0.0, seconds - s.whole);
        k.probeLoss += k.lastLoss;
    }
    // The CPU's speed over the GPU's: it did cpuShare of the work in `seconds`, the GPU all of it
    // in s.whole. What the model expects of this kernel's next splits, and of other kernels'
    // first ones (the best any kernel showed).
    if (cpuShare >= 0 && s.whole > 0 && seconds > 0) {
        if (k.cpuRatio < 0) ++ratioKernels_;
        k.cpuRatio = std::max(kSlowestCpuRatio, cpuShare * s.whole / seconds);
        bestCpuRatio_ = std::max(bestCpuRatio_, k.cpuRatio);
    }
    // A split that lost, or won by no more than noise (kMinSplitWin), makes the next probe twice
    // as rare: on a machine where the GPU is far faster, trying costs more than splitting could
    // ever gain.
    if (s.whole >= 0 && !s.splitPays()) {
        s.probeEvery = std::min(s.probeEvery * 2, kMaxProbeEvery);
        k.probeEvery = std::min(std::max(16u, k.probeEvery * 2), kMaxProbeEvery);
    } else if (s.whole >= 0) {
        k.probeEvery = 1;  // splitting this kernel pays: try it at every size
    }
    HETERO_LOG(Info, "history %s:%s: split %.3f ms, whole %.3f ms%s; probes lost %.3f ms of %.3f ms run whole",
               kernel.c_str(), size.describe().c_str(), seconds * 1e3, s.whole * 1e3, probe ? " (a probe)" : "", k.probeLoss * 1e3,
               k.wholeSeconds * 1e3);
}

// ---------------------------------------------------------------------------------------------
// Between runs: one line per kernel, then one per size of it, numbers in full precision.
// ---------------------------------------------------------------------------------------------
namespace {
constexpr const char* kHeader = "hetero split history 2";
// A kernel line's field with the launches a process makes of it (Kernel::launchesPerProcess).
constexpr std::string_view kPerProcess = "perprocess=";
// ... and the one saying its variants are worth building with its program (Kernel::prebuild).
constexpr std::string_view kPrebuild = "prebuild=";

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

bool readNumber(std::istringstream& in, double& v) {
    std::string t;
    if (!(in >> t)) return false;
    char* end = nullptr;
    v = std::strtod(t.c_str(), &end);
    return end && *end == '\0' && std::isfinite(v);
}

bool readCount(std::istringstream& in, unsigned long long& v, unsigned long long most) {
    double d;
    if (!readNumber(in, d) || d < 0 || d > double(most) || d != std::floor(d)) return false;
    v = static_cast<unsigned long long>(d);
    return true;
}
}  // namespace

std::string SplitHistory::serialize() {
    std::lock_guard lock(mutex_);
    std::string out = std::string(kHeader) + "\nbest " + number(bestCpuRatio_) + "\n";
    for (const auto& [name, k] : kernels_) {
        if (name.empty() || name.find_first_of(" \t\n\r") != std::string::npos) continue;
        out += "kernel " + name + " " + std::to_string(k.launches) + " " + std::to_string(k.probeEvery) + " " +
               number(k.wholeSeconds) + " " + number(k.probeLoss) + " " + number(k.lastLoss) + " " +
               number(k.secondsPerItem) + " " + number(k.cpuRatio) + " " + number(k.cpuSecondsPerItem) + " " +
               number(k.cpuStartSeconds);
        for (const auto& [slot, seconds] : k.nwayGpuSecondsPerItem) out += " gpu" + std::to_string(slot) + "=" + number(seconds);
        // This process's launches averaged in (it is about to end: the history is written at exit).
        const double perProcess = k.launchesHere == 0         ? k.launchesPerProcess
                                  : k.launchesPerProcess < 0 ? double(k.launchesHere)
                                                             : 0.5 * (k.launchesPerProcess + double(k.launchesHere));
        if (k.launchesHere == 0 ? k.prebuild : k.wantedHere) out += " " + std::string(kPrebuild) + "1";
        if (perProcess > 0) out += " " + std::string(kPerProcess) + number(perProcess);
        out += "\n";
        for (const auto& [size, s] : k.sizes) {
            if (!s.measured && s.split < 0) continue;  // nothing learned yet
            out += "size " + std::to_string(size.dims) + " " + std::to_string(size.global[0]) + " " +
                   std::to_string(size.global[1]) + " " + std::to_string(size.global[2]) + " " + number(s.whole) + " " +
                   number(s.split) + " " + (s.measured ? "1" : "0") + " " + std::to_string(s.launches) + " " +
                   std::to_string(s.probeEvery) + " " + number(s.triedShare) + "\n";
        }
    }
    return out;
}

bool SplitHistory::deserialize(const std::string& text) {
    std::map<std::string, Kernel> kernels;
    double best = -1;
    std::istringstream lines(text);
    std::string line;
    if (!std::getline(lines, line) || line != kHeader) return false;
    Kernel* current = nullptr;
    const unsigned long long most = 1ull << 40;
    while (std::getline(lines, line)) {
        std::istringstream in(line);
        std::string what;
        if (!(in >> what)) continue;
        unsigned long long a = 0, b = 0, c = 0, dims = 0;
        if (what == "best") {
            if (!readNumber(in, best)) return false;
        } else if (what == "kernel") {
            std::string name;
            Kernel k;
            if (!(in >> name) || !readCount(in, a, most) || !readCount(in, b, kMaxProbeEvery) || !readNumber(in, k.wholeSeconds) ||
                !readNumber(in, k.probeLoss) || !readNumber(in, k.lastLoss) || !readNumber(in, k.secondsPerItem) ||
                !readNumber(in, k.cpuRatio) || !readNumber(in, k.cpuSecondsPerItem) || !readNumber(in, k.cpuStartSeconds) ||
                b == 0)
                return false;
            // Then each GPU slot's speed in N-way splits, "gpu<slot>=<seconds per work-item>" (written
            // since the CPU joins N-way splits), "prebuild=1" and "perprocess=<launches>"; a history
            // without them reads as before.
            for (std::string field; in >> field;) {
                const size_t eq = field.find('=');
                if (field.compare(0, kPerProcess.size(), kPerProcess) == 0) {
                    std::istringstream value(field.substr(kPerProcess.size()));
                    if (!readNumber(value, k.launchesPerProcess) || k.launchesPerProcess <= 0) return false;
                    continue;
                }
                if (field.compare(0, kPrebuild.size(), kPrebuild) == 0) {
                    const std::string value = field.substr(kPrebuild.size());
                    if (value != "0" && value != "1") return false;
                    k.prebuild = value == "1";
                    continue;
                }
                if (field.compare(0, 3, "gpu") != 0 || eq == std::string::npos) return false;
                std::istringstream slot(field.substr(3, eq - 3)), seconds(field.substr(eq + 1));
                unsigned long long index = 0;
                double v = 0;
                if (!readCount(slot, index, 1024) || !readNumber(seconds, v) || v <= 0) return false;
                k.nwayGpuSecondsPerItem[static_cast<unsigned>(index)] = v;
            }
            k.launches = static_cast<unsigned>(a);
            k.probeEvery = static_cast<unsigned>(b);
            current = &(kernels[name] = std::move(k));
        } else if (what == "size" && current) {
            LaunchSize size;
            Size s;
            double measured = 0;
            if (!readCount(in, dims, 3) || dims < 1 || !readCount(in, a, most) || !readCount(in, b, most) ||
                !readCount(in, c, most) || !readNumber(in, s.whole) || !readNumber(in, s.split) || !readNumber(in, measured))
                return false;
            unsigned long long launches = 0, every = 0;
            if (!readCount(in, launches, most) || !readCount(in, every, kMaxProbeEvery) || every == 0 ||
                !readNumber(in, s.triedShare))
                return false;
            size.dims = static_cast<unsigned>(dims);
            size.global[0] = a, size.global[1] = b, size.global[2] = c;
            s.measured = measured == 1;
            s.launches = static_cast<unsigned>(launches);
            s.probeEvery = static_cast<unsigned>(every);
            current->sizes[size] = s;
        } else {
            return false;
        }
        std::string rest;
        if (in >> rest) return false;
    }
    std::lock_guard lock(mutex_);
    changed();
    kernels_ = std::move(kernels);
    bestCpuRatio_ = best;
    ratioKernels_ = 0;
    for (const auto& entry : kernels_) ratioKernels_ += entry.second.cpuRatio >= 0;
    return true;
}

}  // namespace hetero
