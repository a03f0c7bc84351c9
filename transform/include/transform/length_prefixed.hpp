// Length-prefixed fields ("<size>:<bytes>"), unambiguous for any bytes: the format of the files
// Hetero keeps between runs (transform/src/cache.cpp, platform/objects/kept_binaries.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetero::transform {

class FieldWriter {
public:
    void str(const std::string& s) { out_ += std::to_string(s.size()) + ":" + s; }
    void num(uint64_t v) { str(std::to_string(v)); }
    const std::string& text() const { return out_; }

private:
    std::string out_;
};

class FieldReader {
public:
    explicit FieldReader(const std::string& s) : s_(s) {}
    bool str(std::string& out) {
        const size_t colon = s_.find(':', pos_);
        if (colon == std::string::npos || colon == pos_ || colon - pos_ > 20) return false;
        size_t n = 0;
        for (size_t i = pos_; i < colon; ++i) {
            if (s_[i] < '0' || s_[i] > '9') return false;
            n = n * 10 + static_cast<size_t>(s_[i] - '0');
        }
        if (colon + 1 + n > s_.size()) return false;
        out = s_.substr(colon + 1, n);
        pos_ = colon + 1 + n;
        return true;
    }
    bool num(uint64_t& v) {
        std::string t;
        if (!str(t) || t.empty() || t.size() > 20) return false;
        v = 0;
        for (char c : t) {
            if (c < '0' || c > '9') return false;
            v = v * 10 + static_cast<uint64_t>(c - '0');
        }
        return true;
    }
    bool flag(bool& b) {
        uint64_t v;
        if (!num(v) || v > 1) return false;
        b = v == 1;
        return true;
    }
    bool done() const { return pos_ == s_.size(); }

private:
    const std::string& s_;
    size_t pos_ = 0;
};

}  // namespace hetero::transform
