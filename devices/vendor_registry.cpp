#include "devices/vendor_registry.hpp"

#include "platform/support/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <sys/stat.h>

namespace hetero {
namespace {
std::vector<std::string> splitList(const std::string& s, const char* separators) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= s.size()) {
        size_t end = s.find_first_of(separators, start);
        if (end == std::string::npos) end = s.size();
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

bool isDirectory(const std::string& path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    size_t b = line.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    size_t e = line.find_last_not_of(" \t\r\n");
    return line.substr(b, e - b + 1);
}

// The libraries named by the *.icd files of a directory, in name order (as loaders do).
void addIcdDirectory(const std::string& dir, std::vector<std::string>& out) {
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> names;
    while (dirent* e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".icd") == 0) names.push_back(name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    for (const auto& name : names)
        if (auto lib = firstLine(dir + "/" + name); !lib.empty()) out.push_back(lib);
}
}  // namespace

std::vector<std::string> vendorLibraries() {
    std::vector<std::string> found;
    if (auto explicitList = config::get("HETERO_BACKENDS", "backends")) {
        found = splitList(*explicitList, ":,");
    } else {
        const char* dir = std::getenv("HETERO_VENDORS_DIR");
        addIcdDirectory(dir && *dir ? dir : "/etc/OpenCL/vendors", found);
        if (const char* vendors = std::getenv("OCL_ICD_VENDORS"); vendors && *vendors) {
            if (isDirectory(vendors))
                addIcdDirectory(vendors, found);
            else if (std::string v = vendors; v.size() > 4 && v.compare(v.size() - 4, 4, ".icd") == 0)
                found.push_back(firstLine(v));
            else
                found.push_back(v);
        }
        if (const char* files = std::getenv("OCL_ICD_FILENAMES"); files && *files)
            for (auto& f : splitList(files, ":")) found.push_back(f);
    }
    std::vector<std::string> unique;
    for (auto& f : found)
        if (!f.empty() && std::find(unique.begin(), unique.end(), f) == unique.end()) unique.push_back(f);
    return unique;
}

}  // namespace hetero
