#include "platform/support/config.hpp"

#include "platform/support/log.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>

#ifndef HETERO_DEFAULT_CONFIG
#define HETERO_DEFAULT_CONFIG "/etc/hetero.conf"
#endif

namespace hetero::config {
namespace {
std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

const std::map<std::string, std::string>& fileValues() {
    static const std::map<std::string, std::string> values = [] {
        std::map<std::string, std::string> v;
        std::ifstream in(filePath());
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            line = trim(line.substr(0, line.find('#')));
            if (line.empty()) continue;
            size_t eq = line.find('=');
            if (eq == std::string::npos) {
                HETERO_LOG(Warn, "%s:%d: expected 'key = value', ignored", filePath().c_str(), number);
                continue;
            }
            v[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
        }
        return v;
    }();
    return values;
}
}  // namespace

std::string filePath() {
    const char* env = std::getenv("HETERO_CONFIG");
    return env && *env ? env : HETERO_DEFAULT_CONFIG;
}

std::optional<std::string> get(const char* envName, const char* fileKey) {
    if (const char* env = std::getenv(envName); env && *env) return std::string(env);
    const auto& values = fileValues();
    if (auto it = values.find(fileKey); it != values.end() && !it->second.empty()) return it->second;
    return std::nullopt;
}

int64_t parseBytes(const std::string& text) {
    if (text == "off" || text == "none") return 0;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !(v >= 0)) return -1;  // NaN too
    std::string unit(end);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
    double scale = 1;
    if (unit.size() == 1) {
        switch (std::toupper(static_cast<unsigned char>(unit[0]))) {
        case 'K': scale = 1024.0; break;
        case 'M': scale = 1024.0 * 1024; break;
        case 'G': scale = 1024.0 * 1024 * 1024; break;
        case 'T': scale = 1024.0 * 1024 * 1024 * 1024; break;
        default: return -1;
        }
    } else if (!unit.empty()) {
        return -1;
    }
    if (!(v * scale < 9.0e18)) return -1;  // past int64_t, or infinite
    return static_cast<int64_t>(v * scale);
}

}  // namespace hetero::config
