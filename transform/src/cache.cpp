#include "cache.hpp"

#include "transform/cache_location.hpp"
#include "transform/length_prefixed.hpp"

#include "parse.hpp"

#include <clang-c/Index.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace hetero::transform::detail {

namespace {

std::mutex gMutex;
std::map<std::string, ProgramAnalysis> gAnalyses;
std::map<std::string, Variants> gVariants;
constexpr size_t kMaxMemoryEntries = 512;

std::string& versionStorage() {
    static std::string v = [] {
        CXString s = clang_getClangVersion();
        std::string r = std::string(HETERO_TRANSFORM_VERSION) + " built " + __DATE__ + " " + __TIME__ + " / " +
                        clang_getCString(s);
        clang_disposeString(s);
        return r;
    }();
    return v;
}

// One folder per transform version: <cache>/hetero/transform-<version hash>/<key hash>.cache.
std::string versionFolder() {
    const std::string dir = cacheDirectory();
    return dir.empty() ? std::string() : dir + "/transform-" + fileNameHash(cacheVersion());
}

std::string fileFor(const std::string& key) {
    const std::string folder = versionFolder();
    return folder.empty() ? std::string() : folder + "/" + fileNameHash(key) + ".cache";
}

// Entries of other transform versions can never match again: remove them (best effort).
void removeOtherVersions() {
    const std::string dir = cacheDirectory();
    const std::string keep = versionFolder();
    DIR* d = opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> stale;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind("transform-", 0) == 0 && dir + "/" + name != keep) stale.push_back(dir + "/" + name);
    }
    closedir(d);
    for (const auto& path : stale) {
        if (DIR* sub = opendir(path.c_str())) {
            while (dirent* e = readdir(sub))
                if (e->d_name[0] != '.') unlink((path + "/" + e->d_name).c_str());
            closedir(sub);
            rmdir(path.c_str());
        } else {
            unlink(path.c_str());
        }
    }
}

std::optional<std::string> readDisk(const std::string& key) {
    const std::string path = fileFor(key);
    if (path.empty()) return std::nullopt;
    const auto content = readWholeFile(path);
    if (!content) return std::nullopt;
    FieldReader r(*content);
    std::string storedKey, payload;
    if (!r.str(storedKey) || storedKey != key || !r.str(payload) || !r.done()) return std::nullopt;
    return payload;
}

void writeDisk(const std::string& key, const std::string& payload) {
    const std::string path = fileFor(key);
    if (path.empty()) return;
    static std::string cleanedFor;  // once per process and version
    {
        std::lock_guard<std::mutex> lock(gMutex);
        if (cleanedFor != cacheDirectory() + "\n" + cacheVersion()) {
            cleanedFor = cacheDirectory() + "\n" + cacheVersion();
            removeOtherVersions();
        }
    }
    FieldWriter w;
    w.str(key);
    w.str(payload);
    writeWholeFile(path, w.text());  // disk errors are ignored: the entry is made again next time
}

std::string serializeVariants(const Variants& v) {
    FieldWriter w;
    w.str(v.source);
    w.str(v.log);
    return w.text();
}

std::optional<Variants> deserializeVariants(const std::string& s) {
    FieldReader r(s);
    Variants v;
    if (!r.str(v.source) || !r.str(v.log) || !r.done()) return std::nullopt;
    return v;
}

}  // namespace

const std::string& cacheVersion() { return versionStorage(); }

void setCacheVersion(const std::string& version) { versionStorage() = version; }

bool cacheEnabled() {
    const char* e = std::getenv("HETERO_TRANSFORM_CACHE");
    return !(e && (std::string(e) == "off" || std::string(e) == "0"));
}

std::string cacheDirectory() { return userCacheDirectory(); }

void clearMemoryCache() {
    std::lock_guard<std::mutex> lock(gMutex);
    gAnalyses.clear();
    gVariants.clear();
}

std::string cacheKey(const std::vector<std::string>& sources, const std::string& options, const std::string& kind) {
    FieldWriter w;
    w.str(cacheVersion());
    w.str(kind + (macroKernelsEnabled() ? " macro-kernels" : ""));
    w.str(options);
    w.num(sources.size());
    for (const auto& s : sources) w.str(s);
    return w.text();
}

std::string serialize(const ProgramAnalysis& a) {
    FieldWriter w;
    w.num(a.parsed);
    w.str(a.log);
    w.num(a.kernels.size());
    for (const auto& k : a.kernels) {
        w.str(k.name);
        w.num(k.params.size());
        for (const auto& p : k.params) {
            w.str(p.name);
            w.str(p.typeSpelling);
            w.num(static_cast<uint64_t>(p.addressSpace));
            for (bool b : {p.isPointer, p.pointeeConst, p.isRestrict, p.isImage, p.isSampler, p.mayRead, p.mayWrite})
                w.num(b);
            w.num(p.elementSize);
            w.num(p.storeSizes.size());
            for (size_t s : p.storeSizes) w.num(s);
        }
        for (bool b : {k.usesGlobalAtomics, k.usesLocalAtomics, k.usesBarrier, k.usesLocalMemory, k.usesPrintf,
                       k.usesImages, k.usesAsyncCopies, k.usesProgramScopeVariables, k.storesBeforeLoopEnds, k.splittable})
            w.num(b);
        w.str(k.reason);
    }
    return w.text();
}

std::optional<ProgramAnalysis> deserializeAnalysis(const std::string& s) {
    FieldReader r(s);
    ProgramAnalysis a;
    uint64_t n = 0;
    if (!r.flag(a.parsed) || !r.str(a.log) || !r.num(n)) return std::nullopt;
    for (uint64_t i = 0; i < n; ++i) {
        KernelAnalysis k;
        uint64_t np = 0;
        if (!r.str(k.name) || !r.num(np)) return std::nullopt;
        for (uint64_t j = 0; j < np; ++j) {
            ParamInfo p;
            uint64_t as = 0, es = 0, ns = 0;
            if (!r.str(p.name) || !r.str(p.typeSpelling) || !r.num(as) || as > 3) return std::nullopt;
            p.addressSpace = static_cast<AddressSpace>(as);
            for (bool* b : {&p.isPointer, &p.pointeeConst, &p.isRestrict, &p.isImage, &p.isSampler, &p.mayRead,
                            &p.mayWrite})
                if (!r.flag(*b)) return std::nullopt;
            if (!r.num(es) || !r.num(ns)) return std::nullopt;
            p.elementSize = es;
            for (uint64_t q = 0; q < ns; ++q) {
                uint64_t v = 0;
                if (!r.num(v)) return std::nullopt;
                p.storeSizes.push_back(v);
            }
            k.params.push_back(std::move(p));
        }
        for (bool* b : {&k.usesGlobalAtomics, &k.usesLocalAtomics, &k.usesBarrier, &k.usesLocalMemory, &k.usesPrintf,
                        &k.usesImages, &k.usesAsyncCopies, &k.usesProgramScopeVariables, &k.storesBeforeLoopEnds, &k.splittable})
            if (!r.flag(*b)) return std::nullopt;
        if (!r.str(k.reason)) return std::nullopt;
        a.kernels.push_back(std::move(k));
    }
    if (!r.done()) return std::nullopt;
    return a;
}

std::optional<ProgramAnalysis> loadAnalysis(const std::string& key) {
    if (!cacheEnabled()) return std::nullopt;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        auto it = gAnalyses.find(key);
        if (it != gAnalyses.end()) return it->second;
    }
    auto payload = readDisk(key);
    if (!payload) return std::nullopt;
    auto a = deserializeAnalysis(*payload);
    if (a) {
        std::lock_guard<std::mutex> lock(gMutex);
        gAnalyses[key] = *a;
    }
    return a;
}

void storeAnalysis(const std::string& key, const ProgramAnalysis& a) {
    if (!cacheEnabled()) return;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        if (gAnalyses.size() >= kMaxMemoryEntries) gAnalyses.clear();
        gAnalyses[key] = a;
    }
    writeDisk(key, serialize(a));
}

std::optional<Variants> loadVariants(const std::string& key) {
    if (!cacheEnabled()) return std::nullopt;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        auto it = gVariants.find(key);
        if (it != gVariants.end()) return it->second;
    }
    auto payload = readDisk(key);
    if (!payload) return std::nullopt;
    auto v = deserializeVariants(*payload);
    if (v) {
        std::lock_guard<std::mutex> lock(gMutex);
        gVariants[key] = *v;
    }
    return v;
}

void storeVariants(const std::string& key, const Variants& v) {
    if (!cacheEnabled()) return;
    {
        std::lock_guard<std::mutex> lock(gMutex);
        if (gVariants.size() >= kMaxMemoryEntries) gVariants.clear();
        gVariants[key] = v;
    }
    writeDisk(key, serializeVariants(v));
}

}  // namespace hetero::transform::detail

namespace hetero::transform {

std::string userCacheDirectory() {
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return std::string(x) + "/hetero";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/hetero";
    return {};
}

bool writeWholeFile(const std::string& path, const std::string& content) {
    const size_t slash = path.rfind('/');
    if (slash != std::string::npos && slash > 0) {
        const std::string dir = path.substr(0, slash);  // mkdir -p; failures show up when opening the file
        for (size_t p = 1; p != std::string::npos; p = dir.find('/', p + 1)) mkdir(dir.substr(0, p).c_str(), 0755);
        mkdir(dir.c_str(), 0755);
    }
    static std::atomic<unsigned> counter{0};
    const std::string tmp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
    bool written = false;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (out) {
            out << content;
            out.close();
            written = out.good();
        }
    }
    if (written && std::rename(tmp.c_str(), path.c_str()) == 0) return true;
    std::remove(tmp.c_str());
    return false;
}

std::optional<std::string> readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    if (in.bad()) return std::nullopt;
    return text.str();
}

std::string fileNameHash(const std::string& text) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
    return name;
}

}  // namespace hetero::transform
