#include "platform/split/config.hpp"

#include "devices/backend.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <cstdlib>
#include <string>

namespace hetero {

SplitMode splitMode() {
    static const SplitMode mode = [] {
        std::string v = config::get("HETERO_SPLIT", "split").value_or("auto");
        if (v == "off" || v == "0") return SplitMode::Off;
        if (v == "always") return SplitMode::Always;
        if (v != "auto") HETERO_LOG(Warn, "HETERO_SPLIT=%s not understood (auto|off|always); using auto", v.c_str());
        return SplitMode::Auto;
    }();
    return mode;
}

double cpuShare() {
    static const double share = [] {
        auto v = config::get("HETERO_CPU_SHARE", "cpu_share");
        if (!v) return -1.0;
        char* end = nullptr;
        double d = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end || d < 0 || d > 1) {
            HETERO_LOG(Warn, "HETERO_CPU_SHARE=%s must be a number from 0 to 1; ignored", v->c_str());
            return -1.0;
        }
        return d;
    }();
    return share;
}

bool nwaySplits() {
    static const bool on = [] {
        std::string v = config::get("HETERO_SPLIT_NWAY", "split_nway").value_or("on");
        if (v != "on" && v != "off") HETERO_LOG(Warn, "HETERO_SPLIT_NWAY=%s not understood (on|off); using on", v.c_str());
        return v != "off";
    }();
    return on;
}

bool nwayCpuJoins() {
    static const bool on = [] {
        std::string v = config::get("HETERO_SPLIT_NWAY_CPU", "split_nway_cpu").value_or("on");
        if (v != "on" && v != "off")
            HETERO_LOG(Warn, "HETERO_SPLIT_NWAY_CPU=%s not understood (on|off); using on", v.c_str());
        return v != "off";
    }();
    return on;
}

bool quietWaits() {
    static const bool on = [] {
        std::string v = config::get("HETERO_QUIET_WAITS", "quiet_waits").value_or("on");
        if (v != "on" && v != "off") HETERO_LOG(Warn, "HETERO_QUIET_WAITS=%s not understood (on|off); using on", v.c_str());
        return v != "off";
    }();
    return on;
}

bool eagerVariantBuilds() {
    static const bool eager = [] {
        if (testOnlySide() != OnlySide::Off) return true;  // no launch may run whole while variants build
        std::string v = config::get("HETERO_SPLIT_BUILD", "split_build").value_or("lazy");
        if (v != "eager" && v != "lazy") HETERO_LOG(Warn, "HETERO_SPLIT_BUILD=%s not understood (lazy|eager); using lazy", v.c_str());
        return v == "eager";
    }();
    return eager;
}

OnlySide testOnlySide() {
    static const OnlySide side = [] {
        auto v = config::get("HETERO_TEST_SPLIT_ONLY", "test_split_only");
        if (!v || v->empty()) return OnlySide::Off;
        if (*v != "gpu" && *v != "cpu") {
            HETERO_LOG(Warn, "HETERO_TEST_SPLIT_ONLY=%s not understood (gpu|cpu); ignored", v->c_str());
            return OnlySide::Off;
        }
        if (cpuShare() < 0) {
            HETERO_LOG(Warn, "HETERO_TEST_SPLIT_ONLY=%s needs HETERO_CPU_SHARE; ignored", v->c_str());
            return OnlySide::Off;
        }
        HETERO_LOG(Warn, "HETERO_TEST_SPLIT_ONLY=%s (measuring knob): every splittable launch runs only the %s side of "
                   "the static split HETERO_CPU_SHARE=%g; the other work-groups are never computed: RESULTS ARE WRONG",
                   v->c_str(), v->c_str(), cpuShare());
        return *v == "gpu" ? OnlySide::Gpu : OnlySide::Cpu;
    }();
    return side;
}

}  // namespace hetero
