// The merge of a split launch (docs/hazards.md; FluidiCL, CGO 2014, §4.3): on the GPU, after its kernel,
// every written memory object is combined element by element with what the CPU sent:
//     out[i] = cpu[i] != orig[i] ? cpu[i] : gpu[i]
// compared as raw bits at the stored scalar size (H2: never per byte, never as floats, so NaNs and
// -0.0 survive exactly).
#pragma once

#include "devices/backend_call.hpp"
#include "devices/kernel_lanes.hpp"
#include "platform/support/object.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero::merge {

// OpenCL C source of the merge kernels hetero_merge_u8/u16/u32/u64 (and of changed_span.hpp's).
const char* kernelSource();
const char* kernelName(size_t elementSize);  // nullptr for sizes other than 1, 2, 4, 8

// The merge module's kernels (merges, changed spans, copies and fills) for one backend context
// and device, built on first use; thread-safe. Used only while the context lives.
class KernelSet {
public:
    // How the kernels' program is built on the set's device from its source (empty when it does
    // not build): the platform's kept binaries (platform/objects/kept_binaries.hpp). `lane` 0 is
    // the set's first build; a lane above 0 needs a kernel hash of its own (kernel_lanes.hpp).
    using Builder = std::function<backend::Program(const std::string& source, unsigned lane)>;
    // `lanes`: the device is one whose kernels need lanes (PoCL).
    KernelSet(Builder builder, bool lanes);
    KernelSet(const KernelSet&) = delete;
    KernelSet& operator=(const KernelSet&) = delete;
    // Enqueues gpu := cpu != orig ? cpu : gpu over `bytes` from byte `first` (enqueueMerge) with
    // this set's kernel.
    cl_event enqueue(cl_command_queue queue, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t first, size_t bytes,
                     size_t elementSize, const std::vector<cl_event>& waitList = {});
    // Enqueues changed_span.hpp's search of where `now` differs from `before` into span[2 * index]
    // and span[2 * index + 1].
    void enqueueSpan(cl_command_queue queue, cl_mem now, cl_mem before, size_t bytes, size_t elementSize, cl_mem span,
                     cl_uint index);
    // Enqueue what clEnqueueCopyBuffer (whole buffers, `bytes` each) and clEnqueueFillBuffer with
    // zeros do, as kernels: NVIDIA's driver takes 50-70 us to enqueue either, a kernel a few.
    void enqueueCopy(cl_command_queue queue, cl_mem from, cl_mem to, size_t bytes, const std::vector<cl_event>& waitList,
                     cl_event* event);
    void enqueueZero(cl_command_queue queue, cl_mem to, size_t bytes, const std::vector<cl_event>& waitList,
                     cl_event* event);
    // Sets `pairs` span pairs to {kNoSpanFirst, 0} ("nothing changed"), as enqueueSpan needs them.
    void enqueueSpanReset(cl_command_queue queue, cl_mem span, cl_uint pairs);
    // Builds the kernels now, ahead of the first launch that needs them (throws Error).
    void prepare();
    ~KernelSet();

private:
    // Each kernel's place in a build and among the lanes: merges and changed spans by log2(element
    // size), copies and zeros by word (uchar, uint, uint4), the span reset.
    enum : unsigned { kMerges = 0, kSpans = 4, kCopies = 8, kZeros = 11, kSpanReset = 14, kKernels = 15 };
    struct Built {  // one build of the kernels' program: the first, or a lane's
        backend::Program program;
        backend::Kernel kernels[kKernels];
    };
    void build();  // the first build, with mutex_ held
    const Built& lane(unsigned lane);  // with mutex_ held; built on first use
    // With mutex_ held: `enqueue(kernel, event)` enqueues kernel `place` of the lane a command on
    // `queue` takes, its event into `event` (`wanted`, or the lanes' own where they need one).
    template <class Enqueue>
    void onLane(unsigned place, cl_command_queue queue, cl_event* wanted, Enqueue enqueue);
    const Builder builder_;
    std::mutex mutex_;  // building, and each kernel's arguments + enqueue
    std::vector<std::unique_ptr<Built>> built_;  // by lane
    std::unique_ptr<KernelLanes> lanes_[kKernels];
};

// One object a split launch wrote, as the merge sees it: buffers of the GPU's context.
struct Target {
    cl_mem gpu;   // the object's GPU copy: the GPU's results, then the merged result
    cl_mem cpu;   // what the CPU sent (its results for the groups it completed)
    cl_mem orig;  // the contents before the launch
    size_t bytes, elementSize;
    // The CPU sent something: `cpu` equals `orig` wherever it sent nothing within the range. Without,
    // `cpu` holds nothing, and the GPU's copy is the result (the CPU changed none of the object).
    bool sent;
    // The whole object's result is copied into `cpu` too ([0, objectBytes), whatever the range),
    // from where it streams back to the CPU.
    bool copyBack;
    size_t first = 0;  // the byte where [first, first + bytes) starts in all three buffers
    size_t objectBytes = 0;  // with copyBack: the object's size
};
// How much of the launch the CPU completed (and sent before the GPU kernel ended).
enum class CpuPart { None, Some, All };
// Whether combine waits for what it enqueued. An N-way launch merges one source after another on
// one in-order queue and waits once, after the last: a host wait per source cost each a round trip.
enum class MergeWait { UntilDone, No };

// After the GPU kernel, on `queue` (in order, behind what the CPU sent): every target's result in
// `gpu` (merged when the CPU did some groups, the CPU's data when it did all); with its `copyBack`,
// the result is also copied into `cpu`. With MergeWait::UntilDone, waits until done if it enqueued
// anything. With `after` (an event of another queue), the first command waits for it, and so all
// of them; with `last`, receives the last command's event (empty when it enqueued nothing).
// Returns how many merge kernels ran.
unsigned combine(cl_command_queue queue, KernelSet& kernels, const std::vector<Target>& targets, CpuPart cpuPart,
                 MergeWait wait = MergeWait::UntilDone, cl_event after = nullptr, backend::Event* last = nullptr);

// Enqueues the merge of `bytes` bytes from byte `first` (both multiples of elementSize) on `queue`:
// gpu := cpu != orig ? cpu : gpu. `kernel` is the hetero_merge_* kernel for elementSize.
// Returns the backend event.
cl_event enqueueMerge(cl_command_queue queue, cl_kernel kernel, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t first,
                      size_t bytes, size_t elementSize, const std::vector<cl_event>& waitList);


}  // namespace hetero::merge
