// Hetero's configuration: environment variables, falling back to the configuration file
// (HETERO_CONFIG, else the installed etc/hetero.conf), falling back to defaults.
//   key in file   environment        meaning
//   devices       HETERO_DEVICES     which backend devices the virtual device wraps (see devices/selection.hpp)
//   run_on        HETERO_RUN_ON      where unsplit launches run: gpu (default), cpu, <slot number>, alternate
//   backends      HETERO_BACKENDS    explicit list of vendor ICD libraries (':' or ',' separated)
//   trace         HETERO_TRACE       file for a Chrome-trace JSON timeline (platform/observe/trace.hpp)
//   memory        HETERO_MEMORY      memory model of every context: auto (default), unified, discrete
//                                    (platform/memory/memory_model.hpp)
//   split_build   HETERO_SPLIT_BUILD when split variants are compiled: lazy (default), eager (platform/split/config.hpp)
//   split_nway    HETERO_SPLIT_NWAY  on (default) | off: splits over several GPU slots (platform/split/config.hpp)
//   gpu_slots     HETERO_GPU_SLOTS   the slots the N-way split counts as GPUs (platform/split/config.hpp)
//   history_cache HETERO_HISTORY_CACHE  on (default) | off: auto mode's history kept between runs
//                                    (platform/split/history_store.hpp)
//   binary_cache  HETERO_BINARY_CACHE  on (default, 512 MiB) | off | bytes: backend program binaries kept between builds
//                                    (platform/objects/kept_binaries.hpp)
//   pinned_budget HETERO_PINNED_BUDGET bytes of pinned host memory for host copies (platform/memory/pinned_pool.hpp)
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hetero::config {

// The value of a setting: the environment variable, else the file's key, else nullopt.
std::optional<std::string> get(const char* envName, const char* fileKey);

// A setting's size in bytes: "0", "off", "512M", "8G", "1073741824" (K, M, G, T are powers of
// 1024); -1 when not understood.
int64_t parseBytes(const std::string& text);

// Where the configuration file was looked for, for messages.
std::string filePath();

}  // namespace hetero::config
