#include "directives.hpp"

#include <algorithm>
#include <cctype>

namespace hetero::transform::detail {

namespace {

bool isIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// The text with line splices (backslash, optional blanks, newline) removed, and where each of its
// characters stands in the original.
struct Spliced {
    std::string s;
    std::vector<size_t> at;  // at[k]: offset in the original of s[k]; at[s.size()]: the original's size
};

Spliced removeSplices(const std::string& text) {
    Spliced out;
    out.s.reserve(text.size());
    out.at.reserve(text.size() + 1);
    for (size_t i = 0; i < text.size();) {
        if (text[i] == '\\') {
            size_t j = i + 1;
            while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
            if (j < text.size() && text[j] == '\r') ++j;
            if (j < text.size() && text[j] == '\n') {
                i = j + 1;
                continue;
            }
        }
        out.s += text[i];
        out.at.push_back(i);
        ++i;
    }
    out.at.push_back(text.size());
    return out;
}

class Lexer {
public:
    Lexer(const std::string& text, Lexed& out) : sp_(removeSplices(text)), s_(sp_.s), n_(s_.size()), out_(out) {}

    void run() {
        bool lineStart = true;
        size_t i = 0;
        while (i < n_) {
            const char c = s_[i];
            if (c == '\n') {
                lineStart = true;
                ++i;
            } else if (isBlank(c)) {
                ++i;
            } else if (startsComment(i)) {
                i = skipComment(i);  // a comment keeps whether a '#' would still start the line
            } else if (c == '#' && lineStart) {
                i = directive(i);
            } else {
                lineStart = false;
                i = token(i, nullptr);
            }
        }
    }

private:
    Spliced sp_;
    const std::string& s_;
    size_t n_;
    Lexed& out_;
    unsigned depth_ = 0;

    bool startsComment(size_t i) const { return s_[i] == '/' && i + 1 < n_ && (s_[i + 1] == '*' || s_[i + 1] == '/'); }

    size_t skipComment(size_t i) const {
        if (s_[i + 1] == '/') {
            while (i < n_ && s_[i] != '\n') ++i;
            return i;
        }
        const size_t e = s_.find("*/", i + 2);
        return e == std::string::npos ? n_ : e + 2;
    }

    // One token from i (not a blank, newline or comment); returns where the next one may start.
    // Identifiers are recorded; `spelled` receives the token's text.
    size_t token(size_t i, std::string* spelled) {
        const size_t begin = i;
        const char c = s_[i];
        if (c == '"' || c == '\'') {
            for (++i; i < n_ && s_[i] != c && s_[i] != '\n'; ++i)
                if (s_[i] == '\\' && i + 1 < n_ && s_[i + 1] != '\n') ++i;
            if (i < n_ && s_[i] == c) ++i;
        } else if (isIdentifierStart(c)) {
            while (i < n_ && isIdentifierChar(s_[i])) ++i;
            out_.identifiers.push_back({sp_.at[begin], s_.substr(begin, i - begin)});
        } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                   (c == '.' && i + 1 < n_ && std::isdigit(static_cast<unsigned char>(s_[i + 1])))) {
            for (++i; i < n_; ++i) {  // a preprocessing number
                const char p = s_[i - 1];
                if ((s_[i] == '+' || s_[i] == '-') && (p == 'e' || p == 'E' || p == 'p' || p == 'P')) continue;
                if (!isIdentifierChar(s_[i]) && s_[i] != '.') break;
            }
        } else {
            ++i;
        }
        if (spelled) *spelled = s_.substr(begin, i - begin);
        return i;
    }

    // Blanks and comments inside a directive (a block comment may span lines and continue it).
    size_t skipInline(size_t i) const {
        while (i < n_) {
            if (isBlank(s_[i])) ++i;
            else if (startsComment(i)) i = skipComment(i);
            else break;
        }
        return i;
    }

    size_t directive(size_t i) {
        Directive d;
        d.begin = sp_.at[i];
        std::vector<std::string> words;
        bool spaceBefore = false;
        std::string rest;
        i = skipInline(i + 1);
        while (i < n_ && s_[i] != '\n') {
            std::string w;
            i = token(i, &w);
            words.push_back(w);
            if (words.size() == 1) {
                if (isIdentifierStart(w[0])) {
                    d.name = w;
                } else if (std::isdigit(static_cast<unsigned char>(w[0]))) {
                    d.name = "line";  // a GNU line marker: "# 12 "file" flags"
                    d.macro = w;
                } else {
                    d.name = "?" + w;  // not a directive the preprocessor knows
                }
            } else if (words.size() == 2 &&
                       (d.name == "define" || d.name == "undef" || (d.name == "line" && d.macro.empty()))) {
                d.macro = w;
            } else {
                if (!rest.empty() && spaceBefore) rest += ' ';
                rest += w;
            }
            const size_t next = skipInline(i);
            spaceBefore = next != i;
            i = next;
        }
        d.rest = rest;
        d.end = sp_.at[i];
        if (d.name == "if" || d.name == "ifdef" || d.name == "ifndef") {
            d.depth = depth_++;
        } else if (d.name == "elif" || d.name == "elifdef" || d.name == "elifndef" || d.name == "else") {
            d.depth = depth_ ? depth_ - 1 : 0;
        } else if (d.name == "endif") {
            depth_ = depth_ ? depth_ - 1 : 0;
            d.depth = depth_;
        } else {
            d.depth = depth_;
        }
        out_.directives.push_back(std::move(d));
        return i;
    }
};

}  // namespace

bool isConditional(const std::string& n) {
    return n == "if" || n == "ifdef" || n == "ifndef" || n == "elif" || n == "elifdef" || n == "elifndef" ||
           n == "else" || n == "endif";
}

size_t Lexed::lineOf(size_t offset) const {
    return static_cast<size_t>(std::upper_bound(lineStarts.begin(), lineStarts.end(), offset) - lineStarts.begin());
}

std::vector<std::string> Lexed::identifiersIn(size_t begin, size_t end) const {
    std::vector<std::string> out;
    auto it = std::lower_bound(identifiers.begin(), identifiers.end(), begin,
                               [](const Identifier& id, size_t at) { return id.at < at; });
    for (; it != identifiers.end() && it->at < end; ++it) out.push_back(it->name);
    return out;
}

std::vector<const Directive*> Lexed::directivesIn(size_t begin, size_t end) const {
    std::vector<const Directive*> out;
    for (const Directive& d : directives)
        if (d.begin >= begin && d.begin < end) out.push_back(&d);
    return out;
}

std::string withLineFeeds(std::string text) {
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
    return text;
}

Lexed lex(const std::string& text) {
    Lexed out;
    out.lineStarts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n') out.lineStarts.push_back(i + 1);
    Lexer(text, out).run();
    return out;
}

}  // namespace hetero::transform::detail
