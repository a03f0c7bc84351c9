// Backend programs kept between runs (kept_binaries.hpp).
#include "platform/objects/kept_binaries.hpp"

#include "devices/backend_objects.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "transform/cache_location.hpp"
#include "transform/length_prefixed.hpp"

#include <atomic>
#include <cctype>
#include <cstring>

namespace hetero::kept_binaries {
namespace {

constexpr const char* kMagic = "hetero kept binary 1\n";

std::atomic<bool> warnedUnreadable{false}, warnedUnwritable{false};

// Everything the backend's binary is made from, but for the compiler's own state (its version is
// the driver's): the first field of an entry.
std::string keyFor(const Slot& slot, const std::string& source, const std::string& options) {
    transform::FieldWriter key;
    key.str(slot.platformName);
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

}  // namespace

bool enabled() {
    static const bool on = [] {
        const std::string v = config::get("HETERO_BINARY_CACHE", "binary_cache").value_or("on");
        return !(v == "off" || v == "0");
    }();
    return on;
}

bool keepable(const Slot& slot, const std::string& source) {
    // Backends checked to keep argument information in their binaries (Kernel::setArg needs it).
    const bool backendKeepsEnough = slot.isPocl() || slot.platformName == "NVIDIA CUDA";
    return enabled() && backendKeepsEnough && !hasDirective(source, "include") &&
           source.find("__DATE__") == std::string::npos && source.find("__TIME__") == std::string::npos;
}

backend::Program build(const Slot& slot, cl_context context, const std::string& source, const std::string& options,
                       bool mayKeep) {
    const bool keeps = mayKeep && keepable(slot, source);
    if (keeps)
        if (Built kept = fromKept(slot, context, source, options); kept.program) return std::move(kept.program);
    backend::Program program = backend::programFromSource(context, source);
    if (!program || backend::build(program.get(), slot.device, options.c_str()) != CL_SUCCESS) return {};
    if (keeps) keep(slot, program.get(), source, options);
    return program;
}

std::string pathFor(const Slot& slot, const std::string& source, const std::string& options) {
    return pathForKey(keyFor(slot, source, options));
}

Built fromKept(const Slot& slot, cl_context context, const std::string& source, const std::string& options) {
    const std::string key = keyFor(slot, source, options);
    const std::string path = pathForKey(key);
    if (path.empty()) return {};
    const auto content = transform::readWholeFile(path);
    if (!content) return {};  // none kept yet
    Built built;
    std::string storedKey, binary;
    const size_t magic = std::strlen(kMagic);
    const bool entry = content->compare(0, magic, kMagic) == 0;
    const std::string fields = entry ? content->substr(magic) : std::string();
    transform::FieldReader r(fields);
    if (!entry || !r.str(storedKey) || !r.str(built.log) || !r.str(binary) || !r.done() || binary.empty()) {
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
    w.str(std::string(binary.begin(), binary.end()));
    if (!transform::writeWholeFile(path, kMagic + w.text()) && !warnedUnwritable.exchange(true))
        HETERO_LOG(Warn, "cannot keep program binaries in %s; programs are built from source", path.c_str());
}

}  // namespace hetero::kept_binaries
