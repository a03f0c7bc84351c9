// What the API fuzzer (api_fuzz.cpp) needs around the OpenCL calls: a seeded random source, the
// check that a call answered one of the codes the specification lists for it, and the record of
// the last operation each thread ran (printed when a check fails or the watchdog fires).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

namespace fuzz {

// The seed of the whole run, printed with every failure so that HETERO_FUZZ_SEED repeats it.
inline std::atomic<uint64_t> runSeed{0};

class Rng {
public:
    explicit Rng(uint64_t seed) : engine_(seed) {}
    // Uniform in [0, n); n > 0.
    size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(engine_); }
    size_t between(size_t lo, size_t hi) { return lo + below(hi - lo + 1); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(engine_) < p; }
    template <class T>
    T& pickFrom(std::vector<T>& v) { return v[below(v.size())]; }
    uint32_t bits() { return static_cast<uint32_t>(engine_()); }

private:
    std::mt19937_64 engine_;
};

// The operation each thread is in, for failure reports and the watchdog. Written only by its thread.
struct Progress {
    std::atomic<uint64_t> ops{0};
    std::atomic<const char*> current{"start"};
};

// The codes a call may answer. `success` false: it must fail (an invalid argument was passed).
class Allowed {
public:
    Allowed() = default;
    Allowed(std::initializer_list<cl_int> codes) : codes_(codes) {}
    void add(cl_int code) { codes_.push_back(code); }
    bool contains(cl_int code) const {
        for (cl_int c : codes_)
            if (c == code) return true;
        return false;
    }
    bool empty() const { return codes_.empty(); }
    std::string list() const {
        std::string s;
        for (cl_int c : codes_) s += (s.empty() ? "" : ", ") + std::to_string(c);
        return s;
    }

private:
    std::vector<cl_int> codes_;
};

// Ends the run. From a worker thread at once (_Exit: other threads are still calling); at the end,
// with every thread joined, through exit() so that LeakSanitizer, if present, reports what leaked.
[[noreturn]] inline void failRun(unsigned thread, uint64_t op, const std::string& what, bool atEnd = false) {
    std::fprintf(stderr, "api_fuzz: FAILED (seed %llu, thread %u, operation %llu): %s\n"
                         "api_fuzz: repeat with HETERO_FUZZ_SEED=%llu (HETERO_FUZZ_THREADS=1 for one schedule)\n",
                 static_cast<unsigned long long>(runSeed.load()), thread, static_cast<unsigned long long>(op),
                 what.c_str(), static_cast<unsigned long long>(runSeed.load()));
    std::fflush(stderr);
    if (atEnd) std::exit(1);
    std::_Exit(1);
}

}  // namespace fuzz
