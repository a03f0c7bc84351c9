// Backend programs built from source, kept between runs as the backend's own binaries: the next
// build of the same source with the same options on the same device and driver loads the binary.
// PoCL compiles (preprocesses, at least) every source build, even of a source its own cache holds:
// 39-55 ms a build on the H200's 16 cores against 1.5-2.2 ms from its binary; NVIDIA 4-5 ms against
// 2.2-2.5 (docs/results/h200-session32). Every process paid PoCL's for the application's program in
// clBuildProgram, and again for the split variants in its first launch that would split.
//
// One file per build in the user's cache directory ($XDG_CACHE_HOME/hetero/binaries, else
// ~/.cache/hetero/binaries), holding its whole key (the slot's platform and its version, device,
// device version and driver version, the options, the source), the build log, the binary and its hash; used only when
// the key matches exactly and the binary its hash. HETERO_BINARY_CACHE (config key binary_cache):
// on (default: at most 512 MiB), off, or the most bytes kept; past that, the entries used least
// recently go. A file that is not an entry, or a directory that cannot be written, is ignored with
// one warning.
#pragma once

#include "devices/backend.hpp"
#include "devices/backend_call.hpp"

#include <cstdint>
#include <string>

namespace hetero::kept_binaries {

// The most bytes of entries kept (HETERO_BINARY_CACHE); 0 when off.
uint64_t mostBytesKept();

// Whether builds of `source` with `options` on `slot` are kept: the cache is on; the backend's
// binaries keep what Hetero asks of a program (its kernels' argument information: PoCL's and
// NVIDIA's do); and what the build makes depends on the source and the options alone: no
// #include, -include or -imacros (a file on disk may change between runs), no __DATE__ or __TIME__.
bool keepable(const Slot& slot, const std::string& source, const std::string& options);

struct Built {
    backend::Program program;  // empty when nothing was kept, or what was kept did not build
    std::string log;           // the build log of the build that was kept
};

// `source` built with `options` on `slot` from the binary kept for them (keepable() asked first).
// A kept binary that is used counts as used now (the entries used least recently go first).
Built fromKept(const Slot& slot, cl_context context, const std::string& source, const std::string& options);

// Keeps the binary and build log of `program`, just built on `slot` from `source` with `options`;
// then, past mostBytesKept(), removes the other entries used least recently, down to 3/4 of it.
void keep(const Slot& slot, cl_program program, const std::string& source, const std::string& options);

// `source` built with `options` on `slot`: from the binary kept for them when `mayKeep` and
// keepable(), else from the source, keeping its binary when it may. Empty when it does not build.
backend::Program build(const Slot& slot, cl_context context, const std::string& source, const std::string& options,
                       bool mayKeep = true);

}  // namespace hetero::kept_binaries
