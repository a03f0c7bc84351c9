#include "merge/merge.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"

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

cl_event enqueueMerge(cl_command_queue queue, cl_kernel kernel, cl_mem gpu, cl_mem cpu, cl_mem orig, size_t bytes,
                      size_t elementSize, const std::vector<cl_event>& waitList) {
    cl_ulong n = bytes / elementSize;
    auto set = [&](cl_uint i, size_t size, const void* v) {
        cl_int err = backend::setArg(kernel, i, size, v);
        if (err != CL_SUCCESS) fail(err);
    };
    set(0, sizeof gpu, &gpu);
    set(1, sizeof cpu, &cpu);
    set(2, sizeof orig, &orig);
    set(3, sizeof n, &n);
    size_t local = 256, global = (n + local - 1) / local * local;
    cl_event e = nullptr;
    cl_int err = backend::enqueueKernel(queue, kernel, 1, nullptr, &global, &local, waitList, &e);
    if (err != CL_SUCCESS) fail(err);
    return e;
}

cl_event KernelSet::enqueue(cl_context context, cl_device_id device, cl_command_queue queue, cl_mem gpu, cl_mem cpu,
                            cl_mem orig, size_t bytes, size_t elementSize) {
    std::lock_guard lock(mutex_);
    if (!program_) {
        backend::Program p = backend::programFromSource(context, kernelSource());
        if (!p || backend::build(p.get(), device, "") != CL_SUCCESS) fail(CL_OUT_OF_RESOURCES);
        backend::Kernel made[4];
        for (int i = 0; i < 4; ++i) {
            made[i] = backend::kernel(p.get(), kernelName(size_t{1} << i));
            if (!made[i]) fail(CL_OUT_OF_RESOURCES);
        }
        for (int i = 0; i < 4; ++i) kernels_[i] = std::move(made[i]);
        program_ = std::move(p);
    }
    int index = elementSize == 1 ? 0 : elementSize == 2 ? 1 : elementSize == 4 ? 2 : 3;
    return enqueueMerge(queue, kernels_[index].get(), gpu, cpu, orig, bytes, elementSize, {});
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
            check(backend::enqueueCopy(queue, t.cpu, t.gpu, 0, 0, t.bytes, {}, e.receive()));
            enqueued = true;
        } else if (t.sent && cpuPart == CpuPart::Some) {
            e.reset(kernels.enqueue(context, device, queue, t.gpu, t.cpu, t.orig, t.bytes, t.elementSize));
            ++merges;
            enqueued = true;
        }
        if (t.copyBack) {
            check(backend::enqueueCopy(queue, t.gpu, t.cpu, 0, 0, t.bytes, {}, nullptr));
            enqueued = true;
        }
    }
    if (enqueued) check(backend::finish(queue));
    return merges;
}

}  // namespace hetero::merge
