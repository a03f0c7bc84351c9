// Where Hetero keeps what it learns between runs, for every part that does: the transform's cache
// (transform/src/cache.cpp) and auto mode's split history (platform/split/history_store.cpp).
#pragma once

#include <string>

namespace hetero::transform {

// Hetero's folder in the user's cache directory: $XDG_CACHE_HOME/hetero, else ~/.cache/hetero;
// empty when no home is known.
std::string userCacheDirectory();

// A stable name of 16 hex digits for `text` (FNV-1a, 64 bits), for file names in that folder.
std::string fileNameHash(const std::string& text);

}  // namespace hetero::transform
