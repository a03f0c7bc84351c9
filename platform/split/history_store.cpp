// Auto mode's history between runs (history_store.hpp).
#include "platform/split/history_store.hpp"

#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "transform/cache_location.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hetero::history_store {
namespace {

// The first line of a file: which device set it is for. Newlines cannot occur in it.
std::string firstLine(const std::string& deviceSet) {
    std::string line = "device set: " + deviceSet;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    return line;
}

std::atomic<bool> warnedUnreadable{false}, warnedUnwritable{false};

}  // namespace

bool enabled() {
    static const bool on = [] {
        const std::string v = config::get("HETERO_HISTORY_CACHE", "history_cache").value_or("on");
        return !(v == "off" || v == "0");
    }();
    return on;
}

std::string pathFor(const std::string& deviceSet) {
    const std::string dir = transform::userCacheDirectory();
    return dir.empty() ? std::string() : dir + "/split-history-" + transform::fileNameHash(firstLine(deviceSet)) + ".txt";
}

bool load(SplitHistory& history, const std::string& deviceSet) {
    const std::string path = pathFor(deviceSet);
    if (path.empty()) return false;
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;  // none yet
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    const std::string head = firstLine(deviceSet) + "\n";
    if (content.compare(0, head.size(), head) != 0) {
        // Another device set whose name hashes alike, or a damaged file: not ours to go by.
        if (content.rfind("device set: ", 0) == 0) return false;
    } else if (history.deserialize(content.substr(head.size()))) {
        HETERO_LOG(Info, "split history read from %s", path.c_str());
        return true;
    }
    if (!warnedUnreadable.exchange(true))
        HETERO_LOG(Warn, "%s is not a split history Hetero can read; ignored (it is replaced at exit)", path.c_str());
    return false;
}

bool save(SplitHistory& history, const std::string& deviceSet) {
    const std::string path = pathFor(deviceSet);
    if (path.empty()) return false;
    const std::string dir = path.substr(0, path.rfind('/'));
    for (size_t p = 1; p != std::string::npos; p = dir.find('/', p + 1)) mkdir(dir.substr(0, p).c_str(), 0755);
    mkdir(dir.c_str(), 0755);
    const std::string tmp = path + ".tmp." + std::to_string(getpid());
    bool written = false;
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (out) {
            out << firstLine(deviceSet) << "\n" << history.serialize();
            out.close();
            written = out.good();
        }
    }
    if (written && std::rename(tmp.c_str(), path.c_str()) == 0) return true;
    std::remove(tmp.c_str());
    if (!warnedUnwritable.exchange(true))
        HETERO_LOG(Warn, "cannot write the split history to %s; the next run learns afresh", path.c_str());
    return false;
}

std::string programKey(const std::string& source, const std::string& options) {
    return transform::fileNameHash(source + '\0' + options);
}

}  // namespace hetero::history_store
