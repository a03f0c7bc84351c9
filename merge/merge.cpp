#include "merge/merge.hpp"

#include "platform/support/error.hpp"

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
        cl_int err = BACKEND(kernel, clSetKernelArg)(kernel, i, size, v);
        if (err != CL_SUCCESS) fail(err);
    };
    set(0, sizeof gpu, &gpu);
    set(1, sizeof cpu, &cpu);
    set(2, sizeof orig, &orig);
    set(3, sizeof n, &n);
    size_t local = 256, global = (n + local - 1) / local * local;
    cl_event e = nullptr;
    cl_int err = BACKEND(queue, clEnqueueNDRangeKernel)(queue, kernel, 1, nullptr, &global, &local,
                                                        static_cast<cl_uint>(waitList.size()),
                                                        waitList.empty() ? nullptr : waitList.data(), &e);
    if (err != CL_SUCCESS) fail(err);
    return e;
}

BufferPool::~BufferPool() {
    for (auto& [key, entries] : free_)
        for (auto& e : entries) BACKEND(e.buffer, clReleaseMemObject)(e.buffer);
}

cl_mem BufferPool::take(cl_context context, size_t bytes) {
    {
        std::lock_guard lock(mutex_);
        auto it = free_.find({context, bytes});
        if (it != free_.end() && !it->second.empty()) {
            cl_mem b = it->second.back().buffer;
            it->second.pop_back();
            return b;
        }
    }
    cl_int err = CL_SUCCESS;
    cl_mem b = BACKEND(context, clCreateBuffer)(context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    if (!b) fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return b;
}

void BufferPool::give(cl_context context, cl_mem buffer, size_t bytes) {
    constexpr unsigned idleLimit = 64;
    std::vector<cl_mem> drop;
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, entries] : free_)
            for (auto it = entries.begin(); it != entries.end();) {
                if (++it->idle > idleLimit) {
                    drop.push_back(it->buffer);
                    it = entries.erase(it);
                } else {
                    ++it;
                }
            }
        free_[{context, bytes}].push_back({buffer, 0});
    }
    for (cl_mem b : drop) BACKEND(b, clReleaseMemObject)(b);
}

std::vector<unsigned char> HostBufferPool::take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (auto it = free_.rbegin(); it != free_.rend(); ++it)
        if (it->size() == bytes) {
            std::vector<unsigned char> b = std::move(*it);
            free_.erase(std::next(it).base());
            idleBytes_ -= bytes;
            return b;
        }
    return std::vector<unsigned char>(bytes);
}

void HostBufferPool::give(std::vector<unsigned char> buffer) {
    std::lock_guard lock(mutex_);
    idleBytes_ += buffer.size();
    free_.push_back(std::move(buffer));
    while (idleBytes_ > idleBytesLimit && !free_.empty()) {
        idleBytes_ -= free_.front().size();
        free_.erase(free_.begin());
    }
}

}  // namespace hetero::merge
