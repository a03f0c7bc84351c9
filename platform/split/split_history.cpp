#include "platform/split/split_history.hpp"

#include "platform/support/log.hpp"

#include <algorithm>

namespace hetero {

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

SplitHistory::Decision SplitHistory::decide(const std::string& kernel, const LaunchSize& size) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    ++s.launches;
    ++k.launches;
    Decision d;
    if (s.timing && s.launches - s.timingSince > kTimingLost) s.timing = false;
    // Only a launch that runs whole takes the size's one timing: a split one never reports it.
    auto whole = [&] {
        // Timing costs a marker and two completion callbacks (tens of microseconds on NVIDIA): a
        // size is timed again every 16th launch, every 256th while it is too short to split.
        const unsigned every = s.whole < kMinimumSplitSeconds ? 256 : 16;
        d.timeWhole = !s.timing && (!s.measured || s.launches % every == 0);
        if (d.timeWhole) {
            s.timing = true;
            s.timingSince = s.launches;
        }
        if (s.whole > 0) k.wholeSeconds += s.whole;
        return d;
    };
    if (!s.measured || s.whole < kMinimumSplitSeconds) return whole();  // not measured, or too short
    if (s.split >= 0 && s.split < s.whole) {
        // Splitting pays: run whole now and then, to see whether it still does.
        if (s.launches % s.probeEvery == 0) return whole();
        d.split = true;
        return d;
    }
    // A split now would be a probe: the first at this size, or a re-probe of a split that lost.
    const bool due = s.split < 0 ? k.launches % k.probeEvery == 0 : s.launches % s.probeEvery == 0;
    if (!due || k.probing > 0 || k.probeLoss + k.lastLoss > kProbeBudget * k.wholeSeconds) return whole();
    ++k.probing;
    d.split = true;
    d.probe = std::make_shared<ProbeTicket>(*this, kernel);
    return d;
}

void SplitHistory::recordWhole(const std::string& kernel, const LaunchSize& size, double seconds) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    s.timing = false;
    if (seconds < 0) return;
    HETERO_LOG(Debug, "history %s:%s: whole %.3f ms%s", kernel.c_str(), size.describe().c_str(), seconds * 1e3,
               k.timedOnce ? "" : " (the kernel's first timing)");
    s.whole = seconds;
    s.measured = s.measured || k.timedOnce;
    k.timedOnce = true;
}

void SplitHistory::recordSplit(const std::string& kernel, const LaunchSize& size, double seconds, bool probe) {
    std::lock_guard lock(mutex_);
    Kernel& k = kernels_[kernel];
    Size& s = k.sizes[size];
    s.split = seconds;
    if (s.whole >= 0 && probe) {
        k.lastLoss = std::max(0.0, seconds - s.whole);
        k.probeLoss += k.lastLoss;
    }
    // A split that lost makes the next probe twice as rare: on a machine where the GPU is far
    // faster, trying costs more than splitting could ever gain.
    if (s.whole >= 0 && seconds > s.whole) {
        s.probeEvery = std::min(s.probeEvery * 2, kMaxProbeEvery);
        k.probeEvery = std::min(std::max(16u, k.probeEvery * 2), kMaxProbeEvery);
    } else if (s.whole >= 0) {
        k.probeEvery = 1;  // splitting this kernel pays: try it at every size
    }
    HETERO_LOG(Info, "history %s:%s: split %.3f ms, whole %.3f ms%s; probes lost %.3f ms of %.3f ms run whole",
               kernel.c_str(), size.describe().c_str(), seconds * 1e3, s.whole * 1e3, probe ? " (a probe)" : "", k.probeLoss * 1e3,
               k.wholeSeconds * 1e3);
}

}  // namespace hetero
