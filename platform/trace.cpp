// HETERO_TRACE: the Chrome-trace JSON writer (trace.hpp). Events stream to the file as they are
// recorded; an exit hook appends the counters and closes the array, so the file is valid JSON after
// a normal exit. The writer is never destroyed: threads still recording while the process exits
// (the scheduler, backend callbacks) find it closed and record nothing.
#include "platform/trace.hpp"

#include "platform/config.hpp"
#include "platform/counters.hpp"
#include "platform/log.hpp"
#include "platform/platform.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

namespace hetero::trace {
namespace {

// Process ids in the trace: Hetero's host side first, then one per slot.
constexpr int kHostPid = 1;
int pidOf(int slot) { return slot == kHost ? kHostPid : slot + 2; }

std::string escaped(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 2);
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out;
}

std::string quoted(const std::string& s) { return "\"" + escaped(s) + "\""; }

std::string number(double v) {
    if (!std::isfinite(v)) return "null";  // JSON has no NaN or infinity
    char buf[32];
    if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string argsObject(const std::vector<Arg>& args) {
    std::string out = "{";
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) out += ",";
        out += quoted(args[i].key) + ":" + args[i].json;
    }
    return out + "}";
}

// "slot 0: NVIDIA H200 (GPU)", read once from the device (which outlives everything here).
const std::vector<std::string>& slotNames() {
    static const auto* names = [] {
        auto* v = new std::vector<std::string>;  // never destroyed: read while the process exits
        if (const Device* d = Device::instance()) {
            for (const Slot& s : d->slots()) {
                const char* kind = (s.type & CL_DEVICE_TYPE_GPU)           ? "GPU"
                                   : (s.type & CL_DEVICE_TYPE_CPU)         ? "CPU"
                                   : (s.type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                                           : "device";
                v->push_back("slot " + std::to_string(s.index) + ": " + s.deviceName + " (" + kind + ")");
            }
        }
        return v;
    }();
    return *names;
}

std::string processName(int slot) {
    if (slot == kHost) return "Hetero host";
    const auto& names = slotNames();
    return slot >= 0 && static_cast<size_t>(slot) < names.size() ? names[slot] : "slot " + std::to_string(slot);
}

class Writer {
public:
    explicit Writer(FILE* file) : file_(file) { std::fputs("{\"traceEvents\":[\n", file_); }

    // A complete event on `lane`. Spans of one lane that overlap without nesting (commands of one
    // in-order queue: the next is submitted before the previous completes) would be drawn wrongly
    // on one thread, so such a span goes to the lane's next row: "queue 1", "queue 1 (2)", ...
    void complete(const Lane& lane, const std::string& processLabel, const std::string& name, double begin,
                  double end, const std::string& args) {
        std::lock_guard lock(mutex_);
        if (!file_) return;
        int pid = pidOf(lane.slot);
        nameProcess(pid, processLabel);
        auto& rows = lanes_[{pid, lane.lane}];
        size_t row = 0;
        while (row < rows.size() && rows[row].lastEnd > begin) ++row;
        if (row == rows.size()) {
            int tid = static_cast<int>(++tidsUsed_[pid]);
            rows.push_back({tid, end});
            std::string label = row ? lane.lane + " (" + std::to_string(row + 1) + ")" : lane.lane;
            event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                  ",\"name\":\"thread_name\",\"args\":{\"name\":" + quoted(label) + "}}");
            event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                  ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid) + "}}");
        }
        rows[row].lastEnd = std::max(rows[row].lastEnd, end);
        // Both ends rounded to the nanosecond the file shows, so that disjoint spans stay disjoint.
        double b = std::round(begin * 1e3) / 1e3, e = std::round(end * 1e3) / 1e3;
        event("{\"ph\":\"X\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(rows[row].tid) +
              ",\"name\":" + quoted(name) + ",\"ts\":" + fixed(b) + ",\"dur\":" + fixed(e - b) +
              ",\"args\":" + args + "}");
    }

    // At exit: the counters as one global instant event on the host, then the closing brackets.
    void close() {
        std::lock_guard lock(mutex_);
        if (!file_) return;
        nameProcess(kHostPid, processName(kHost));
        std::vector<Arg> values;
        for (unsigned c = 0; c < counters::kCount; ++c) {
            auto counter = static_cast<counters::Counter>(c);
            values.push_back(num(counters::name(counter), static_cast<double>(counters::get(counter))));
        }
        event("{\"ph\":\"i\",\"s\":\"g\",\"pid\":" + std::to_string(kHostPid) +
              ",\"tid\":0,\"name\":\"hetero counters\",\"ts\":" + fixed(now()) + ",\"args\":" + argsObject(values) + "}");
        std::fputs("\n],\"displayTimeUnit\":\"ms\"}\n", file_);
        std::fclose(file_);
        file_ = nullptr;
    }

private:
    struct Row {
        int tid;
        double lastEnd;  // the latest end of any span on this row
    };

    static std::string fixed(double us) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", us > 0 ? us : 0.0);
        return buf;
    }

    void event(const std::string& json) {
        if (!first_) std::fputs(",\n", file_);
        first_ = false;
        std::fputs(json.c_str(), file_);
    }

    void nameProcess(int pid, const std::string& label) {
        if (!named_.emplace(pid, true).second) return;
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"name\":\"process_name\",\"args\":{\"name\":" +
              quoted(label) + "}}");
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
              ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }

    std::mutex mutex_;
    FILE* file_;  // null once closed
    bool first_ = true;
    std::map<int, bool> named_;
    std::map<int, unsigned> tidsUsed_;
    std::map<std::pair<int, std::string>, std::vector<Row>> lanes_;
};

std::atomic<int> state{0};  // 0: HETERO_TRACE not read yet, 1: tracing, 2: off
Writer* writer = nullptr;   // set before state becomes 1; never destroyed

void closeAtExit() { writer->close(); }

// "%p" in the file name becomes the process id, so that several processes can trace at once.
std::string expandPath(std::string path) {
    for (size_t at = path.find("%p"); at != std::string::npos; at = path.find("%p", at))
        path.replace(at, 2, std::to_string(::getpid()));
    return path;
}

bool start() {
    static std::once_flag once;
    std::call_once(once, [] {
        auto setting = config::get("HETERO_TRACE", "trace");
        if (!setting) {
            state.store(2, std::memory_order_release);
            return;
        }
        std::string path = expandPath(*setting);
        FILE* file = std::fopen(path.c_str(), "w");
        if (!file) {
            HETERO_LOG(Warn, "HETERO_TRACE=%s: cannot write the file (%s); tracing is off", path.c_str(),
                       std::strerror(errno));
            state.store(2, std::memory_order_release);
            return;
        }
        writer = new Writer(file);
        now();  // the trace's time 0
        std::atexit(closeAtExit);
        state.store(1, std::memory_order_release);
    });
    return state.load(std::memory_order_acquire) == 1;
}

}  // namespace

bool enabled() {
    int s = state.load(std::memory_order_acquire);
    return s ? s == 1 : start();
}

double now() {
    static const auto epoch = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - epoch).count();
}

Arg num(const std::string& key, double value) { return {key, number(value)}; }
Arg str(const std::string& key, const std::string& value) { return {key, quoted(value)}; }

void span(const Lane& lane, const std::string& name, double beginUs, double endUs, std::vector<Arg> args) {
    if (!enabled()) return;
    try {
        // Named outside the writer's lock: the first lookup reads the device.
        std::string label = processName(lane.slot);
        writer->complete(lane, label, name, beginUs, std::max(beginUs, endUs), argsObject(args));
    } catch (...) {
        // Tracing never fails the work it watches (this runs in destructors and callbacks).
    }
}

Scope::Scope(Lane lane, std::string name)
    : lane_(std::move(lane)), name_(std::move(name)), begin_(enabled() ? now() : -1.0) {}

Scope::~Scope() {
    if (begin_ >= 0) span(lane_, name_, begin_, now(), std::move(args_));
}

}  // namespace hetero::trace
