// Cache of analyses and variants, keyed by everything that determines them: the source strings, the
// build options, the transform's version and the libclang version. In memory, and on disk under
// $XDG_CACHE_HOME/hetero (or ~/.cache/hetero). HETERO_TRANSFORM_CACHE=off disables both. A disk
// entry stores its whole key and is used only if the key matches exactly; disk errors are ignored.
#pragma once

#include "transform/transform.hpp"

#include <optional>
#include <string>
#include <vector>

namespace hetero::transform::detail {

std::string cacheKey(const std::vector<std::string>& sources, const std::string& options, const std::string& kind);

std::optional<ProgramAnalysis> loadAnalysis(const std::string& key);
void storeAnalysis(const std::string& key, const ProgramAnalysis& a);
std::optional<Variants> loadVariants(const std::string& key);
void storeVariants(const std::string& key, const Variants& v);

bool cacheEnabled();
std::string cacheDirectory();  // where disk entries go ("" if no home is known)
void clearMemoryCache();
// The version written into every key; tests replace it to see old entries ignored.
const std::string& cacheVersion();
void setCacheVersion(const std::string& version);

// Serialization of the public result types (also used by the tool's tests).
std::string serialize(const ProgramAnalysis& a);
std::optional<ProgramAnalysis> deserializeAnalysis(const std::string& s);

}  // namespace hetero::transform::detail
