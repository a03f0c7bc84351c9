#include "merge/merge.hpp"

#include "merge/changed_span.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"

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
    cl_ulong n = (first + bytes) / elementSize;
    auto set = [&](cl_uint i, size_t size, const void* v) {
        cl_int err = backend::setArg(kernel, i, size, v);
        if (err != CL_SUCCESS) fail(err);
    };
    set(0, sizeof gpu, &gpu);
    set(1, sizeof cpu, &cpu);
    set(2, sizeof orig, &orig);
    set(3, sizeof n, &n);
    size_t local = 256, global = (bytes / elementSize + local - 1) / local * local;
    cl_event e = nullptr;
    cl_int err = backend::enqueueKernel(queue, kernel, 1, offset ? &offset : nullptr, &global, &local, waitList, &e);
    if (err != CL_SUCCESS) fail(err);
    return e;
}

void KernelSet::build(cl_context context, cl_device_id device) {
    if (program_) return;
    const std::string source = std::string(kernelSource()) + changedSpanSource();
    backend::Program p = backend::programFromSource(context, source.c_str());
    if (!p || backend::build(p.get(), device, "") != CL_SUCCESS) fail(CL_OUT_OF_RESOURCES);
    backend::Kernel merges[4], spans[4];
    for (int i = 0; i < 4; ++i) {
        merges[i] = backend::kernel(p.get(), kernelName(size_t{1} << i));
        spans[i] = backend::kernel(p.get(), changedSpanKernelName(size_t{1} << i));
        if (!merges[i] || !spans[i]) fail(CL_OUT_OF_RESOURCES);
    }
    for (int i = 0; i < 4; ++i) {
        kernels_[i] = std::move(merges[i]);
        spans_[i] = std::move(spans[i]);
    }
    program_ = std::move(p);
}

void KernelSet::prepare(cl_context context, cl_device_id device) {
    std::lock_guard lock(mutex_);
    build(context, device);
}

namespace {
int sizeIndex(size_t elementSize) { return elementSize == 1 ? 0 : elementSize == 2 ? 1 : elementSize == 4 ? 2 : 3; }
}  // namespace

cl_event KernelSet::enqueue(cl_context context, cl_device_id device, cl_command_queue queue, cl_mem gpu, cl_mem cpu,
                            cl_mem orig, size_t first, size_t bytes, size_t elementSize) {
    std::lock_guard lock(mutex_);
    build(context, device);
    return enqueueMerge(queue, kernels_[sizeIndex(elementSize)].get(), gpu, cpu, orig, first, bytes, elementSize, {});
}

void KernelSet::enqueueSpan(cl_context context, cl_device_id device, cl_command_queue queue, cl_mem now, cl_mem before,
                                size_t bytes, size_t elementSize, cl_mem span, cl_uint index) {
    std::lock_guard lock(mutex_);
    build(context, device);
    enqueueChangedSpan(queue, spans_[sizeIndex(elementSize)].get(), now, before, bytes, elementSize, span, index);
}

unsigned combine(cl_context context, cl_device_id device, cl_command_queue queue, KernelSet& kernels,
                 const std::vector<Target>& targets, CpuPart cpuPart) {
    unsigned merges = 0;
    bool enqueued = false;
    for (const auto& t : targets) {
        backend::Event e;
        // An object the CPU sent nothing of: the CPU left it as it was, the GPU's copy is the result
        // (where the GPU wrote, it computed what the CPU would have).
        if (t.sent && cpuPart == CpuPart::All) {
            check(backend::enqueueCopy(queue, t.cpu, t.gpu, t.first, t.first, t.bytes, {}, e.receive()));
            enqueued = true;
        } else if (t.sent && cpuPart == CpuPart::Some) {
            e.reset(kernels.enqueue(context, device, queue, t.gpu, t.cpu, t.orig, t.first, t.bytes, t.elementSize));
            ++merges;
            enqueued = true;
        }
        if (t.copyBack) {
            check(backend::enqueueCopy(queue, t.gpu, t.cpu, t.first, t.first, t.bytes, {}, nullptr));
            enqueued = true;
        }
    }
    if (enqueued) check(backend::finish(queue));
    return merges;
}

}  // namespace hetero::merge
