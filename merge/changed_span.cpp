#include "merge/changed_span.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "merge/kernel_args.hpp"

#include <algorithm>
#include <cstdint>

namespace hetero::merge {

// Each work-item walks its elements in strides of the whole range (reads stay coalesced), keeps the
// first and last it saw differ, the work-group reduces those in local memory, and one atomic per
// work-group widens the pair.
const char* changedSpanSource() {
    return R"CLC(
#define HETERO_SPAN(NAME, T)                                                                   \
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))                                     \
void NAME(__global const T* now, __global const T* before, uint n, __global uint* span, uint index) { \
    __local uint lo[256], hi[256];                                                             \
    uint first = 0xffffffffu, end = 0;                                                         \
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))                            \
        if (now[i] != before[i]) { if (first == 0xffffffffu) first = i; end = i + 1; }         \
    uint t = get_local_id(0);                                                                  \
    lo[t] = first; hi[t] = end;                                                                \
    barrier(CLK_LOCAL_MEM_FENCE);                                                              \
    for (uint s = 128; s > 0; s >>= 1) {                                                       \
        if (t < s) { lo[t] = min(lo[t], lo[t + s]); hi[t] = max(hi[t], hi[t + s]); }           \
        barrier(CLK_LOCAL_MEM_FENCE);                                                          \
    }                                                                                          \
    if (t == 0 && hi[0] != 0) { atomic_min(&span[2 * index], lo[0]); atomic_max(&span[2 * index + 1], hi[0]); } \
}
HETERO_SPAN(hetero_span_u8, uchar)
HETERO_SPAN(hetero_span_u16, ushort)
HETERO_SPAN(hetero_span_u32, uint)
HETERO_SPAN(hetero_span_u64, ulong)
)CLC";
}

const char* changedSpanKernelName(size_t elementSize) {
    switch (elementSize) {
    case 1: return "hetero_span_u8";
    case 2: return "hetero_span_u16";
    case 4: return "hetero_span_u32";
    case 8: return "hetero_span_u64";
    default: return nullptr;
    }
}

void enqueueChangedSpan(cl_command_queue queue, cl_kernel kernel, cl_mem now, cl_mem before, size_t bytes,
                        size_t elementSize, cl_mem span, cl_uint index, cl_event* event) {
    const cl_uint n = static_cast<cl_uint>(bytes / elementSize);
    setArgs(kernel, now, before, n, span, index);
    // At most 2,048 work-groups: enough to keep any GPU's memory busy, few atomics.
    const size_t local = 256;
    const size_t global = std::min<size_t>((size_t{n} + local - 1) / local, 2048) * local;
    check(backend::enqueueKernel(queue, kernel, 1, nullptr, &global, &local, {}, event));
}

std::vector<ByteRange> lackedRanges(const std::vector<ByteRange>& spans, size_t own) {
    const ByteRange mine = own < spans.size() ? spans[own] : ByteRange{0, 0};
    const bool mineEmpty = mine.first >= mine.second;
    size_t lo = SIZE_MAX, hi = 0;
    bool reachesMine = false;
    for (size_t j = 0; j < spans.size(); ++j) {
        const ByteRange& other = spans[j];
        if (j == own || other.first >= other.second) continue;
        lo = std::min(lo, other.first);
        hi = std::max(hi, other.second);
        if (!mineEmpty && other.first < mine.second && mine.first < other.second) reachesMine = true;
    }
    if (lo >= hi) return {};
    if (mineEmpty || reachesMine || mine.second <= lo || mine.first >= hi) return {{lo, hi}};
    std::vector<ByteRange> lacked;
    if (lo < mine.first) lacked.push_back({lo, mine.first});
    if (mine.second < hi) lacked.push_back({mine.second, hi});
    return lacked;
}

}  // namespace hetero::merge
