// Auto mode's memory (HETERO_SPLIT=auto): for each kernel and global size, how long a launch took
// run whole and split, and from that whether the next launch should split. Pure bookkeeping on
// measured seconds (no OpenCL), so the policy is tested on its own (test/platform_unit/). It is
// kept between runs (split/history_store.cpp), so a program's second run starts where its first
// ended.
//
// The policy:
//  - Learning costs (a timed launch runs on a side queue with an event; a probe is a split that may
//    lose), so a launch is only timed or split when the model says a split of it could gain: the
//    CPU would take its speed's share of the work (cpuRatio: the CPU's speed over the GPU's, for
//    this kernel once a split measured it, else the best any kernel of this device set showed once
//    two did, else kPriorCpuRatio), less a split's fixed costs (kSplitFixedSeconds: snapshots, a thread, a
//    merge) and the bytes it would move between the devices (at kLinkBytesPerSecond, or the
//    LaunchCost's own speed and prior ratio: an N-way split's, decision.cpp). The time run
//    whole it starts from is the size's measured one, else the kernel's time per work-item at
//    other sizes, else unknown (which may gain).
//  - A launch the GPU runs in one go (no more work-groups than it has compute units) cannot gain:
//    it runs whole, never timed or probed (LaunchCost::fitsGpuAtOnce).
//  - A kernel's first launch in a process also loads it (milliseconds on NVIDIA): it is never
//    timed. A program that launches each kernel once never pays for the CPU being there.
//  - A kernel's first split in a process measures nothing and costs extra (paysBackHere): the
//    variants load (the launch that starts their build runs whole and waits for it) and the first
//    split pays every first use. So a process splits a kernel (a split that pays, a probe or a plan)
//    only where the launches it is expected to have left (launchesPerProcess, an average over earlier
//    processes kept with the history) gain more than that. syrk on the H200, two launches a process:
//    every process loaded the variants for one split and learned nothing, 1.22x native
//    (docs/results/h200-session42). Where only loading them stood in the way, the next process
//    builds them with the program (prebuildVariants).
//  - A size that may gain is timed run whole first, then the next launch is a probe: split and
//    timed. The faster way is kept (a split only if it won by more than noise, kMinSplitWin); the
//    slower one is re-probed now and then, twice as rarely after each loss. A size that cannot
//    gain (and was not measured to gain by splitting) runs whole, timed again every 256th launch
//    (its time may grow with its data), and is not probed.
//  - Probes are rationed per kernel: one in flight at a time, and their summed loss against
//    running whole stays within kProbeBudget of the kernel's time run whole. Where splitting
//    never pays, auto mode costs the first probe plus at most that share.
//  - Kernels launched at ever new sizes (gramschmidt's column loops) probe a new size only every
//    probeEvery launches of the kernel once a split of it has lost.
//  - Once a split measured the CPU's own speed on a kernel (recordCpuSpeed: its largest chunk, and
//    how long the CPU took to start), a split of it is planned (planShare): the CPU gets the share
//    with which it would end just before the GPU's shortened part, runs it in one chunk, and the GPU
//    skips it from the start, as a static split does (HETERO_CPU_SHARE). The adaptive protocol
//    (chunks growing from 2 %, the GPU skipping what they finished) only learns that speed: with a
//    GPU 15-30 times faster than the CPU its chunks' fixed costs take more than the CPU adds
//    (syr2k on the H100: 13.5 ms against 9.27 whole, a planned 5 % share 8.8 ms). A planned split
//    measured slower than running whole is re-probed ever more rarely, like any split that lost,
//    unless the CPU speed it measured plans a much smaller share: that is tried at once.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

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
    bool operator==(const LaunchSize& o) const {
        return std::tie(dims, global[0], global[1], global[2]) == std::tie(o.dims, o.global[0], o.global[1], o.global[2]);
    }
    double workItems() const;
    std::string describe() const;  // "1024x512", for the log
};

// What a split of one launch would cost beyond its share of the work: the bytes it would move
// between the devices (written objects back to the CPU, stale inputs to it; 0 in unified memory).
// And whether it could gain at all: a launch with no more work-groups than the GPU has compute
// units runs them all at once, so the GPU's part takes as long whatever the CPU takes from it
// (measured on the H100: gesummv's kernel 1.09 ms for 16, 8 or 4 of its 16 work-groups).
struct LaunchCost {
    double bytesMoved = 0;
    // How fast those bytes move (0: SplitHistory::kLinkBytesPerSecond, host memory), and the other
    // devices' speed over the GPU's before a split measured it (0: the history's, ratioFor): an
    // N-way split's other GPUs send back only what they changed, through pinned memory
    // (decision.cpp, nwaySplitCost).
    double linkBytesPerSecond = 0;
    double priorRatio = 0;
    double bytesWritten = 0;        // by the launch, in memory objects (a planned split's send, planShare)
    // The engine that would split it runs planned shares (the GPU + CPU pair in discrete memory):
    // otherwise planShare says nothing and the model above decides.
    bool plannable = false;
    // The kernel's split variants are built and loaded (KernelVariants::ready): else a split would
    // first load them (SplitHistory::kVariantLoadSeconds).
    bool variantsLoaded = true;
    uint64_t workGroups = 0;        // of the launch (0: not known)
    unsigned gpuComputeUnits = 0;   // of the slot it runs on whole (0: not known)
    bool fitsGpuAtOnce() const { return workGroups > 0 && gpuComputeUnits > 0 && workGroups <= gpuComputeUnits; }
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
    // The model's constants. A split's fixed costs: with a CPU as fast as the GPU, launches shorter
    // than kMinimumSplitSeconds never split.
    static constexpr double kSplitFixedSeconds = 0.25e-3;
    static constexpr double kMinimumSplitSeconds = 2 * kSplitFixedSeconds;
    // Host <-> GPU in ordinary (pageable) memory: 7 GB/s measured on the H100 machine.
    static constexpr double kLinkBytesPerSecond = 6e9;
    // The CPU's speed over the GPU's before any split measured it: as fast (optimistic, so that
    // the first probe happens and measures it).
    static constexpr double kPriorCpuRatio = 1.0;
    static constexpr double kProbeBudget = 0.05;
    static constexpr unsigned kMaxProbeEvery = 4096;
    static constexpr unsigned kTimingLost = 1024;
    // A size that cannot gain is timed again after 256 launches, then twice as rarely each time it
    // still cannot, up to this: a timing costs a launch-heavy program a side queue and a wait
    // between queues (convolution-3d on the H100, docs/results/h100-session13).
    static constexpr unsigned kFirstRetimeEvery = 256;
    static constexpr unsigned kMaxRetimeEvery = 1u << 16;

    // The process-wide history.
    static SplitHistory& instance();

    // The CPU's planned share keeps this much room before the GPU's part ends: a CPU share that ends
    // late holds the whole launch back, one that ends early only gives a little of the gain away
    // (syr2k on the H100: a work-group the CPU takes saves the GPU 2.3 us and costs the CPU 30-40;
    // its speed varied by 1.45x between runs, and 90 % of the balance lost in the slower one).
    static constexpr double kPlanMargin = 0.8;
    // A plan this much smaller than one that lost is tried at once (not as a rare re-probe).
    static constexpr double kRetryShare = 0.9;
    // A plan must promise at least this share of the time run whole (measurements are that noisy).
    static constexpr double kMinPlanGain = 0.02;
    // A split must have measured at least this much faster than running whole to count as paying:
    // a win within the launches' own noise is a loss (it costs a core and a merge for nothing).
    // syr2k LARGE on an H200, where no share gains 2 %: an adaptive probe measured 5.182 ms against
    // 5.203 whole, and the next process split every launch at 7.5-8.9 ms (docs/results/h200-session31).
    static constexpr double kMinSplitWin = 0.01;
    // What the CPU side spends after its chunk (compare and send its results, the merge), per byte
    // the launch writes: syr2k's 4 MiB took 0.3 ms on the H100 machine's 16 cores.
    static constexpr double kSendBytesPerSecond = 15e9;
    // What a process's first split of a kernel costs beyond the split (H200, syrk and syr2k
    // STANDARD, docs/results/h200-session42): loading the variants, where they are not yet (the
    // launch that starts their build ran whole 0.7-1.0 ms slower), and the first split's first
    // uses (0.2-0.5 ms over the next split; an adaptive one up to 2.5 ms).
    static constexpr double kVariantLoadSeconds = 1e-3;
    static constexpr double kFirstSplitSeconds = 0.5e-3;

    struct Decision {
        bool split = false;
        bool timeWhole = false;              // time this launch if it runs whole (recordWhole)
        // The size's next launch will be timed (this one loads the kernel and is not): the timing's
        // side queue can be made now, off that launch's path.
        bool timeNext = false;
        std::shared_ptr<ProbeTicket> probe;  // set when the split is a probe
        double plannedShare = -1;            // a planned split's CPU share (planShare); <0: adaptive
        // What the launch is expected to take run whole (negative: not known): an adaptive split
        // gives its CPU only chunks that end before the GPU would reach them (discrete_split.cpp).
        double wholeSeconds = -1;
        // A size that cannot gain, run whole untimed: this many of its next launches would be
        // decided alike while the history does not change (changes()) and the cost stays the same
        // (at most kMostWholeUntimed; whole_verdict.hpp keeps it). 0: decide the next one afresh.
        unsigned wholeUntimedFor = 0;
    };
    // The next launch of `kernel` (a key naming its source, see KernelVariants::historyKey) at `size`.
    Decision decide(const std::string& kernel, const LaunchSize& size, const LaunchCost& cost = {});
    // Whether the split variants of `kernel` are worth building with its program, before its first
    // launch (ProgramVariants::buildInBackground from clBuildProgram): in the last process that
    // launched it, a launch would have split had they been built (decide() with the variants loaded).
    // Building them with the program takes the load off the first launches, so that a short process
    // (two launches, as the bench runner's) can split the first of them and gain from the second.
    bool prebuildVariants(const std::string& kernel);
    // How often what decide() goes by changed: every measurement recorded, a history read back.
    // Counting launches (decide(), countWholeLaunches) is no change.
    uint64_t changes() const { return changes_.load(std::memory_order_acquire); }
    // `launches` launches of `kernel` at `size` ran whole untimed as Decision::wholeUntimedFor said,
    // without a decide() each: counted as decide() would have (the size's launches until its next
    // timing, the kernel's time run whole for the probe budget).
    void countWholeLaunches(const std::string& kernel, const LaunchSize& size, unsigned launches);
    // The most launches one Decision::wholeUntimedFor covers: a launch that decides afresh also
    // hears the timings of other launches (pollLaunchTimings), which a launch-heavy program would
    // otherwise leave unheard for up to kMaxRetimeEvery launches.
    static constexpr unsigned kMostWholeUntimed = 64;
    // A launch run whole took `seconds` (from when it could start); negative: its timing failed.
    void recordWhole(const std::string& kernel, const LaunchSize& size, double seconds);
    // A split launch took `seconds` (from when it could start); `probe`: it was a probe;
    // `cpuShare`: the share of the work-groups the CPU did (negative: not known); `planned`: it was a
    // planned split (Decision::plannedShare; the size's first plan is tried until one is measured). A kernel's first
    // split in the process is not a measurement: it loaded the variants and paid every first use
    // (two H100s: gemm's first N-way split 212 ms, the next ones 13 ms, docs/results/h100-session13),
    // so it counts as no probe and the next launch may probe again.
    void recordSplit(const std::string& kernel, const LaunchSize& size, double seconds, bool probe,
                     double cpuShare = -1, bool planned = false);

    // The CPU's own speed on `kernel`, measured in a split: a chunk of `chunkItems` work-items took
    // `chunkSeconds` (its largest, whose fixed costs weigh least), and its first chunk started
    // `startSeconds` after the split did (negative: not measured). A slower speed than known is
    // believed at once, a faster one half-way.
    void recordCpuSpeed(const std::string& kernel, double chunkItems, double chunkSeconds, double startSeconds);

    // An N-way split of `kernel` in which the CPU took kNwayCpuTrialShare, in `seconds`: no measurement
    // of the split (on two H100s the CPU's trial held LARGE gemm and syrk back past running whole,
    // and auto mode then kept them whole; the next split plans the CPU's share from what the trial
    // measured). Only a process's first split is noted, as recordSplit notes it.
    void recordTrialSplit(const std::string& kernel, const LaunchSize& size, double seconds);

    // A GPU slot's own speed on `kernel`, measured in an N-way split: its part of `items` work-items
    // took `seconds` (nway_split.cpp). What an N-way split's CPU share is planned against where no
    // launch of the size was timed whole (HETERO_SPLIT=always times none), and what GPUs of
    // different names share by (nwayGpuWeights). Faster news is believed at once, slower half-way.
    void recordNwayGpuSpeed(const std::string& kernel, unsigned slot, double items, double seconds);

    // Each GPU slot's weight in an N-way split of `kernel` over `slots` (`computeUnits`: theirs):
    // 1 each where `alike` (devices of one name: equal shares); else their speeds measured in earlier
    // N-way splits (1 / seconds per work-item, recordNwayGpuSpeed) once every one of them was
    // measured, else their compute units. Written into `weights` (resized).
    void nwayGpuWeights(const std::string& kernel, const std::vector<unsigned>& slots,
                        const std::vector<unsigned>& computeUnits, bool alike, std::vector<double>& weights);

    // The CPU's share of an N-way split over GPUs that do `gpus` times the first GPU's (`primary`)
    // work in its time: planned as planShare plans the pair's, against the GPUs' time together (the
    // size's time run whole, else the kernel's time per work-item on `primary` in an N-way split or
    // run whole, over `gpus`). 0 when no share gains kMinPlanGain, or after kMaxNwayCpuTrials trial
    // splits measured nothing; negative while the CPU's or the GPUs' speed on `kernel` is not known
    // (the decision then gives the CPU kNwayCpuTrialShare, which measures it).
    double nwayCpuShare(const std::string& kernel, const LaunchSize& size, unsigned primary, double gpus,
                        const LaunchCost& cost);
    // The CPU's share of an N-way split before its speed on the kernel was measured: small, since a
    // CPU 15-30 times slower than one H100 (syr2k, above) would otherwise hold the GPUs back.
    static constexpr double kNwayCpuTrialShare = 0.01;
    // Trial splits of a kernel in a process that may leave the speeds unknown (their completion
    // callbacks had not run when the split ended) before the CPU is left out of its N-way splits:
    // trial splits count as no measurement, so without a bound they could go on for ever.
    static constexpr unsigned kMaxNwayCpuTrials = 4;

    // The best a split of a launch that runs whole in `wholeSeconds` could gain (negative: it
    // cannot), for `kernel` as far as it is known.
    double gainBound(const std::string& kernel, double wholeSeconds, const LaunchCost& cost);
    // The CPU share a planned split of a launch of `items` work-items, `wholeSeconds` run whole,
    // would give the CPU: 0 when no share gains kMinPlanGain, negative while the CPU's speed on
    // `kernel` is not known.
    double planShare(const std::string& kernel, double wholeSeconds, double items, const LaunchCost& cost);

    // Between runs (split/history_store.cpp): the history as text (measurements, not what is in
    // flight), and a text read back into an empty history. False when the text is not a history
    // written by serialize() (then nothing is kept).
    std::string serialize();
    bool deserialize(const std::string& text);

private:
    friend class ProbeTicket;
    void changed() { changes_.fetch_add(1, std::memory_order_acq_rel); }
    std::atomic<uint64_t> changes_{0};
    struct Size {
        double whole = -1, split = -1;  // last measured seconds
        bool measured = false;          // `whole` is a timing to go by
        // The latest split was measured faster than running whole, by more than noise.
        bool splitPays() const { return split >= 0 && whole >= 0 && split < whole * (1 - kMinSplitWin); }
        unsigned launches = 0;
        // One timing at a time: a backend's completion callbacks may lag far behind an application
        // that enqueues thousands of launches, and every launch timed meanwhile would pay for two.
        // A timing not reported within kTimingLost launches (its launch failed) no longer counts.
        bool timing = false;
        unsigned timingSince = 0;
        unsigned probeEvery = 16;  // launches between re-probes of the slower way; doubles on a loss
        unsigned retimeEvery = kFirstRetimeEvery;  // while it cannot gain; doubles at each timing
        // The share of the latest planned split measured at this size (negative: none): a size's
        // first plan is tried at once, and so is one much smaller than a plan that lost (`split`
        // above `whole`: the CPU measured slower in it).
        double triedShare = -1;
    };
    struct Kernel {
        unsigned launches = 0;
        unsigned launchesHere = 0;   // in this process (its first launch loaded it)
        // The launches a process made of it, on average over the processes the history kept (negative:
        // not known); this process's count is averaged in when the history is written (serialize).
        double launchesPerProcess = -1;
        bool splitHere = false;      // split in this process (its first split loaded the variants)
        // Whether its variants are worth building with its program (prebuildVariants): a launch of
        // the last process that launched it would have split with them built. wantedHere: this
        // process's answer so far, written in its place when the history is written.
        bool prebuild = false;
        bool wantedHere = false;
        unsigned probeEvery = 1;     // between first probes at new sizes: 1 until a split loses, then doubling
        unsigned probing = 0;        // probes out
        double wholeSeconds = 0;     // launches run whole, at their sizes' measured times
        double probeLoss = 0;        // what probes cost beyond running whole, summed
        double lastLoss = 0;         // the latest probe's loss: what the next is expected to cost
        double secondsPerItem = -1;  // run whole, at the latest measured size
        double cpuRatio = -1;        // the CPU's speed over the GPU's in this kernel's latest split
        double cpuSecondsPerItem = -1;  // the CPU's, in one chunk (recordCpuSpeed)
        double cpuStartSeconds = -1;    // from a split's start to the CPU's first chunk
        std::map<unsigned, double> nwayGpuSecondsPerItem;  // per GPU slot, in its N-way parts (recordNwayGpuSpeed)
        unsigned nwayCpuTrials = 0;  // trial splits in this process (recordTrialSplit)
        std::map<LaunchSize, Size> sizes;
    };
    double ratioFor(const Kernel& k) const;  // with mutex_ held
    // Whether a split of `k` now, gaining `gainPerLaunch` a launch, pays for what a process's first
    // split costs before it gains (always once it split in this process).
    bool paysBackHere(const Kernel& k, const LaunchCost& cost, double gainPerLaunch) const;
    double gainBoundLocked(const Kernel& k, double wholeSeconds, const LaunchCost& cost) const;
    // (`gain`, where given: what the planned split is expected to save, once it says a share.)
    double planShareLocked(const Kernel& k, double wholeSeconds, double items, const LaunchCost& cost,
                           double* gain = nullptr) const;

    std::mutex mutex_;
    std::map<std::string, Kernel> kernels_;
    double bestCpuRatio_ = -1;  // the best cpuRatio of any kernel (negative: none measured)
    unsigned ratioKernels_ = 0;  // kernels with a cpuRatio
    static constexpr unsigned kRatioKernels = 2;  // ... before the device set's counts for the others
};

}  // namespace hetero
