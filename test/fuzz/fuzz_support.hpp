// What the API fuzzer (api_fuzz.cpp) needs around the OpenCL calls: a seeded random source, the
// check that a call answered one of the codes the specification lists for it, and the record of
// the last operation each thread ran (printed when a check fails or the watchdog fires).
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <atomic>
#include <csignal>
#include <cstring>
#include <execinfo.h>
#include <unistd.h>
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

// On a fatal signal (a crash inside Hetero or a backend, where no debugger may be at hand): the
// operation each thread was in, its count, the seed, and a backtrace, on stderr; then the signal's
// default action (a core dump where enabled). Only async-signal-safe calls in the handler.
namespace crash_report {
inline const Progress* progress = nullptr;
inline size_t threads = 0;
inline uint64_t seed = 0;
inline void say(const char* s) { (void)!write(2, s, std::strlen(s)); }
inline void sayNumber(uint64_t n) {
    char digits[24];
    int i = 23;
    digits[i] = 0;
    do digits[--i] = char('0' + n % 10); while ((n /= 10) && i > 0);
    say(digits + i);
}
inline void handler(int sig) {
    say("\napi_fuzz: fatal signal ");
    sayNumber(uint64_t(sig));
    say(", seed ");
    sayNumber(seed);
    for (size_t t = 0; t < threads; ++t) {
        say("\n  thread ");
        sayNumber(t);
        say(" in \"");
        say(progress[t].current.load());
        say("\" after ");
        sayNumber(progress[t].ops.load());
        say(" operations");
    }
    say("\nbacktrace of the crashing thread:\n");
    void* frames[64];
    backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT.
inline void install(const Progress* p, size_t n, uint64_t runSeed) {
    progress = p, threads = n, seed = runSeed;
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc now: the handler must not load anything
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, handler);
}
}  // namespace crash_report

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
