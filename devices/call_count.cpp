#include "devices/call_count.hpp"

#include "devices/backend.hpp"
#include "devices/call_pipe.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

namespace hetero {
namespace backend {
namespace {

struct Counts {
    std::mutex mutex;
    struct Key {
        const void* dispatch;  // which backend
        std::string function;
        bool piped;  // made by a launch pipe's thread (call_pipe.hpp), counted apart
        bool operator<(const Key& o) const {
            return std::tie(dispatch, function, piped) < std::tie(o.dispatch, o.function, o.piped);
        }
    };
    struct Tally {
        unsigned long long calls = 0;
        long long nanoseconds = 0;
        // Which threads made the calls: any entry point called from several threads says that the
        // backend saw more than one (an event released by a completion thread, say).
        std::set<std::thread::id> threads;
    };
    std::map<Key, Tally> calls;
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
    // The threads that enqueued commands on each backend: on NVIDIA, commands enqueued from several
    // threads slowed every later launch of the process (docs/results/h100-session19). The launch
    // pipes' threads apart: one other thread did not (h100-session20).
    std::map<const void*, std::set<std::thread::id>> enqueuers, pipeEnqueuers;
    for (const auto& [key, t] : c.calls) {
        std::fprintf(stderr, "hetero: backend calls: %llu %s%s (%s, dispatch %p) %.3f us each, %.3f ms in all, from %zu thread%s\n",
                     t.calls, key.function.c_str(), key.piped ? " by a launch pipe" : "", backendName(key.dispatch).c_str(),
                     key.dispatch, double(t.nanoseconds) / 1e3 / double(t.calls), double(t.nanoseconds) / 1e6,
                     t.threads.size(), t.threads.size() == 1 ? "" : "s");
        if (key.function.compare(0, 9, "clEnqueue") == 0)
            (key.piped ? pipeEnqueuers : enqueuers)[key.dispatch].insert(t.threads.begin(), t.threads.end());
    }
    for (const auto& [dispatch, threads] : enqueuers)
        std::fprintf(stderr, "hetero: backend calls: commands enqueued on %s (dispatch %p) from %zu thread%s\n",
                     backendName(dispatch).c_str(), dispatch, threads.size(), threads.size() == 1 ? "" : "s");
    for (const auto& [dispatch, threads] : pipeEnqueuers)
        std::fprintf(stderr, "hetero: backend calls: launches enqueued on %s (dispatch %p) by %zu launch pipe%s\n",
                     backendName(dispatch).c_str(), dispatch, threads.size(), threads.size() == 1 ? "" : "s");
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
    auto& t = c.calls[{dispatch, function, onPipeThread()}];
    ++t.calls;
    t.nanoseconds += nanoseconds;
    t.threads.insert(std::this_thread::get_id());
}

}  // namespace backend
}  // namespace hetero
