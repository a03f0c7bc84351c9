// Where auto mode's history (split_history.hpp) lives between runs: one file per device set in the
// user's cache directory, next to the transform's cache ($XDG_CACHE_HOME/hetero, else
// ~/.cache/hetero): split-history-<hash>.txt, whose first line names the device set it was learned
// on (Hetero's version, and each slot's platform, device and driver version: split/launch.cpp), so
// a new Hetero or a new driver starts afresh. HETERO_HISTORY_CACHE=off (config key history_cache)
// keeps the history in memory only. A file that is not a history, or a directory that cannot be
// written, is ignored with one warning. No OpenCL here: tested on its own (test/platform_unit/).
#pragma once

#include "platform/split/split_history.hpp"

#include <string>

namespace hetero::history_store {

// False when HETERO_HISTORY_CACHE (or history_cache in the configuration file) is off or 0.
bool enabled();

// The file for `deviceSet`; empty when no cache directory is known (no XDG_CACHE_HOME or HOME).
std::string pathFor(const std::string& deviceSet);

// Reads the file for `deviceSet` into `history`, if there is one written for that device set.
// Returns whether it did.
bool load(SplitHistory& history, const std::string& deviceSet);

// Writes `history` for `deviceSet`: a new file renamed over the old one, so a reader never sees
// half of it (two processes at once: the last one to finish wins). Returns whether it did.
bool save(SplitHistory& history, const std::string& deviceSet);

// What names a program in the history: a hash of its source and build options. A kernel's key is
// this, '/', its name (KernelVariants::historyKey): the same program keeps its history across
// runs, and another program's kernel of the same name does not inherit it.
std::string programKey(const std::string& source, const std::string& options);

}  // namespace hetero::history_store
