#include "platform/support/config.hpp"

#include "platform/support/log.hpp"

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

}  // namespace hetero::config
