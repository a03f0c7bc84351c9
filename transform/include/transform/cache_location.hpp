// Where Hetero keeps what it learns between runs, for every part that does: the transform's cache
// (transform/src/cache.cpp), auto mode's split history (platform/split/history_store.cpp) and the
// backends' program binaries (platform/objects/kept_binaries.cpp); and how a file there is written.
#pragma once

#include <optional>
#include <string>

namespace hetero::transform {

// Hetero's folder in the user's cache directory: $XDG_CACHE_HOME/hetero, else ~/.cache/hetero;
// empty when no home is known.
std::string userCacheDirectory();

// A stable name of 16 hex digits for `text` (FNV-1a, 64 bits), for file names in that folder.
std::string fileNameHash(const std::string& text);

// Writes `content` to `path` whole, creating its folders: a new file renamed over the old one, so
// that a reader (another process too) never sees half of it. Returns whether it did.
bool writeWholeFile(const std::string& path, const std::string& content);

// The whole content of `path`; nullopt when it cannot be read.
std::optional<std::string> readWholeFile(const std::string& path);

}  // namespace hetero::transform
