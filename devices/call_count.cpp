#include "devices/call_count.hpp"

#include "devices/backend.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>

namespace hetero {
namespace backend {
namespace {

struct Counts {
    std::mutex mutex;
    std::map<std::pair<const void*, std::string>, unsigned long long> calls;
};

// Never destroyed: calls may still come from backend threads while the process exits.
Counts& counts() {
    static Counts* c = new Counts;
    return *c;
}

std::string backendName(const void* dispatch) {
    for (const BackendPlatform& p : Backends::instance().platforms())
        if (p.platform && static_cast<const void*>(p.platform->dispatch) == dispatch) return p.name;
    return "dispatch table";
}

void printCounts() {
    Counts& c = counts();
    std::lock_guard lock(c.mutex);
    for (const auto& [key, n] : c.calls)
        std::fprintf(stderr, "hetero: backend calls: %llu %s (%s, dispatch %p)\n", n, key.second.c_str(),
                     backendName(key.first).c_str(), key.first);
}

}  // namespace

void countCalls() {
    static std::once_flag once;
    std::call_once(once, [] {
        std::atexit(printCounts);
        callCountingOn.store(true);
    });
}

void countCall(const void* dispatch, const char* function) {
    Counts& c = counts();
    std::lock_guard lock(c.mutex);
    ++c.calls[{dispatch, function}];
}

}  // namespace backend
}  // namespace hetero
