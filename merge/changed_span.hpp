// Where a device buffer changed during a kernel, found on that device: an N-way split's other
// slots send back only the span their kernels changed (platform/split/nway_split.cpp), not the
// whole object. Outside the span a slot's copy still equals the launch's `orig` snapshot, so the
// merge would keep the primary's values there anyway; skipping it is exact.
#pragma once

#include "devices/backend_call.hpp"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace hetero::merge {

// OpenCL C source of hetero_span_u8/u16/u32/u64(now, before, n, span, index): the elements
// [span[2 index], span[2 index + 1]) hold every element where `now` and `before` differ, compared
// as raw bits at the stored size (H2). The pair must hold {kNoSpanFirst, 0} before.
const char* changedSpanSource();
const char* changedSpanKernelName(size_t elementSize);  // nullptr for sizes other than 1, 2, 4, 8

constexpr uint32_t kNoSpanFirst = 0xffffffffu;
// The search counts elements in 32 bits, and a work-item's index plus the whole range's size must
// not wrap there: objects of more than 2^31 elements are sent whole.
inline bool spanSearchable(size_t bytes, size_t elementSize) {
    return changedSpanKernelName(elementSize) && bytes / elementSize <= (size_t{1} << 31);
}

// Enqueues the search over `bytes` of `now` against `before` with `kernel` (for elementSize); the
// read of `span` that follows it on the in-order queue says when it is done.
void enqueueChangedSpan(cl_command_queue queue, cl_kernel kernel, cl_mem now, cl_mem before, size_t bytes,
                        size_t elementSize, cl_mem span, cl_uint index, cl_event* event = nullptr);

using ByteRange = std::pair<size_t, size_t>;  // [first, end)

// The byte range that a pair found by the search stands for; {0, 0} where nothing changed.
inline ByteRange spanBytes(const uint32_t* pair, size_t elementSize) {
    if (pair[1] == 0 || pair[0] >= pair[1]) return {0, 0};
    return {size_t{pair[0]} * elementSize, size_t{pair[1]} * elementSize};
}

// After a launch split N-way, where part `own`'s copy of an object lacks the merged result, from the
// byte span each part changed (spans[0] the primary's; first >= end: nothing): everywhere another
// part changed, as one range, less `own`'s span where no other part's reaches into it (only `own`
// changed there, so its copy holds the result already). Outside every other part's span its copy
// holds either `orig` (nobody changed it) or its own result, which the merge kept. Empty: nothing
// lacked. A later launch brings that copy only these bytes (DiscreteStorage::recordRefresh).
std::vector<ByteRange> lackedRanges(const std::vector<ByteRange>& spans, size_t own);

}  // namespace hetero::merge
