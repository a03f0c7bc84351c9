// The contract between chunkLaunches() and the rewritten kernels: names and layout of extra arguments.
#pragma once

#include <cstddef>

namespace hetero::transform::detail {

// K__hetero_chunk takes one extra argument, a ulong16 holding the original launch (unused dims: 0/1).
constexpr size_t kChunkInfoWords = 16;
constexpr size_t kGroupOrigin = 0;   // s0..s2: work-group origin of this sub-launch's box
constexpr size_t kNumGroups = 3;     // s3..s5: original get_num_groups
constexpr size_t kGlobalSize = 6;    // s6..s8: original get_global_size
constexpr size_t kGlobalOffset = 9;  // s9..sb: original get_global_offset
constexpr size_t kGroupSplit = 12;   // sc: each work-group runs as this many along dimension 0 (0/1: whole)

constexpr const char* kChunkSuffix = "__hetero_chunk";
constexpr const char* kAbortSuffix = "__hetero_abort";
constexpr const char* kChunkInfoParam = "__hetero_L";
constexpr const char* kStatusParam = "__hetero_status";
constexpr const char* kLaunchParam = "__hetero_launch";

}  // namespace hetero::transform::detail
