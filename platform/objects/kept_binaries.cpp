// Backend programs kept between runs (kept_binaries.hpp).
#include "platform/objects/kept_binaries.hpp"

#include "devices/backend_objects.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "transform/cache_location.hpp"
#include "transform/length_prefixed.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

namespace hetero::kept_binaries {
namespace {

constexpr const char* kMagic = "hetero kept binary 1\n";
constexpr uint64_t kDefaultMostBytes = uint64_t{512} << 20;

std::atomic<bool> warnedUnreadable{false}, warnedUnwritable{false};

// Everything the backend's binary is made from, but for the compiler's own state (its version is
// the driver's): the first field of an entry.
std::string keyFor(const Slot& slot, const std::string& source, const std::string& options) {
    transform::FieldWriter key;
    key.str(slot.platformName);
    key.str(backend::platformInfoString(slot.platform, CL_PLATFORM_VERSION));  // PoCL's names its LLVM
    key.str(slot.deviceName);
    key.str(backend::deviceInfoString(slot.device, CL_DEVICE_VERSION));
    key.str(backend::deviceInfoString(slot.device, CL_DRIVER_VERSION));
    key.str(options);
    key.str(source);
    return key.text();
}

std::string pathForKey(const std::string& key) {
    const std::string dir = transform::userCacheDirectory();
    return dir.empty() ? std::string() : dir + "/binaries/" + transform::fileNameHash(key) + ".bin";
}

// A preprocessing directive `name` anywhere in `source` ('#' or "%:", then blanks or line
// continuations). Comments and strings are not told apart: a false find only means no keeping.
bool hasDirective(const std::string& source, const char* name) {
    const size_t length = std::strlen(name);
    for (size_t i = 0; i < source.size(); ++i) {
        size_t p;
        if (source[i] == '#') p = i + 1;
        else if (source.compare(i, 2, "%:") == 0) p = i + 2;
        else continue;
        while (p < source.size() && (source[p] == ' ' || source[p] == '\t' || source[p] == '\\' || source[p] == '\r' ||
                                     source[p] == '\n'))
            ++p;
        if (source.compare(p, length, name) == 0 &&
            (p + length == source.size() || !(std::isalnum(static_cast<unsigned char>(source[p + length])) ||
                                              source[p + length] == '_')))
            return true;
    }
    return false;
}

// Past mostBytesKept() in `folder`, removes the entries used least recently (by modification time,
// which a use renews) but `keep`, down to 3/4 of it. Another process may remove the same at once:
// an entry that is gone is gone. Also removes what a process that ended while writing an entry
// left (writeWholeFile's ".tmp." files), an hour on.
void removeLeastRecentlyUsed(const std::string& folder, const std::string& keep) {
    struct Entry {
        timespec used;
        std::string path;
        uint64_t bytes;
    };
    std::vector<Entry> entries;
    uint64_t total = 0;
    DIR* d = opendir(folder.c_str());
    if (!d) return;
    while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        const std::string path = folder + "/" + name;
        struct stat st;
        if (name.find(".bin.tmp.") != std::string::npos) {
            if (stat(path.c_str(), &st) == 0 && st.st_mtime + 3600 < std::time(nullptr)) std::remove(path.c_str());
            continue;
        }
        if (name.size() < 4 || name.compare(name.size() - 4, 4, ".bin") != 0) continue;
        if (stat(path.c_str(), &st) != 0) continue;
        total += static_cast<uint64_t>(st.st_size);
        if (path != keep) entries.push_back({st.st_mtim, path, static_cast<uint64_t>(st.st_size)});
    }
    closedir(d);
    if (total <= mostBytesKept()) return;
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        if (a.used.tv_sec != b.used.tv_sec) return a.used.tv_sec < b.used.tv_sec;
        if (a.used.tv_nsec != b.used.tv_nsec) return a.used.tv_nsec < b.used.tv_nsec;
        return a.path < b.path;
    });
    const uint64_t target = mostBytesKept() / 4 * 3;
    for (const auto& e : entries) {
        if (total <= target) break;
        std::remove(e.path.c_str());
        total -= e.bytes;
    }
}

}  // namespace

uint64_t mostBytesKept() {
    static const uint64_t most = [] {
        const std::string v = config::get("HETERO_BINARY_CACHE", "binary_cache").value_or("on");
        if (v == "on" || v == "auto") return kDefaultMostBytes;
        const int64_t bytes = config::parseBytes(v);
        if (bytes >= 0) return static_cast<uint64_t>(bytes);
        HETERO_LOG(Warn, "HETERO_BINARY_CACHE=%s not understood (on, off, or bytes with K/M/G/T); keeping up to 512 MiB",
                   v.c_str());
        return kDefaultMostBytes;
    }();
    return most;
}

bool keepable(const Slot& slot, const std::string& source, const std::string& options) {
    // Backends checked to keep argument information in their binaries (Kernel::setArg needs it).
    const bool backendKeepsEnough = slot.isPocl() || slot.platformName == "NVIDIA CUDA";
    return mostBytesKept() > 0 && backendKeepsEnough && !hasDirective(source, "include") &&
           source.find("__DATE__") == std::string::npos && source.find("__TIME__") == std::string::npos &&
           options.find("-include") == std::string::npos && options.find("-imacros") == std::string::npos;
}

backend::Program build(const Slot& slot, cl_context context, const std::string& source, const std::string& options,
                       bool mayKeep) {
    const bool keeps = mayKeep && keepable(slot, source, options);
    if (keeps)
        if (Built kept = fromKept(slot, context, source, options); kept.program) return std::move(kept.program);
    backend::Program program = backend::programFromSource(context, source);
    if (!program || backend::build(program.get(), slot.device, options.c_str()) != CL_SUCCESS) return {};
    if (keeps) keep(slot, program.get(), source, options);
    return program;
}

Built fromKept(const Slot& slot, cl_context context, const std::string& source, const std::string& options) {
    const std::string key = keyFor(slot, source, options);
    const std::string path = pathForKey(key);
    if (path.empty()) return {};
    const auto content = transform::readWholeFile(path);
    if (!content) return {};  // none kept yet
    Built built;
    std::string storedKey, binary, binaryHash;
    const size_t magic = std::strlen(kMagic);
    const bool entry = content->compare(0, magic, kMagic) == 0;
    const std::string fields = entry ? content->substr(magic) : std::string();
    transform::FieldReader r(fields);
    if (!entry || !r.str(storedKey) || !r.str(built.log) || !r.str(binary) || !r.str(binaryHash) || !r.done() ||
        binary.empty() || binaryHash != transform::fileNameHash(binary)) {
        if (!warnedUnreadable.exchange(true))
            HETERO_LOG(Warn, "%s is not a program binary Hetero kept; ignored (the program is built from source)",
                       path.c_str());
        return {};
    }
    if (storedKey != key) return {};  // another build whose key hashes alike
    const auto* bytes = reinterpret_cast<const unsigned char*>(binary.data());
    backend::Program program = backend::programFromBinary(context, slot.device, bytes, binary.size());
    if (!program || backend::build(program.get(), slot.device, options.c_str()) != CL_SUCCESS) {
        HETERO_LOG(Info, "the binary kept in %s did not build on %s; built from source", path.c_str(),
                   slot.describe().c_str());
        return {};
    }
    built.program = std::move(program);
    counters::add(counters::ProgramsFromKeptBinaries);
    utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // used now: the last to go
    return built;
}

void keep(const Slot& slot, cl_program program, const std::string& source, const std::string& options) {
    const std::string key = keyFor(slot, source, options);
    const std::string path = pathForKey(key);
    if (path.empty()) return;
    const std::vector<unsigned char> binary = backend::programBinary(program);
    if (binary.empty()) return;
    transform::FieldWriter w;
    w.str(key);
    w.str(backend::programBuildLog(program, slot.device));
    const std::string bytes(binary.begin(), binary.end());
    w.str(bytes);
    w.str(transform::fileNameHash(bytes));
    if (!transform::writeWholeFile(path, kMagic + w.text())) {
        if (!warnedUnwritable.exchange(true))
            HETERO_LOG(Warn, "cannot keep program binaries in %s; programs are built from source", path.c_str());
        return;
    }
    removeLeastRecentlyUsed(path.substr(0, path.rfind('/')), path);
}

}  // namespace hetero::kept_binaries
