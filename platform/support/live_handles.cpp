// The registry behind handle validation (see object.hpp).
#include "platform/support/object.hpp"

#include "platform/support/config.hpp"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>

namespace hetero::live_handles {
namespace {
struct Entry {
    Kind kind;
    RefCounted* object;
};
struct Registry {
    Registry() {
        if (auto delay = config::get("HETERO_TEST_MEM_LOOKUP_DELAY_MS", "test_mem_lookup_delay_ms"))
            testLookupDelayMs.store(static_cast<unsigned>(std::strtoul(delay->c_str(), nullptr, 10)));
    }
    std::shared_mutex mutex;
    std::unordered_map<const void*, Entry> handles;
};
Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: handles may be released during exit
    return *r;
}
}  // namespace

void add(const void* handle, Kind kind, RefCounted* object) {
    auto& r = registry();
    std::unique_lock lock(r.mutex);
    r.handles[handle] = {kind, object};
}

void remove(const void* handle) {
    auto& r = registry();
    std::unique_lock lock(r.mutex);
    r.handles.erase(handle);
}

bool retainIfLive(const void* handle, Kind kind) {
    auto& r = registry();
    std::shared_lock lock(r.mutex);
    auto it = r.handles.find(handle);
    return it != r.handles.end() && it->second.kind == kind && it->second.object->tryRetain();
}

bool holdIfLive(const void* handle, Kind kind) {
    auto& r = registry();
    std::shared_lock lock(r.mutex);
    auto it = r.handles.find(handle);
    return it != r.handles.end() && it->second.kind == kind && it->second.object->tryHold();
}

void sleepAfterLookup(unsigned ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
}  // namespace hetero::live_handles
