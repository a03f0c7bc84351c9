// Auto mode's history between runs (history_store.hpp).
#include "platform/split/history_store.hpp"

#include "platform/support/config.hpp"
#include "platform/support/log.hpp"
#include "transform/cache_location.hpp"

#include <atomic>

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
    const auto read = transform::readWholeFile(path);
    if (!read) return false;  // none yet
    const std::string& content = *read;
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
    if (transform::writeWholeFile(path, firstLine(deviceSet) + "\n" + history.serialize())) return true;
    if (!warnedUnwritable.exchange(true))
        HETERO_LOG(Warn, "cannot write the split history to %s; the next run learns afresh", path.c_str());
    return false;
}

std::string programKey(const std::string& source, const std::string& options) {
    return transform::fileNameHash(source + '\0' + options);
}

}  // namespace hetero::history_store
