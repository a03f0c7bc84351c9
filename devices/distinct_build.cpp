#include "devices/distinct_build.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace hetero {

namespace {

struct Live {
    unsigned count = 0;  // builds alive
    unsigned next = 0;   // the rank the next one takes
};

struct Registry {
    std::mutex mutex;
    std::map<std::string, Live> builds;
};

// Never destroyed: a context may go (and its builds with it) while the process exits.
Registry& registry() {
    static Registry* r = new Registry;
    return *r;
}

}  // namespace

DistinctBuild::DistinctBuild(const Slot& slot, const std::string& source, const std::string& options)
    : options_(options) {
    if (!slot.isPocl()) return;
    // By hash: two sources that collide only share ranks, which costs a build of its own, no more.
    key_ = std::to_string(reinterpret_cast<uintptr_t>(slot.device)) + ' ' +
           std::to_string(std::hash<std::string>{}(options + '\n' + source));
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    Live& live = r.builds[key_];
    rank_ = live.next++;
    ++live.count;
    if (rank_ > 0) options_ += (options_.empty() ? "" : " ") + std::string("-DHETERO_BUILD_") + std::to_string(rank_);
}

DistinctBuild::~DistinctBuild() {
    if (key_.empty()) return;
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    auto it = r.builds.find(key_);
    if (it != r.builds.end() && --it->second.count == 0) r.builds.erase(it);
}

}  // namespace hetero
