#include "devices/selection.hpp"

#include "devices/backend_objects.hpp"

#include <algorithm>
#include <cctype>

namespace hetero {
namespace {
std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

cl_device_type typeOf(cl_device_id d) { return backend::deviceInfo<cl_device_type>(d, CL_DEVICE_TYPE); }

std::string deviceName(cl_device_id d) { return backend::deviceInfoString(d, CL_DEVICE_NAME); }

Slot makeSlot(const BackendPlatform& p, cl_device_id d) {
    Slot s;
    s.library = p.library;
    s.platform = p.platform;
    s.device = d;
    s.platformName = p.name;
    s.deviceName = deviceName(d);
    s.type = typeOf(d);
    return s;
}

std::string whatExists(const std::vector<BackendPlatform>& platforms) {
    std::string s;
    if (platforms.empty()) return "no backend platform was found";
    for (const auto& p : platforms) {
        s += "\n  platform \"" + p.name + "\" (" + p.library + "):";
        for (size_t i = 0; i < p.devices.size(); ++i) {
            Slot slot = makeSlot(p, p.devices[i]);
            const char* type = (slot.type & CL_DEVICE_TYPE_GPU) ? "gpu"
                               : (slot.type & CL_DEVICE_TYPE_CPU) ? "cpu"
                               : (slot.type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator" : "other";
            s += "\n    " + std::to_string(i) + ": " + slot.deviceName + " [" + type + "]";
        }
    }
    return s;
}

bool platformMatches(const BackendPlatform& p, const std::string& name) {
    std::string n = lower(name);
    return lower(p.name).find(n) != std::string::npos || lower(p.vendor).find(n) != std::string::npos ||
           lower(p.library).find(n) != std::string::npos;
}

// Appends the devices one token names; false if the token names nothing.
bool addToken(const std::vector<BackendPlatform>& platforms, const std::string& token, std::vector<Slot>& out) {
    std::string t = lower(token);
    cl_device_type wanted = t == "gpu" ? CL_DEVICE_TYPE_GPU
                            : t == "cpu" ? CL_DEVICE_TYPE_CPU
                            : t == "accelerator" ? CL_DEVICE_TYPE_ACCELERATOR
                            : t == "all" ? CL_DEVICE_TYPE_ALL : 0;
    size_t before = out.size();
    if (wanted) {
        for (const auto& p : platforms)
            for (auto d : p.devices)
                if (typeOf(d) & wanted) out.push_back(makeSlot(p, d));
        return out.size() > before;
    }
    std::string name = token;
    long index = -1;
    if (size_t colon = token.rfind(':'); colon != std::string::npos) {
        name = token.substr(0, colon);
        std::string k = token.substr(colon + 1);
        if (k.empty() || !std::all_of(k.begin(), k.end(), ::isdigit)) return false;
        index = std::stol(k);
    }
    std::vector<std::pair<const BackendPlatform*, cl_device_id>> matching;
    for (const auto& p : platforms)
        if (platformMatches(p, name))
            for (auto d : p.devices) matching.emplace_back(&p, d);
    if (index < 0) {
        for (auto& [p, d] : matching) out.push_back(makeSlot(*p, d));
    } else if (static_cast<size_t>(index) < matching.size()) {
        out.push_back(makeSlot(*matching[index].first, matching[index].second));
    }
    return out.size() > before;
}
}  // namespace

Selection selectSlots(const std::vector<BackendPlatform>& platforms, const std::string* request) {
    Selection sel;
    std::string spec = request ? *request : "gpu,cpu";
    size_t start = 0;
    while (start <= spec.size()) {
        size_t end = spec.find(',', start);
        if (end == std::string::npos) end = spec.size();
        std::string token = trim(spec.substr(start, end - start));
        start = end + 1;
        if (token.empty()) continue;
        if (!addToken(platforms, token, sel.slots) && request) {
            sel.slots.clear();
            sel.error = "HETERO_DEVICES=\"" + spec + "\": \"" + token + "\" names no device. What exists:" +
                        whatExists(platforms);
            return sel;
        }
    }
    if (sel.slots.empty() && !request) {  // default found neither GPU nor CPU: take everything
        for (const auto& p : platforms)
            for (auto d : p.devices) sel.slots.push_back(makeSlot(p, d));
    }
    if (sel.slots.empty()) sel.error = "no backend device found: " + whatExists(platforms);
    for (unsigned i = 0; i < sel.slots.size(); ++i) sel.slots[i].index = i;
    return sel;
}

}  // namespace hetero
