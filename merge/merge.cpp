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

void KernelSet::build() {
    if (program_) return;
    const std::string source = std::string(kernelSource()) + changedSpanSource();
    backend::Program p = builder_(source);
    if (!p) fail(CL_OUT_OF_RESOURCES);
    backend::Kernel merges[4], spans[4], copies[3], zeros[3];
    for (int i = 0; i < 4; ++i) {
        merges[i] = backend::kernel(p.get(), kernelName(size_t{1} << i));
        spans[i] = backend::kernel(p.get(), changedSpanKernelName(size_t{1} << i));
        if (!merges[i] || !spans[i]) fail(CL_OUT_OF_RESOURCES);
    }
    const char* const copyNames[3] = {"hetero_copy_u8", "hetero_copy_u32", "hetero_copy_u128"};
    for (int i = 0; i < 3; ++i) {
        copies[i] = backend::kernel(p.get(), copyNames[i]);
        zeros[i] = backend::kernel(p.get(), (std::string(copyNames[i]) + "_zero").c_str());
        if (!copies[i] || !zeros[i]) fail(CL_OUT_OF_RESOURCES);
    }
    backend::Kernel spanReset = backend::kernel(p.get(), "hetero_span_reset");
    if (!spanReset) fail(CL_OUT_OF_RESOURCES);
    for (int i = 0; i < 4; ++i) {
        kernels_[i] = std::move(merges[i]);
        spans_[i] = std::move(spans[i]);
    }
    for (int i = 0; i < 3; ++i) {
        copies_[i] = std::move(copies[i]);
        zeros_[i] = std::move(zeros[i]);
    }
    spanReset_ = std::move(spanReset);
    program_ = std::move(p);
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

// `bytes` through the widest word that divides them (uchar, uint, uint4: byWord's index), the
// kernel's arguments being `buffers`, then the number of words.
template <typename... Buffers>
void enqueueByWord(cl_command_queue queue, const backend::Kernel (&byWord)[3], size_t bytes,
                   const std::vector<cl_event>& waitList, cl_event* event, Buffers... buffers) {
    const int index = bytes % 16 == 0 ? 2 : bytes % 4 == 0 ? 1 : 0;
    const cl_ulong words = bytes / (index == 2 ? 16 : index == 1 ? 4 : 1);
    setArgs(byWord[index].get(), buffers..., words);
    enqueueOverWords(queue, byWord[index].get(), words, waitList, event);
}
}  // namespace

cl_event KernelSet::enqueue(cl_command_queue queue, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t first, size_t bytes,
                            size_t elementSize, const std::vector<cl_event>& waitList) {
    std::lock_guard lock(mutex_);
    build();
    return enqueueMerge(queue, kernels_[sizeIndex(elementSize)].get(), gpu, cpu, orig, first, bytes, elementSize, waitList);
}

void KernelSet::enqueueCopy(cl_command_queue queue, cl_mem from, cl_mem to, size_t bytes,
                            const std::vector<cl_event>& waitList, cl_event* event) {
    std::lock_guard lock(mutex_);
    build();
    enqueueByWord(queue, copies_, bytes, waitList, event, to, from);
}

void KernelSet::enqueueZero(cl_command_queue queue, cl_mem to, size_t bytes, const std::vector<cl_event>& waitList,
                            cl_event* event) {
    std::lock_guard lock(mutex_);
    build();
    enqueueByWord(queue, zeros_, bytes, waitList, event, to);
}

void KernelSet::enqueueSpanReset(cl_command_queue queue, cl_mem span, cl_uint pairs) {
    std::lock_guard lock(mutex_);
    build();
    setArgs(spanReset_.get(), span, pairs);
    enqueueOverWords(queue, spanReset_.get(), pairs, {}, nullptr);
}

void KernelSet::enqueueSpan(cl_command_queue queue, cl_mem now, cl_mem before, size_t bytes, size_t elementSize,
                            cl_mem span, cl_uint index) {
    std::lock_guard lock(mutex_);
    build();
    enqueueChangedSpan(queue, spans_[sizeIndex(elementSize)].get(), now, before, bytes, elementSize, span, index);
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
            check(backend::enqueueCopy(queue, t.gpu, t.cpu, t.first, t.first, t.bytes, waitList, last ? e.receive() : nullptr));
            enqueued = true;
            waitList.clear();
        }
    }
    if (enqueued && wait == MergeWait::UntilDone) check(backend::finish(queue));
    if (last) *last = std::move(e);
    return merges;
}

}  // namespace hetero::merge
