// HETERO_TRACE: the Chrome-trace JSON writer (trace.hpp). Spans are kept as recorded and written
// in batches of 64K (so a long-running program's trace does not grow in memory); an exit hook
// writes what is left, the counters and the closing brackets, so the file is valid JSON after a
// normal exit. The writer is never destroyed: threads still recording while the process exits (the
// scheduler, backend callbacks) find it closed and record nothing.
#include "platform/observe/trace.hpp"

#include "platform/support/config.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/log.hpp"
#include "platform/objects/platform.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
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

// Appends `s` as a JSON string. Names rarely need escaping: they are copied in one go when not.
void appendQuoted(std::string& out, const std::string& s) {
    out += '"';
    size_t plain = 0;
    while (plain < s.size() && static_cast<unsigned char>(s[plain]) >= 0x20 && s[plain] != '"' && s[plain] != '\\')
        ++plain;
    out.append(s, 0, plain);
    for (size_t i = plain; i < s.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

std::string quoted(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 2);
    appendQuoted(out, s);
    return out;
}

void appendInteger(std::string& out, long long v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, end);
}

// Microseconds with three decimals (the file's nanoseconds), formatted as integers: printf of a
// double costs about as much as everything else a span does.
void appendMicros(std::string& out, long long nanoseconds) {
    if (nanoseconds < 0) nanoseconds = 0;
    appendInteger(out, nanoseconds / 1000);
    char frac[4] = {'.', char('0' + nanoseconds / 100 % 10), char('0' + nanoseconds / 10 % 10), char('0' + nanoseconds % 10)};
    out.append(frac, 4);
}

std::string number(double v) {
    if (!std::isfinite(v)) return "null";  // JSON has no NaN or infinity
    if (v == std::floor(v) && std::fabs(v) < 9007199254740992.0) {
        std::string out;
        appendInteger(out, static_cast<long long>(v));
        return out;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

void appendArgs(std::string& out, const std::vector<Arg>& args) {
    out += '{';
    for (size_t i = 0; i < args.size(); ++i) {
        if (i) out += ',';
        appendQuoted(out, args[i].key);
        out += ':';
        out += args[i].json;
    }
    out += '}';
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

// One recorded span, kept as it came: formatting costs more than everything else a span does, so
// it happens in batches, away from the commands being traced (at exit, for most programs).
struct Record {
    Lane lane;
    std::string name;
    long long begin, end;  // nanoseconds on the trace's clock
    std::vector<Arg> args;
};

class Writer {
public:
    explicit Writer(FILE* file) : file_(file) {
        std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);  // few, large writes
        std::fputs("{\"traceEvents\":[\n", file_);
        pending_.reserve(kBatch);
    }

    void record(Record&& r) {
        std::vector<Record> batch;
        {
            std::lock_guard lock(pendingMutex_);
            if (closed_) return;
            pending_.push_back(std::move(r));
            if (pending_.size() < kBatch) return;
            batch.swap(pending_);
        }
        write(batch);  // a long-running program: this thread formats the batch
    }

    // At exit: what is pending, the counters as one global instant event on the host, then the
    // closing brackets.
    void close() {
        std::vector<Record> batch;
        {
            std::lock_guard lock(pendingMutex_);
            closed_ = true;
            batch.swap(pending_);
        }
        write(batch);
        std::lock_guard lock(fileMutex_);
        if (!file_) return;
        nameProcess(kHostPid, kHost);
        std::vector<Arg> values;
        for (unsigned c = 0; c < counters::kCount; ++c) {
            auto counter = static_cast<counters::Counter>(c);
            values.push_back(num(counters::name(counter), static_cast<double>(counters::get(counter))));
        }
        std::string line = "{\"ph\":\"i\",\"s\":\"g\",\"pid\":" + std::to_string(kHostPid) +
                           ",\"tid\":0,\"name\":\"hetero counters\",\"ts\":";
        appendMicros(line, std::llround(now() * 1e3));
        line += ",\"args\":";
        appendArgs(line, values);
        event(line + "}");
        std::fputs("\n],\"displayTimeUnit\":\"ms\"}\n", file_);
        std::fclose(file_);
        file_ = nullptr;
    }

private:
    static constexpr size_t kBatch = 1 << 16;  // spans held before they are written (~20 MB)

    struct Row {
        int tid;
        long long lastEnd;  // the latest end of any span on this row
    };

    void write(const std::vector<Record>& batch) {
        if (batch.empty()) return;
        std::lock_guard lock(fileMutex_);
        if (!file_) return;
        for (const Record& r : batch) complete(r);
    }

    // A complete event. Spans of one lane that overlap without nesting would be drawn wrongly on
    // one thread, so such a span goes to the lane's next row: "queue 1", "queue 1 (2)", ...
    void complete(const Record& r) {
        int pid = pidOf(r.lane.slot);
        nameProcess(pid, r.lane.slot);
        auto& rows = lanes_[{pid, r.lane.lane}];
        size_t row = 0;
        while (row < rows.size() && rows[row].lastEnd > r.begin) ++row;
        if (row == rows.size()) {
            int tid = static_cast<int>(++tidsUsed_[pid]);
            rows.push_back({tid, r.end});
            std::string label = row ? r.lane.lane + " (" + std::to_string(row + 1) + ")" : r.lane.lane;
            event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                  ",\"name\":\"thread_name\",\"args\":{\"name\":" + quoted(label) + "}}");
            event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid) +
                  ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":" + std::to_string(tid) + "}}");
        }
        rows[row].lastEnd = std::max(rows[row].lastEnd, r.end);
        line_.assign("{\"ph\":\"X\",\"pid\":");
        appendInteger(line_, pid);
        line_ += ",\"tid\":";
        appendInteger(line_, rows[row].tid);
        line_ += ",\"name\":";
        appendQuoted(line_, r.name);
        line_ += ",\"ts\":";
        appendMicros(line_, r.begin);
        line_ += ",\"dur\":";
        appendMicros(line_, r.end - r.begin);
        line_ += ",\"args\":";
        appendArgs(line_, r.args);
        line_ += '}';
        event(line_);
    }

    void event(const std::string& json) {
        if (!first_) std::fwrite(",\n", 1, 2, file_);
        first_ = false;
        std::fwrite(json.data(), 1, json.size(), file_);
    }

    void nameProcess(int pid, int slot) {
        if (!named_.emplace(pid, true).second) return;
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) + ",\"name\":\"process_name\",\"args\":{\"name\":" +
              quoted(processName(slot)) + "}}");
        event("{\"ph\":\"M\",\"pid\":" + std::to_string(pid) +
              ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" + std::to_string(pid) + "}}");
    }

    std::mutex pendingMutex_;  // guards pending_ and closed_
    std::vector<Record> pending_;
    bool closed_ = false;

    std::mutex fileMutex_;  // guards everything below
    FILE* file_;            // null once closed
    bool first_ = true;
    std::map<int, bool> named_;
    std::map<int, unsigned> tidsUsed_;
    std::map<std::pair<int, std::string>, std::vector<Row>> lanes_;
    std::string line_;  // reused: one allocation for every span
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
        // Both ends rounded to the nanoseconds the file shows, so that disjoint spans stay disjoint.
        long long begin = std::llround(beginUs * 1e3), end = std::max(begin, std::llround(endUs * 1e3));
        writer->record({lane, name, begin, end, std::move(args)});
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
