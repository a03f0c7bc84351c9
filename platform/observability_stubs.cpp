// REMOVE AT MERGE: stand-ins for platform/trace.cpp and platform/counters.cpp (and the
// clGetHeteroCountersEXT entry point), which another branch implements. Tracing is off here; the
// counters count (only what this branch's code adds to them).
#include "platform/counters.hpp"
#include "platform/platform.hpp"
#include "platform/trace.hpp"

#include <chrono>

namespace hetero::trace {
bool enabled() { return false; }
double now() {
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
Arg num(const std::string& key, double value) { return {key, std::to_string(value)}; }
Arg str(const std::string& key, const std::string& value) { return {key, "\"" + value + "\""}; }
void span(const Lane&, const std::string&, double, double, std::vector<Arg>) {}
Scope::Scope(Lane lane, std::string name) : lane_(std::move(lane)), name_(std::move(name)), begin_(0) {}
Scope::~Scope() = default;
}  // namespace hetero::trace

namespace hetero::counters {
namespace {
std::atomic<uint64_t> values[kCount];
}
void add(Counter c, uint64_t amount) { values[c].fetch_add(amount, std::memory_order_relaxed); }
uint64_t get(Counter c) { return values[c].load(std::memory_order_relaxed); }
}  // namespace hetero::counters

cl_int CL_API_CALL clGetHeteroCountersEXT(cl_platform_id platform, cl_uint count, cl_ulong* values, cl_uint* count_ret) {
    if (!hetero::fromHandle<hetero::Platform>(platform)) return CL_INVALID_PLATFORM;
    if (count > 0 && !values) return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < count && i < hetero::counters::kCount; ++i)
        values[i] = hetero::counters::get(static_cast<hetero::counters::Counter>(i));
    if (count_ret) *count_ret = hetero::counters::kCount;
    return CL_SUCCESS;
}
