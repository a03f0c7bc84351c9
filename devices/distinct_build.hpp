// A kernel hash of its own for each live build of one source on one PoCL device. PoCL 4.0-5.0 give
// back a command's loaded kernel by hash and local size only (slotOwnBuildOptions, backend.hpp), so
// commands of one hash in flight at once with different global offsets or sizes abort in
// pocl_release_dlhandle_cache. Hetero builds its own programs (the split variants, the merge
// kernels) once per context and slot and runs them with offsets and sizes that change from launch
// to launch: two contexts alive at once (an application's two, or one it released while its split
// launch still ran: icd.nway-cpu-split's "a context and queue released while their launch runs")
// would run one hash so.
//
// While it lives, a DistinctBuild holds a rank among the live builds of its source and options on
// its device; a rank above 0 adds a define of its own to the options. Ranks start again from 0 only
// once no build of that source and options is alive: a build that just went (whose last commands
// PoCL may still be cleaning up) never shares its hash with a newer one, and builds one after
// another keep one hash, which PoCL's compiled-kernel cache and Hetero's kept binaries serve.
// Other backends keep their options and hold nothing. Several queues of one context with commands
// of one build in flight at once: kernel_lanes.hpp.
#pragma once

#include "devices/backend.hpp"

#include <string>

namespace hetero {

class DistinctBuild {
public:
    DistinctBuild(const Slot& slot, const std::string& source, const std::string& options);
    ~DistinctBuild();
    DistinctBuild(const DistinctBuild&) = delete;
    DistinctBuild& operator=(const DistinctBuild&) = delete;

    // The options to build with: the given ones, plus a define for a rank above 0.
    const std::string& options() const { return options_; }
    unsigned rank() const { return rank_; }

private:
    std::string key_;  // the device and a hash of options and source; empty where nothing is held (not PoCL)
    std::string options_;
    unsigned rank_ = 0;
};

}  // namespace hetero
