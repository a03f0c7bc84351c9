#include "merge/merge.hpp"

#include "merge/changed_span.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "merge/kernel_args.hpp"

#include <string>

namespace hetero::merge {

const char* kernelSource() {
    return R"CLC(
#define HETERO_MERGE(NAME, T)                                                              \
__kernel void NAME(__global T* gpu, __global const T* cpu, __global const T* orig, ulong n) { \
    ulong i = get_global_id(0);                                                            \
    if (i < n) { T c = cpu[i]; if (c != orig[i]) gpu[i] = c; }                             \
}
HETERO_MERGE(hetero_merge_u8, uchar)
HETERO_MERGE(hetero_merge_u16, ushort)
HETERO_MERGE(hetero_merge_u32, uint)
HETERO_MERGE(hetero_merge_u64, ulong)
// KernelSet::enqueueCopy / enqueueZero / enqueueSpanReset: what clEnqueueCopyBuffer and
// clEnqueueFillBuffer do, as kernels, whose enqueue costs NVIDIA's driver a few microseconds
// instead of 50-70 (four H100s, docs/results/h100-session17).
#define HETERO_COPY(NAME, T)                                                               \
__kernel void NAME(__global T* to, __global const T* from, ulong n) {                      \
    ulong i = get_global_id(0);                                                            \
    if (i < n) to[i] = from[i];                                                            \
}                                                                                          \
__kernel void NAME##_zero(__global T* to, ulong n) {                                       \
    ulong i = get_global_id(0);                                                            \
    if (i < n) to[i] = (T)0;                                                               \
}
HETERO_COPY(hetero_copy_u8, uchar)
HETERO_COPY(hetero_copy_u32, uint)
HETERO_COPY(hetero_copy_u128, uint4)
__kernel void hetero_span_reset(__global uint* span, uint pairs) {
    uint i = get_global_id(0);
    if (i < pairs) { span[2 * i] = 0xffffffffu; span[2 * i + 1] = 0; }
}
)CLC";
}

const char* kernelName(size_t elementSize) {
    switch (elementSize) {
    case 1: return "hetero_merge_u8";
    case 2: return "hetero_merge_u16";
    case 4: return "hetero_merge_u32";
    case 8: return "hetero_merge_u64";
    default: return nullptr;
    }
}

cl_event enqueueMerge(cl_command_queue queue, cl_kernel kernel, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t first,
                      size_t bytes, size_t elementSize, const std::vector<cl_event>& waitList) {
    // The range starts at the work offset, and the kernel's bound is where it ends.
    const size_t offset = first / elementSize;
    const cl_ulong n = (first + bytes) / elementSize;
    setArgs(kernel, gpu, cpu, orig, n);
    size_t local = 256, global = (bytes / elementSize + local - 1) / local * local;
    cl_event e = nullptr;
    cl_int err = backend::enqueueKernel(queue, kernel, 1, offset ? &offset : nullptr, &global, &local, waitList, &e);
    if (err != CL_SUCCESS) fail(err);
    return e;
}

KernelSet::KernelSet(Builder builder, bool lanes) : builder_(std::move(builder)) {
    for (auto& l : lanes_) l = std::make_unique<KernelLanes>(lanes);
}

KernelSet::~KernelSet() = default;

void KernelSet::build() { lane(0); }

const KernelSet::Built& KernelSet::lane(unsigned lane) {
    if (lane < built_.size() && built_[lane]) return *built_[lane];
    auto b = std::make_unique<Built>();
    b->program = builder_(std::string(kernelSource()) + changedSpanSource(), lane);
    if (!b->program) fail(CL_OUT_OF_RESOURCES);
    std::string names[kKernels];
    for (unsigned i = 0; i < 4; ++i) {
        names[kMerges + i] = kernelName(size_t{1} << i);
        names[kSpans + i] = changedSpanKernelName(size_t{1} << i);
    }
    const char* const copyNames[3] = {"hetero_copy_u8", "hetero_copy_u32", "hetero_copy_u128"};
    for (unsigned i = 0; i < 3; ++i) {
        names[kCopies + i] = copyNames[i];
        names[kZeros + i] = std::string(copyNames[i]) + "_zero";
    }
    names[kSpanReset] = "hetero_span_reset";
    for (unsigned i = 0; i < kKernels; ++i)
        if (!(b->kernels[i] = backend::kernel(b->program.get(), names[i]))) fail(CL_OUT_OF_RESOURCES);
    if (built_.size() <= lane) built_.resize(lane + 1);
    built_[lane] = std::move(b);
    return *built_[lane];
}

template <class Enqueue>
void KernelSet::onLane(unsigned place, cl_command_queue queue, cl_event* wanted, Enqueue enqueue) {
    build();
    KernelLanes& lanes = *lanes_[place];
    KernelLanes::Choice choice = lanes.choose(queue);
    cl_event* event = choice.event(wanted);
    enqueue(lane(choice.lane()).kernels[place].get(), event);
    choice.ran(event ? *event : nullptr);
}

void KernelSet::prepare() {
    std::lock_guard lock(mutex_);
    build();
}

namespace {
int sizeIndex(size_t elementSize) { return elementSize == 1 ? 0 : elementSize == 2 ? 1 : elementSize == 4 ? 2 : 3; }

void enqueueOverWords(cl_command_queue queue, cl_kernel kernel, cl_ulong words, const std::vector<cl_event>& waitList,
                      cl_event* event) {
    const size_t local = 256, global = (words + local - 1) / local * local;
    cl_int err = words ? backend::enqueueKernel(queue, kernel, 1, nullptr, &global, &local, waitList, event)
                       : backend::enqueueMarker(queue, waitList, event);
    if (err != CL_SUCCESS) fail(err);
}

// The widest word that divides `bytes` (0: uchar, 1: uint, 2: uint4) and the number of them.
unsigned wordIndex(size_t bytes) { return bytes % 16 == 0 ? 2 : bytes % 4 == 0 ? 1 : 0; }
cl_ulong wordsOf(size_t bytes, unsigned index) { return bytes / (index == 2 ? 16 : index == 1 ? 4 : 1); }
}  // namespace

cl_event KernelSet::enqueue(cl_command_queue queue, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t first, size_t bytes,
                            size_t elementSize, const std::vector<cl_event>& waitList) {
    std::lock_guard lock(mutex_);
    cl_event e = nullptr;
    onLane(kMerges + sizeIndex(elementSize), queue, &e, [&](cl_kernel k, cl_event*) {
        e = enqueueMerge(queue, k, gpu, cpu, orig, first, bytes, elementSize, waitList);
    });
    return e;
}

void KernelSet::enqueueCopy(cl_command_queue queue, cl_mem from, cl_mem to, size_t bytes,
                            const std::vector<cl_event>& waitList, cl_event* event) {
    std::lock_guard lock(mutex_);
    const unsigned i = wordIndex(bytes);
    onLane(kCopies + i, queue, event, [&](cl_kernel k, cl_event* done) {
        setArgs(k, to, from, wordsOf(bytes, i));
        enqueueOverWords(queue, k, wordsOf(bytes, i), waitList, done);
    });
}

void KernelSet::enqueueZero(cl_command_queue queue, cl_mem to, size_t bytes, const std::vector<cl_event>& waitList,
                            cl_event* event) {
    std::lock_guard lock(mutex_);
    const unsigned i = wordIndex(bytes);
    onLane(kZeros + i, queue, event, [&](cl_kernel k, cl_event* done) {
        setArgs(k, to, wordsOf(bytes, i));
        enqueueOverWords(queue, k, wordsOf(bytes, i), waitList, done);
    });
}

void KernelSet::enqueueSpanReset(cl_command_queue queue, cl_mem span, cl_uint pairs) {
    std::lock_guard lock(mutex_);
    onLane(kSpanReset, queue, nullptr, [&](cl_kernel k, cl_event* done) {
        setArgs(k, span, pairs);
        enqueueOverWords(queue, k, pairs, {}, done);
    });
}

void KernelSet::enqueueSpan(cl_command_queue queue, cl_mem now, cl_mem before, size_t bytes, size_t elementSize,
                            cl_mem span, cl_uint index) {
    std::lock_guard lock(mutex_);
    onLane(kSpans + sizeIndex(elementSize), queue, nullptr, [&](cl_kernel k, cl_event* done) {
        enqueueChangedSpan(queue, k, now, before, bytes, elementSize, span, index, done);
    });
}

unsigned combine(cl_command_queue queue, KernelSet& kernels, const std::vector<Target>& targets, CpuPart cpuPart,
                 MergeWait wait, cl_event after, backend::Event* last) {
    unsigned merges = 0;
    // The queue is in order: only the first command needs to wait for `after`.
    std::vector<cl_event> waitList;
    if (after) waitList.push_back(after);
    bool enqueued = false;
    backend::Event e;  // the last command's, kept only for `last`
    for (const auto& t : targets) {
        // An object the CPU sent nothing of: the CPU left it as it was, the GPU's copy is the result
        // (where the GPU wrote, it computed what the CPU would have).
        if (t.sent && cpuPart == CpuPart::All) {
            check(backend::enqueueCopy(queue, t.cpu, t.gpu, t.first, t.first, t.bytes, waitList, last ? e.receive() : nullptr));
            enqueued = true;
        } else if (t.sent && cpuPart == CpuPart::Some) {
            e.reset(kernels.enqueue(queue, t.gpu, t.cpu, t.orig, t.first, t.bytes, t.elementSize, waitList));
            enqueued = true;
            ++merges;
        }
        if (enqueued) waitList.clear();
        if (t.copyBack) {
            check(backend::enqueueCopy(queue, t.gpu, t.cpu, 0, 0, t.objectBytes, waitList, last ? e.receive() : nullptr));
            enqueued = true;
            waitList.clear();
        }
    }
    if (enqueued && wait == MergeWait::UntilDone) check(backend::finish(queue));
    if (last) *last = std::move(e);
    return merges;
}

}  // namespace hetero::merge
