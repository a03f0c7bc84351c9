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
    struct Tally {
        unsigned long long calls = 0;
        long long nanoseconds = 0;
    };
    std::map<std::pair<const void*, std::string>, Tally> calls;
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
    for (const auto& [key, t] : c.calls)
        std::fprintf(stderr, "hetero: backend calls: %llu %s (%s, dispatch %p) %.3f us each, %.3f ms in all\n", t.calls,
                     key.second.c_str(), backendName(key.first).c_str(), key.first,
                     double(t.nanoseconds) / 1e3 / double(t.calls), double(t.nanoseconds) / 1e6);
}

}  // namespace

void countCalls() {
    static std::once_flag once;
    std::call_once(once, [] {
        std::atexit(printCounts);
        callCountingOn.store(true);
    });
}

void countCall(const void* dispatch, const char* function, long long nanoseconds) {
    Counts& c = counts();
    std::lock_guard lock(c.mutex);
    auto& t = c.calls[{dispatch, function}];
    ++t.calls;
    t.nanoseconds += nanoseconds;
}

}  // namespace backend
}  // namespace hetero
