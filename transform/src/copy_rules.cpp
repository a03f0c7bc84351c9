// The rewriter puts each copy right after its original (a function from a header: right after the
// program's #include line). The preprocessor state there differs from the original's only by what
// the directives in between changed: those inside the original's own text, or those after the
// function in its header. So a copy is exact when
//   * a directive inside the original that changes state is a #define/#undef of a macro whose state
//     at the original is known from the program's text or its -D/-U options on every device (it is
//     restored before the copy: "#undef X" and the original's #define), or a pragma whose effect
//     ends with the statement it stands in;
//   * the copy starts with "#line N" for the original's first line (no file name: the presumed file
//     stays what it is there), so __LINE__ and diagnostics are the original's;
//   * nothing it expands differs by position in other ways: __FILE__ (unless a #line directive names
//     the file: backends and programs name it differently), __COUNTER__, __DATE__, __TIME__,
//     __TIMESTAMP__, __BASE_FILE__, and in headers also __LINE__ and __INCLUDE_LEVEL__;
//   * after a header function, its header only closes conditional groups.
// Implementations predefine macros only under reserved names, cl_/CL_/FP_ names, OpenCL keywords and
// names of the OpenCL C library (all of which clang's OpenCL headers spell): a name outside those
// that the program never defines before a function is undefined there on every device.
#include "copy_rules.hpp"

#include "parse.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hetero::transform::detail {

namespace {

const char* const kSpecialMacros[] = {"__LINE__",  "__FILE__", "__FILE_NAME__", "__BASE_FILE__", "__INCLUDE_LEVEL__",
                                      "__COUNTER__", "__DATE__", "__TIME__",     "__TIMESTAMP__", "_Pragma"};

bool isSpecial(const std::string& id) {
    for (const char* s : kSpecialMacros)
        if (id == s) return true;
    return false;
}

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// Words the OpenCL C language or its implementations may define as macros.
const char* const kLanguageWords[] = {"kernel",  "global", "local", "constant", "private",   "generic",  "read_only",
                                      "write_only", "read_write", "uniform", "pipe", "bool", "true", "false",
                                      "half", "double", "NULL", "restrict", "inline", "complex", "imaginary"};

// Every identifier clang's OpenCL headers spell: the OpenCL C library's functions, types and macros.
const std::set<std::string>& openclLibraryNames() {
    static const std::set<std::string> names = [] {
        std::set<std::string> out;
        const std::string& dir = openclHeaderDir();
        for (const char* f : {"opencl-c-base.h", "opencl-c.h"}) {
            std::ifstream in(dir + "/" + f);
            std::stringstream text;
            text << in.rdbuf();
            for (const Identifier& id : lex(text.str()).identifiers) out.insert(id.name);
        }
        return out;
    }();
    return names;
}

bool mayBePredefined(const std::string& n) {
    if (n.size() >= 2 && n[0] == '_' && (n[1] == '_' || std::isupper(static_cast<unsigned char>(n[1])))) return true;
    if (startsWith(n, "cl_") || startsWith(n, "CL_") || startsWith(n, "FP_")) return true;
    for (const char* w : kLanguageWords)
        if (n == w) return true;
    if (openclHeaderDir().empty()) return true;  // nothing to tell library names by
    return openclLibraryNames().count(n) > 0;
}

// Pragmas whose effect ends with the statement (loop hints) or compound statement (floating-point
// contraction, C99 6.10.6) they stand in, when they stand inside a function body.
bool isLocalPragma(const std::string& rest) {
    static const char* const kLocal[] = {"unroll",    "nounroll",  "unroll_and_jam",     "nounroll_and_jam",
                                         "clang loop", "clang fp", "OPENCL FP_CONTRACT", "STDC FP_CONTRACT"};
    for (const char* p : kLocal) {
        const size_t n = std::char_traits<char>::length(p);
        if (rest.compare(0, n, p) == 0 && (rest.size() == n || rest[n] == ' ' || rest[n] == '(')) return true;
    }
    return false;
}

bool allDigits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The strings of every _Pragma("...") in a text; false if one's argument is not a string literal.
bool pragmaStringsAreLocal(const std::string& text, const Lexed& lexed) {
    for (const Identifier& id : lexed.identifiers) {
        if (id.name != "_Pragma") continue;
        size_t p = id.at + 7;
        while (p < text.size() && (text[p] == ' ' || text[p] == '\t' || text[p] == '(')) ++p;
        if (p >= text.size() || text[p] != '"') return false;
        std::string content;
        for (++p; p < text.size() && text[p] != '"'; ++p) {
            if (text[p] == '\\' && p + 1 < text.size()) ++p;
            content += text[p];
        }
        std::string words;  // blanks collapsed, as Directive::rest
        for (char c : content) {
            if (c == ' ' || c == '\t') {
                if (!words.empty() && words.back() != ' ') words += ' ';
            } else {
                words += c;
            }
        }
        while (!words.empty() && words.back() == ' ') words.pop_back();
        if (!isLocalPragma(words)) return false;
    }
    return true;
}

std::string describe(const Directive& d, const Lexed& lexed) {
    std::string s = "line " + std::to_string(lexed.lineOf(d.begin)) + ": #" + d.name;
    if (!d.macro.empty()) s += " " + d.macro;
    else if (!d.rest.empty()) s += " " + d.rest;
    return s;
}

}  // namespace

CopyRules::CopyRules(const std::string& program, const std::map<std::string, std::string>& headers,
                     std::map<std::string, IncludeChain> chains, const std::vector<std::string>& macroOptions,
                     std::vector<std::pair<size_t, size_t>> topLevelExtents)
    : program_(program), lexed_(lex(program)), chains_(std::move(chains)), topLevel_(std::move(topLevelExtents)) {
    for (const auto& [name, text] : headers) {
        File& f = headers_[name];
        f.text = &text;
        f.lexed = lex(text);
        for (const Directive& d : f.lexed.directives)
            if (d.name == "define" || d.name == "undef") headerMacros_.insert(d.macro);
    }
    for (const std::string& o : macroOptions) {
        if (o.size() < 3) continue;
        const std::string body = o.substr(2);
        if (o[1] == 'D') {
            const size_t eq = body.find('=');
            const std::string head = eq == std::string::npos ? body : body.substr(0, eq);
            const std::string value = eq == std::string::npos ? "1" : body.substr(eq + 1);
            options_.emplace_back(head.substr(0, head.find('(')), "#define " + head + " " + value);
        } else if (o[1] == 'U') {
            options_.emplace_back(body, "");
        }
    }
    // Texts that could defeat the reasoning above wherever they are.
    auto scan = [&](const std::string& text, const Lexed& lexed) {
        if (text.find("push_macro") != std::string::npos || text.find("pop_macro") != std::string::npos)
            popMacro_ = true;
        if (!pragmaStringsAreLocal(text, lexed)) unsafePragmaStrings_ = true;
        for (const Identifier& id : lexed.identifiers)
            if (id.name == "overloadable") overloadable_ = true;
    };
    scan(program_, lexed_);
    for (const auto& [name, f] : headers_) scan(*f.text, f.lexed);
    computeReach();
}

// Which of the special macros each macro's expansion may produce, over every definition of it.
void CopyRules::computeReach() {
    std::map<std::string, std::set<std::string>> uses;  // macro -> identifiers of its definitions
    auto addDefinitions = [&](const Lexed& lexed) {
        for (const Directive& d : lexed.directives)
            if (d.name == "define")
                for (const std::string& id : lexed.identifiersIn(d.begin, d.end)) uses[d.macro].insert(id);
    };
    addDefinitions(lexed_);
    for (const auto& [name, f] : headers_) addDefinitions(f.lexed);
    for (const auto& [name, definition] : options_)
        for (const Identifier& id : lex(definition).identifiers) uses[name].insert(id.name);
    for (const auto& [name, ids] : uses)
        for (const std::string& id : ids)
            if (isSpecial(id)) reaches_[name].insert(id);
    for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [name, ids] : uses)
            for (const std::string& id : ids) {
                auto r = reaches_.find(id);
                if (r == reaches_.end() || id == name) continue;
                const std::set<std::string> add = r->second;
                auto& mine = reaches_[name];
                const size_t before = mine.size();
                mine.insert(add.begin(), add.end());
                changed = changed || mine.size() != before;
            }
    }
}

std::set<std::string> CopyRules::specialsReached(const std::vector<std::string>& identifiers) const {
    std::set<std::string> out;
    for (const std::string& id : identifiers) {
        if (isSpecial(id)) out.insert(id);
        auto r = reaches_.find(id);
        if (r != reaches_.end()) out.insert(r->second.begin(), r->second.end());
    }
    return out;
}

size_t CopyRules::presumedLine(size_t offset) const {
    const Directive* last = nullptr;
    for (const Directive& d : lexed_.directives) {
        if (d.begin >= offset) break;
        if (d.name != "line") continue;
        if (d.depth > 0 || !allDigits(d.macro)) return 0;  // device-dependent or computed by macros
        // Spread over several physical lines (a splice, a comment running on): clang numbers the
        // lines after it from the line of the number, the standard (and GCC) from the line after
        // the directive, so which one a backend gives is not known.
        if (lexed_.lineOf(d.begin) != lexed_.lineOf(d.end)) return 0;
        last = &d;
    }
    const size_t physical = lexed_.lineOf(offset);
    if (!last) return physical;
    // Past clang's limit (2147483647) the numbering is the compiler's business: not known. The
    // digits may not even fit an unsigned long (`#line 99999999999999999999`).
    constexpr size_t kMaxLine = 2147483647;
    if (last->macro.size() > 10 || std::stoull(last->macro) > kMaxLine) return 0;
    const size_t line = std::stoull(last->macro) + physical - lexed_.lineOf(last->end) - 1;
    return line > kMaxLine ? 0 : line;
}

bool CopyRules::fileNamedBefore(size_t offset) const {
    bool named = false;
    for (const Directive& d : lexed_.directives) {
        if (d.begin >= offset) break;
        if (d.name != "line") continue;
        if (d.depth > 0) return false;
        if (!d.rest.empty() && d.rest[0] == '"') named = true;
    }
    return named;
}

CopyRules::State CopyRules::stateBefore(size_t offset, const std::string& macro) const {
    State st;
    bool fromOption = false;
    for (const auto& [name, definition] : options_)
        if (name == macro) {
            fromOption = true;
            st.known = true;
            st.defined = !definition.empty();
            st.definition = definition;
        }
    if (!fromOption) {
        st.known = !mayBePredefined(macro);
        if (!st.known) st.why = "the OpenCL implementation may predefine it";
    }
    if (popMacro_) return {false, false, "", "the program uses push_macro/pop_macro"};
    for (const Directive& d : lexed_.directives) {
        if (d.begin >= offset) break;
        if (d.name == "include" || d.name == "include_next" || d.name == "import") {
            if (d.depth > 0) st = {false, false, "", "an #include under #if comes before"};
            else if (headerMacros_.count(macro)) st = {false, false, "", "a header included before it defines or undefines it"};
        } else if ((d.name == "define" || d.name == "undef") && d.macro == macro) {
            if (d.depth > 0) {
                st = {false, false, "", "it is defined or undefined under #if before (" + describe(d, lexed_) + ")"};
            } else {
                st = {true, d.name == "define", "", ""};
                if (st.defined) st.definition = program_.substr(d.begin, d.end - d.begin);
            }
        }
    }
    return st;
}

// Tokens between the previous declaration and this one that libclang does not count as part of
// it (a macro expanding to nothing here, an attribute libclang ignores) may mean something on a
// device: the copy starts with them too, with the conditional groups around them when whole
// (tokens of a group that began before them, e.g. the other branch of a previous declaration,
// are not this declaration's).
void CopyRules::extendOverStrayTokens(FunctionSite& s) const {
    size_t from = 0;
    for (const auto& [b, e] : topLevel_)
        if (e <= s.start && b < s.start) from = std::max(from, e);
    size_t stray = std::string::npos;
    int depth = 0;  // conditional groups opened since `stray`
    for (size_t p = from; p < s.start;) {
        const char c = program_[p];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v' || c == '\\') {
            ++p;
        } else if (program_.compare(p, 2, "//") == 0 || program_.compare(p, 2, "/*") == 0) {
            const bool line = program_[p + 1] == '/';
            const size_t q = line ? program_.find('\n', p) : program_.find("*/", p + 2);
            p = q == std::string::npos ? s.start : q + (line ? 0 : 2);
        } else if (c == '#') {
            auto d = std::find_if(lexed_.directives.begin(), lexed_.directives.end(),
                                  [&](const Directive& x) { return x.begin == p; });
            if (d == lexed_.directives.end()) {
                if (stray == std::string::npos) stray = p, depth = 0;
                ++p;
                continue;
            }
            if (stray != std::string::npos && isConditional(d->name)) {
                if (d->name == "if" || d->name == "ifdef" || d->name == "ifndef") ++depth;
                else if (depth == 0) stray = std::string::npos;
                else if (d->name == "endif") --depth;
            }
            p = d->end;
        } else if (c == ';') {
            stray = std::string::npos;
            ++p;
        } else {
            if (stray == std::string::npos) stray = p, depth = 0;
            ++p;
        }
    }
    if (stray != std::string::npos) s.start = stray;
}

std::string CopyRules::checkDirectives(const Lexed& lexed, const FunctionSite& s, std::set<std::string>& defined) const {
    int depth = 0;
    for (const Directive* d : lexed.directivesIn(s.start, s.end)) {
        const std::string& n = d->name;
        if (n == "if" || n == "ifdef" || n == "ifndef") {
            ++depth;
        } else if (n == "endif") {
            if (--depth < 0) return "its conditional directives are not balanced (" + describe(*d, lexed) + ")";
        } else if (isConditional(n)) {
            if (depth == 0) return "its conditional directives are not balanced (" + describe(*d, lexed) + ")";
        } else if (n == "define" || n == "undef") {
            if (d->macro.empty()) return "it holds a malformed #" + n;
            defined.insert(d->macro);
        } else if (n == "pragma") {
            if (!s.isDefinition || d->begin < s.bodyOpen || !isLocalPragma(d->rest))
                return "it holds #pragma " + d->rest + ", whose effect may outlast it";
        } else if (!(n.empty() || n == "error" || n == "warning" || n == "ident" || n == "sccs")) {
            return "it holds a #" + n + " directive (" + describe(*d, lexed) + ")";
        }
    }
    if (depth != 0) return "its conditional directives are not balanced";
    return {};
}

std::string CopyRules::checkPositions(const std::vector<std::string>& identifiers, bool inHeader, size_t at) const {
    const std::set<std::string> r = specialsReached(identifiers);
    for (const char* m : {"__COUNTER__", "__DATE__", "__TIME__", "__TIMESTAMP__", "__BASE_FILE__"})
        if (r.count(m))
            return std::string("it uses ") + m + ", whose value differs between the original and its copies or between devices";
    if (r.count("__FILE__") || r.count("__FILE_NAME__")) {
        if (inHeader) return "it uses __FILE__ in a header; its copy stands in the program";
        if (!fileNamedBefore(at))
            return "it uses __FILE__, which backends and programs name differently (a #line directive naming the file makes it one name)";
    }
    if (inHeader && (r.count("__LINE__") || r.count("__INCLUDE_LEVEL__")))
        return std::string("it uses ") + (r.count("__LINE__") ? "__LINE__" : "__INCLUDE_LEVEL__") +
               " in a header; its copy stands in the program, where the value differs";
    if (r.count("_Pragma") && unsafePragmaStrings_)
        return "it uses _Pragma, and the program has _Pragma operators whose effect may outlast a function";
    return {};
}

void CopyRules::plan(FunctionSite& s) const {
    if (!s.ok) return;
    if (!s.file.empty()) planHeaderSite(s);
    else if (s.viaMacro) planMacroSite(s);
    else planProgramSite(s);
}

void CopyRules::planProgramSite(FunctionSite& s) const {
    auto fail = [&](const std::string& why) {
        s.ok = false;
        s.problem = "its copies cannot be compiled as it is: " + why;
    };
    extendOverStrayTokens(s);
    std::set<std::string> defined;
    std::string problem = checkDirectives(lexed_, s, defined);
    if (problem.empty()) problem = checkPositions(lexed_.identifiersIn(s.start, s.end), false, s.start);
    if (!problem.empty()) return fail(problem);
    s.copyLine = presumedLine(s.start);
    s.resumeLine = presumedLine(s.insertAt);
    if (!s.copyLine || !s.resumeLine)
        return fail("a #line directive under #if, with a computed number or over several lines stands before it");
    s.restore.clear();
    for (const std::string& macro : defined) {
        const State st = stateBefore(s.start, macro);
        if (!st.known) return fail("it #defines or #undefs " + macro + ", whose state before it is not known: " + st.why);
        s.restore += "#undef " + macro + "\n";
        if (st.defined) s.restore += st.definition + "\n";
    }
}

void CopyRules::planHeaderSite(FunctionSite& s) const {
    auto fail = [&](const std::string& why) {
        s.ok = false;
        s.problem = "its copy after the #include line cannot be compiled as it is: " + why;
    };
    auto found = headers_.find(s.file);
    if (found == headers_.end()) return fail("header " + s.file + " was not read");
    const File& f = found->second;
    std::set<std::string> defined;
    std::string problem = checkDirectives(f.lexed, s, defined);
    if (problem.empty() && !defined.empty()) problem = "it #defines or #undefs " + *defined.begin();
    if (problem.empty()) problem = checkPositions(f.lexed.identifiersIn(s.start, s.end), true, 0);
    if (problem.empty() && overloadable_)
        problem = "the program has overloadable functions, and later overloads in the header would be seen";
    // The copy stands where the header has ended: whatever the header (and the headers that
    // included it) do after the function must leave the preprocessor state as it was.
    auto after = [&](const std::string& file, const Lexed& lexed, size_t from) -> std::string {
        for (const Directive& d : lexed.directives) {
            if (d.begin < from) continue;
            if (isConditional(d.name) || d.name.empty() || d.name == "error" || d.name == "warning" ||
                (d.name == "pragma" && d.rest == "once"))
                continue;
            return "header " + file + " changes the preprocessor state after " + s.name + " (" + describe(d, lexed) + ")";
        }
        return {};
    };
    if (problem.empty()) problem = after(s.file, f.lexed, s.end);
    auto chain = chains_.find(s.file);
    if (problem.empty() && chain == chains_.end()) problem = "how the header is included is not known";
    if (problem.empty())
        for (const auto& [includer, at] : chain->second) {
            if (includer.empty()) break;  // the program: the copy stands right after its #include
            auto h = headers_.find(includer);
            if (h == headers_.end()) {
                problem = "header " + includer + " was not read";
                break;
            }
            problem = after(includer, h->second.lexed, at + 1);
            if (!problem.empty()) break;
        }
    if (!problem.empty()) return fail(problem);
    s.copyLine = f.lexed.lineOf(s.start);  // the header's line (for diagnostics; __LINE__ is refused above)
    s.resumeLine = presumedLine(s.insertAt);
    if (!s.resumeLine) return fail("a #line directive under #if, with a computed number or over several lines stands before it");
}

void CopyRules::planMacroSite(FunctionSite& s) const {
    auto fail = [&](const std::string& why) {
        s.ok = false;
        s.problem = "its copies cannot be compiled as it is: " + why;
    };
    if (!lexed_.directivesIn(s.invocationStart, s.invocationEnd).empty())
        return fail("directives inside the invocation of " + s.macroName);
    const Directive* definition = nullptr;
    for (const Directive& d : lexed_.directives) {
        if ((d.name != "define" && d.name != "undef") || d.macro != s.macroName) continue;
        if (d.name == "define" && d.begin <= s.definitionStart && s.definitionStart < d.end) definition = &d;
        else return fail(s.macroName + " is defined or undefined more than once");
    }
    if (!definition) return fail("the #define of " + s.macroName + " was not found");
    if (definition->depth > 0) return fail(s.macroName + " is defined under #if");
    if (headerMacros_.count(s.macroName) || !optionMacroNamed({s.macroName}).empty())
        return fail(s.macroName + " is also defined by a header or an option");
    std::vector<std::string> ids = lexed_.identifiersIn(s.invocationStart, s.invocationEnd);
    for (const std::string& id : lexed_.identifiersIn(definition->begin, definition->end)) ids.push_back(id);
    if (auto problem = checkPositions(ids, false, s.invocationStart); !problem.empty()) return fail(problem);
    s.copyLine = presumedLine(s.definitionStart);
    s.invocationLine = presumedLine(s.invocationStart);
    s.resumeLine = presumedLine(s.insertAt);
    if (!s.copyLine || !s.invocationLine || !s.resumeLine)
        return fail("a #line directive under #if, with a computed number or over several lines stands before it");
}

std::string CopyRules::macroNamed(const std::set<std::string>& names) const {
    auto inDirectives = [&](const Lexed& lexed) -> std::string {
        for (const Directive& d : lexed.directives)
            if ((d.name == "define" || d.name == "undef") && names.count(d.macro)) return d.macro;
        return {};
    };
    if (auto n = inDirectives(lexed_); !n.empty()) return n;
    for (const auto& [name, f] : headers_)
        if (auto n = inDirectives(f.lexed); !n.empty()) return n;
    return optionMacroNamed(names);
}

std::string CopyRules::optionMacroNamed(const std::set<std::string>& names) const {
    for (const auto& [name, definition] : options_)
        if (names.count(name)) return name;
    return {};
}

}  // namespace hetero::transform::detail
