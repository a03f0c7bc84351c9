// HETERO_TRACE=<file>: a Chrome-trace / Perfetto JSON timeline of everything Hetero does. One
// process per device (slot) plus one for Hetero's own host side; one thread (lane) per queue or
// engine thread. Spans are written as "complete" events (ph "X") with their arguments.
// Open the file in https://ui.perfetto.dev or chrome://tracing.
#pragma once

#include <string>
#include <vector>

namespace hetero::trace {

// True when HETERO_TRACE (or the configuration key `trace`) names a file that could be opened
// (read once; "%p" in the name becomes the process id). Every other call is cheap when false.
bool enabled();

// Microseconds on the trace's clock (steady clock).
double now();

// Where a span is drawn: `slot` is a device slot, or kHost for Hetero's own threads; `lane` names
// the queue or thread within it ("queue 3", "CPU chunks", "transfers", "launches", ...).
constexpr int kHost = -1;
struct Lane {
    int slot = kHost;
    std::string lane;
};

// One argument of a span, already JSON-encoded.
struct Arg {
    std::string key;
    std::string json;
};
Arg num(const std::string& key, double value);
Arg str(const std::string& key, const std::string& value);

// Records a span [beginUs, endUs] (trace::now() values). Thread-safe.
void span(const Lane& lane, const std::string& name, double beginUs, double endUs, std::vector<Arg> args = {});

// A span from construction to destruction (nothing is recorded when tracing is off).
class Scope {
public:
    Scope(Lane lane, std::string name);
    ~Scope();
    void add(Arg arg) {
        if (begin_ >= 0) args_.push_back(std::move(arg));  // begin_ < 0: tracing is off
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    Lane lane_;
    std::string name_;
    double begin_;
    std::vector<Arg> args_;
};

}  // namespace hetero::trace
