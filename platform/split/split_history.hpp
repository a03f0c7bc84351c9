// Auto mode's memory (HETERO_SPLIT=auto): for each kernel and global size, how long a launch took
// run whole and split, and from that whether the next launch should split. Pure bookkeeping on
// measured seconds (no OpenCL), so the policy is tested on its own (test/platform_unit/).
//
// The policy:
//  - A size is first run whole and timed. A kernel's very first timing does not count alone: that
//    launch also paid for loading the kernel (milliseconds on NVIDIA). Launches shorter than kMinimumSplitSeconds never split: a split's
//    fixed costs (snapshots, a thread, a merge) exceed anything a second device adds.
//  - Otherwise the next launch is a probe: split and timed. The faster way is kept; the slower one
//    is re-probed now and then, twice as rarely after each loss.
//  - Probes are rationed per kernel: one in flight at a time, and their summed loss against
//    running whole stays within kProbeBudget of the kernel's time run whole. Where splitting
//    never pays, auto mode costs the first probe plus at most that share.
//  - Kernels launched at ever new sizes (gramschmidt's column loops) probe a new size only every
//    probeEvery launches of the kernel once a split of it has lost.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

namespace hetero {

class SplitHistory;

// A launch's global size: the history keeps one record per kernel and size. A plain key, so that
// deciding (every launch in auto mode) builds no strings.
struct LaunchSize {
    unsigned dims = 1;
    size_t global[3] = {1, 1, 1};
    bool operator<(const LaunchSize& o) const {
        return std::tie(dims, global[0], global[1], global[2]) < std::tie(o.dims, o.global[0], o.global[1], o.global[2]);
    }
    std::string describe() const;  // "1024x512", for the log
};

// A split launch that probes. While one is out, no other launch of the kernel probes; it ends when
// the last holder (the decision, the launch's run) lets it go.
class ProbeTicket {
public:
    ProbeTicket(SplitHistory& history, std::string kernel) : history_(history), kernel_(std::move(kernel)) {}
    ProbeTicket(const ProbeTicket&) = delete;
    ProbeTicket& operator=(const ProbeTicket&) = delete;
    ~ProbeTicket();

private:
    SplitHistory& history_;
    std::string kernel_;
};

class SplitHistory {
public:
    static constexpr double kMinimumSplitSeconds = 0.5e-3;
    static constexpr double kProbeBudget = 0.05;
    static constexpr unsigned kMaxProbeEvery = 4096;
    static constexpr unsigned kTimingLost = 1024;

    // The process-wide history.
    static SplitHistory& instance();

    struct Decision {
        bool split = false;
        bool timeWhole = false;              // time this launch if it runs whole (recordWhole)
        std::shared_ptr<ProbeTicket> probe;  // set when the split is a probe
    };
    // The next launch of `kernel` at `size`.
    Decision decide(const std::string& kernel, const LaunchSize& size);
    // A launch run whole took `seconds` (from when it could start); negative: its timing failed.
    void recordWhole(const std::string& kernel, const LaunchSize& size, double seconds);
    // A split launch took `seconds` (from when it could start); `probe`: it was a probe.
    void recordSplit(const std::string& kernel, const LaunchSize& size, double seconds, bool probe);

private:
    friend class ProbeTicket;
    struct Size {
        double whole = -1, split = -1;  // last measured seconds
        bool measured = false;          // `whole` is a timing to go by
        unsigned launches = 0;
        // One timing at a time: a backend's completion callbacks may lag far behind an application
        // that enqueues thousands of launches, and every launch timed meanwhile would pay for two.
        // A timing not reported within kTimingLost launches (its launch failed) no longer counts.
        bool timing = false;
        unsigned timingSince = 0;
        unsigned probeEvery = 16;  // launches between re-probes of the slower way; doubles on a loss
    };
    struct Kernel {
        unsigned launches = 0;
        bool timedOnce = false;   // the kernel's first timing (which includes loading it) was heard
        unsigned probeEvery = 1;  // between first probes at new sizes: 1 until a split loses, then doubling
        unsigned probing = 0;     // probes out
        double wholeSeconds = 0;  // launches run whole, at their sizes' measured times
        double probeLoss = 0;     // what probes cost beyond running whole, summed
        double lastLoss = 0;      // the latest probe's loss: what the next is expected to cost
        std::map<LaunchSize, Size> sizes;
    };
    std::mutex mutex_;
    std::map<std::string, Kernel> kernels_;
};

}  // namespace hetero
