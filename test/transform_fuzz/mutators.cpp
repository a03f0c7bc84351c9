#include "mutators.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

namespace fuzz {

namespace {

size_t below(Rng& rng, size_t n) { return n ? std::uniform_int_distribution<size_t>(0, n - 1)(rng) : 0; }
size_t between(Rng& rng, size_t lo, size_t hi) { return std::uniform_int_distribution<size_t>(lo, hi)(rng); }
bool chance(Rng& rng, double p) { return std::bernoulli_distribution(p)(rng); }
template <typename T>
const T& oneOf(Rng& rng, const std::vector<T>& v) { return v[below(rng, v.size())]; }

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

// Where code can be inserted, found by a rough scan of the text (comments, string and character
// literals and line continuations skipped; good enough for the corpus, and a wrong guess only
// makes a mutant invalid).
struct Places {
    std::vector<size_t> topLevelLines;  // starts of lines outside every brace and comment
    std::vector<size_t> bodyOpenings;   // just after a '{' inside a function body or deeper
    std::vector<size_t> assignments;    // just after an '=' (or op=) inside a body
    std::vector<size_t> statements;     // just after a ';' or '{' inside a body (a statement may start)
    std::vector<size_t> comments;       // inside a comment
};

Places scan(const std::string& t) {
    Places p;
    int depth = 0;
    bool lineStart = true, directive = false;
    for (size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (lineStart && depth == 0) p.topLevelLines.push_back(i);
        lineStart = false;
        if (c == '\n') {
            lineStart = i == 0 || t[i - 1] != '\\';
            if (lineStart) directive = false;
            continue;
        }
        if (c == '#' && !directive) {
            size_t b = i;
            while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t')) --b;
            if (b == 0 || t[b - 1] == '\n') directive = true;
        }
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
            size_t e = t.find('\n', i);
            if (e == std::string::npos) e = t.size();
            p.comments.push_back(i + 2);
            i = e - 1;
            continue;
        }
        if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
            size_t e = t.find("*/", i + 2);
            if (e == std::string::npos) return p;
            p.comments.push_back(i + 2);
            i = e + 1;
            continue;
        }
        if (c == '"' || c == '\'') {
            size_t j = i + 1;
            while (j < t.size() && t[j] != c && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
            i = j;
            continue;
        }
        if (directive) continue;
        if (c == '{') {
            ++depth;
            p.bodyOpenings.push_back(i + 1);
            p.statements.push_back(i + 1);
        } else if (c == '}') {
            depth = std::max(0, depth - 1);
        } else if (c == ';' && depth > 0) {
            p.statements.push_back(i + 1);
        } else if (c == '=' && depth > 0 && i + 1 < t.size() && t[i + 1] != '=' && i > 0 &&
                   std::string("=!<>").find(t[i - 1]) == std::string::npos) {
            p.assignments.push_back(i + 1);
        }
    }
    return p;
}

size_t placeIn(Rng& rng, const std::vector<size_t>& v, size_t fallback) { return v.empty() ? fallback : oneOf(rng, v); }

void insertAt(std::string& t, size_t at, const std::string& s) { t.insert(std::min(at, t.size()), s); }

// --- mutations valid programs survive (also used by the hostile mix) ---

void deepParens(std::string& t, Rng& rng, size_t maxDepth, std::string& what) {
    const Places p = scan(t);
    const size_t d = between(rng, 1, maxDepth);
    insertAt(t, placeIn(rng, p.assignments, below(rng, t.size() + 1)), " " + repeat("(", d) + "0" + repeat(")", d) + "+");
    what += " parens" + std::to_string(d);
}

void deepBraces(std::string& t, Rng& rng, size_t maxDepth, std::string& what) {
    const Places p = scan(t);
    const size_t d = between(rng, 1, maxDepth);
    insertAt(t, placeIn(rng, p.statements, below(rng, t.size() + 1)), repeat("{", d) + repeat("}", d));
    what += " braces" + std::to_string(d);
}

void deepIfStatements(std::string& t, Rng& rng, size_t maxDepth, std::string& what) {
    // if (1) if (1) ... ; : nesting without brackets, as deep as the parser lets it go.
    const Places p = scan(t);
    const size_t d = between(rng, 1, maxDepth);
    insertAt(t, placeIn(rng, p.statements, below(rng, t.size() + 1)), repeat("if (1) ", d) + ";");
    what += " if-chain" + std::to_string(d);
}

void longSum(std::string& t, Rng& rng, size_t maxTerms, std::string& what) {
    // 0+0+...+expr: a left-deep expression tree without any bracket.
    const Places p = scan(t);
    const size_t n = between(rng, 1, maxTerms);
    insertAt(t, placeIn(rng, p.assignments, below(rng, t.size() + 1)), " " + repeat("0+", n));
    what += " sum" + std::to_string(n);
}

void deepIfDirectives(std::string& t, Rng& rng, size_t maxDepth, bool balanced, std::string& what) {
    const Places p = scan(t);
    const size_t d = between(rng, 1, maxDepth);
    const size_t a = placeIn(rng, p.topLevelLines, 0);
    size_t b = placeIn(rng, p.topLevelLines, t.size());
    const bool inside = a <= b;
    if (balanced) {
        if (!inside) b = t.size();
        std::string close = repeat("#endif\n", d);
        if (b == t.size() && !t.empty() && t.back() != '\n') close = "\n" + close;
        insertAt(t, std::max(a, b), close);
        insertAt(t, std::min(a, b), repeat(chance(rng, 0.5) ? "#if 1\n" : "#ifndef HETERO_FUZZ_NEVER\n", d));
    } else {
        insertAt(t, a, repeat(chance(rng, 0.5) ? "#if 1\n" : "#else\n", d));
    }
    what += std::string(balanced ? " if-directives" : " unbalanced-if") + std::to_string(d);
}

void hugeUnusedMacro(std::string& t, Rng& rng, std::string& what) {
    const Places p = scan(t);
    const size_t n = between(rng, 1, 50000);
    std::string def = "#define HETERO_FUZZ_HUGE " + repeat("x + ", n) + "x\n";
    if (chance(rng, 0.5)) {
        // Exponential expansion, bounded: L_k expands to two L_{k-1}, 2^k tokens when used.
        const size_t k = between(rng, 1, 14);
        def += "#define HETERO_FUZZ_L0 1\n";
        for (size_t i = 1; i <= k; ++i)
            def += "#define HETERO_FUZZ_L" + std::to_string(i) + " (HETERO_FUZZ_L" + std::to_string(i - 1) +
                   " + HETERO_FUZZ_L" + std::to_string(i - 1) + ")\n";
        def += "#define HETERO_FUZZ_EXP HETERO_FUZZ_L" + std::to_string(k) + "\n";
        what += " exp-macro" + std::to_string(k);
    }
    insertAt(t, placeIn(rng, p.topLevelLines, 0), def);
    what += " huge-macro" + std::to_string(n);
}

void selfReferentialMacros(std::string& t, Rng& rng, std::string& what) {
    // Valid C: a macro never expands inside its own expansion. Some of these names are ones the
    // transform's copies define or use (see transform/README.md), which must make it refuse, not break.
    static const std::vector<std::string> defs = {
        "#define get_global_id(x) get_global_id(x)\n",
        "#define get_group_id(x) (get_group_id(x))\n",
        "#define get_local_id get_local_id\n",
        "#define barrier(f) barrier(f)\n",
        "#define HF_A HF_B\n#define HF_B HF_A\n",
        "#define HF_F(x) HF_G(x)\n#define HF_G(x) HF_F(x)\n",
        "#define int int\n",
        "#define float float\n",
        "#define __kernel __kernel\n",
        "#define kernel kernel\n",
        "#define __global __global\n",
        "#define size_t size_t\n",
        "#define return return\n",
        "#define for for\n",
    };
    const Places p = scan(t);
    const size_t n = between(rng, 1, 3);
    std::string s;
    for (size_t i = 0; i < n; ++i) s += oneOf(rng, defs);
    insertAt(t, placeIn(rng, p.topLevelLines, 0), s);
    what += " self-macros";
}

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void renameWord(std::string& t, const std::string& from, const std::string& to) {
    std::string out;
    for (size_t i = 0; i < t.size();) {
        if (t.compare(i, from.size(), from) == 0 && (i == 0 || !isIdent(t[i - 1])) &&
            (i + from.size() >= t.size() || !isIdent(t[i + from.size()]))) {
            out += to;
            i += from.size();
        } else {
            out += t[i++];
        }
    }
    t.swap(out);
}

void longIdentifier(std::string& t, Rng& rng, const std::vector<std::string>& names, std::string& what) {
    if (names.empty()) return;
    const std::string& from = oneOf(rng, names);
    // At most about 2 MB more text: a word used thousands of times gets a shorter suffix.
    size_t uses = 0;
    for (size_t i = t.find(from); i != std::string::npos; i = t.find(from, i + from.size())) ++uses;
    const size_t n = between(rng, 1, std::max<size_t>(1, std::min<size_t>(20000, 2000000 / std::max<size_t>(1, uses))));
    renameWord(t, from, from + "_" + repeat("x", n));
    what += " long-name(" + from + ")" + std::to_string(n);
}

void topLevelDirective(std::string& t, Rng& rng, bool validOnly, std::string& what) {
    static const std::vector<std::string> valid = {
        "#line 1\n", "#line 7\n", "#line 100000\n", "#line 2147483647\n", "#line 40 \"fuzz.cl\"\n",
        "#line 3 \"a\\\\b.cl\"\n",
        "#pragma OPENCL FP_CONTRACT ON\n", "#pragma OPENCL FP_CONTRACT OFF\n",
        "#pragma OPENCL EXTENSION all : disable\n", "#pragma unknown_fuzz_pragma\n",
        "#pragma clang diagnostic ignored \"-Wall\"\n", "#pragma message(\"fuzz\")\n",
        "#pragma push_macro(\"HF\")\n#pragma pop_macro(\"HF\")\n", "_Pragma(\"OPENCL FP_CONTRACT ON\")\n",
        "/* a comment */\n", "// a comment \\\n continued\n", "\f\n", "\v\n", "#\n", "#ident \"x\"\n",
        "#if 0\n'unbalanced \"quote\n#endif\n", "#if 0\n#include \"missing_fuzz.h\"\n#bogus\n#endif\n",
        "#define HF_EMPTY\n", "#undef HF_NEVER_DEFINED\n",
    };
    static const std::vector<std::string> hostile = {
        "#line 0\n", "#line 2147483648\n", "#line 4294967295\n", "#line 4294967296\n",
        "#line 99999999999999999999999999\n", "#line -1\n", "#line 0x10\n", "#line 077\n", "#line\n",
        "#line __LINE__\n", "#line HF_UNDEFINED\n", "#line 5 \"unterminated\n", "#line 5 \"f\" 3\n",
        "# 33 \"marker.cl\" 1 3 4\n", "# 4294967295 \"m.cl\"\n", "#line 1 __FILE__\n",
        "#include \"missing_fuzz.h\"\n", "#include <missing_fuzz.h>\n", "#include\n", "#include HF_NOPE\n",
        "#include \"\"\n", "#include \"/\"\n", "#include_next <x.h>\n", "#import \"x.h\"\n",
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n", "#pragma OPENCL EXTENSION all : enable\n",
        "#pragma GCC poison get_global_id\n", "#pragma GCC system_header\n",
        "#pragma clang diagnostic error \"-Weverything\"\n", "#pragma once\n", "#pragma pop_macro(\"get_global_id\")\n",
        "#pragma STDC FP_CONTRACT OFF\n", "#pragma clang fp contract(fast)\n", "#pragma unroll\n",
        "#error fuzz\n", "#warning fuzz\n", "#if\n", "#elif 1\n", "#endif\n", "#else\n", "#ifdef\n",
        "#define\n", "#define 1 2\n", "#define __LINE__ 3\n", "#undef __FILE__\n", "#define defined\n",
        "#define get_group_id(x) 0\n", "#define __hetero_status 1\n", "_Pragma(\n", "_Pragma(\"unroll\")\n",
        "#assert x\n", "#sccs \"x\"\n", "?\?=define HF 1\n",
    };
    const Places p = scan(t);
    const std::string& d = validOnly || chance(rng, 0.3) ? oneOf(rng, valid) : oneOf(rng, hostile);
    insertAt(t, placeIn(rng, p.topLevelLines, 0), d);
    std::string shown = d.substr(0, d.find('\n'));
    what += " directive[" + shown + "]";
}

void bodyPragma(std::string& t, Rng& rng, bool validOnly, std::string& what) {
    static const std::vector<std::string> valid = {
        "\n#pragma unroll\n", "\n#pragma unroll 4\n", "\n#pragma nounroll\n", "\n#pragma clang loop unroll(disable)\n",
        "\n#pragma OPENCL FP_CONTRACT OFF\n", "\n#pragma clang fp contract(on)\n", "\n_Pragma(\"unroll\")\n",
        "\n#line 12\n", "\n#define HF_LOCAL 1\n#undef HF_LOCAL\n", "\n#if 1\n#endif\n",
    };
    static const std::vector<std::string> hostile = {
        "\n#pragma unroll 0\n", "\n#pragma unroll 4294967296\n", "\n#pragma unroll -1\n",
        "\n#pragma clang loop unroll_count(99999999999)\n", "\n#pragma clang loop vectorize_width(0)\n",
        "\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n", "\n#pragma push_macro(\"get_global_id\")\n",
        "\n#include \"missing_fuzz.h\"\n", "\n#line 0\n", "\n#line 99999999999999999999\n",
        "\n#define get_global_id(x) 0\n", "\n#undef get_global_id\n", "\n#if 1\n", "\n#endif\n",
        "\n#else\n", "\n#elif\n", "\n_Pragma(\"clang loop unroll(full)\")\n", "\n#pragma\n",
    };
    const Places p = scan(t);
    const std::string& d = validOnly ? oneOf(rng, valid) : oneOf(rng, chance(rng, 0.4) ? valid : hostile);
    insertAt(t, placeIn(rng, p.statements, below(rng, t.size() + 1)), d);
    what += " body-directive[" + d.substr(1, d.find('\n', 1) - 1) + "]";
}

void lineEndings(std::string& t, Rng& rng, std::string& what) {
    static const std::vector<std::string> ends = {"\r\n", "\r", "\n\f", "\n\v", " \t\n"};
    const std::string& e = oneOf(rng, ends);
    std::string out;
    for (char c : t) {
        if (c == '\n') out += e;
        else out += c;
    }
    t.swap(out);
    what += " line-endings";
}

void lineSplices(std::string& t, Rng& rng, std::string& what) {
    // Backslash-newline anywhere outside a // comment's end joins back to the same text.
    const size_t n = between(rng, 1, 50);
    for (size_t i = 0; i < n && !t.empty(); ++i) {
        const size_t at = below(rng, t.size());
        if (at > 0 && (t[at - 1] == '\\' || t[at - 1] == '?')) continue;
        insertAt(t, at, "\\\n");
    }
    what += " splices" + std::to_string(n);
}

void comments(std::string& t, Rng& rng, std::string& what) {
    const Places p = scan(t);
    const size_t n = between(rng, 1, 20);
    for (size_t i = 0; i < n; ++i)
        insertAt(t, placeIn(rng, scan(t).statements, 0), chance(rng, 0.5) ? "/* c */" : "// c\n");
    (void)p;
    what += " comments" + std::to_string(n);
}

void byteOrderMark(std::string& t, std::string& what) {
    t.insert(0, "\xEF\xBB\xBF");
    what += " bom";
}

// --- hostile only ---

void truncate(std::string& t, Rng& rng, std::string& what) {
    const size_t at = below(rng, t.size() + 1);
    t.resize(at);
    what += " truncate@" + std::to_string(at);
}

void byteFlips(std::string& t, Rng& rng, std::string& what) {
    static const std::string interesting = std::string("{}()[];#\"'/*\\\n\r\t ?:,.<>=!&|^~%+-0123456789aZ_") +
                                           std::string(1, '\0') + "\x7f\x80\xc3\xff";
    if (t.empty()) return;
    const size_t n = between(rng, 1, 16);
    for (size_t i = 0; i < n; ++i) {
        const size_t at = below(rng, t.size());
        t[at] = chance(rng, 0.8) ? interesting[below(rng, interesting.size())] : static_cast<char>(below(rng, 256));
    }
    what += " flips" + std::to_string(n);
}

void unbalanced(std::string& t, Rng& rng, std::string& what) {
    static const std::vector<std::string> pieces = {"/*", "*/", "\"", "'", "//\\", "(", ")", "{", "}", "[", "]",
                                                    "<", "\\", "R\"(", "u8'", "#", "##", "?\?/", "L\"", "'''"};
    const std::string& s = oneOf(rng, pieces);
    insertAt(t, below(rng, t.size() + 1), s);
    what += " unbalanced[" + s + "]";
}

void nulBytes(std::string& t, Rng& rng, std::string& what) {
    const size_t n = between(rng, 1, 4);
    const Places p = scan(t);
    for (size_t i = 0; i < n; ++i)
        insertAt(t, chance(rng, 0.5) ? placeIn(rng, p.comments, 0) : below(rng, t.size() + 1), std::string(1, '\0'));
    what += " nul" + std::to_string(n);
}

void invalidUtf8(std::string& t, Rng& rng, std::string& what) {
    static const std::vector<std::string> bytes = {"\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                                   "\xc3\xa9", "\xe2\x80\x8b", "\xef\xbf\xbd", "\\u00e9", "\\U0001F600"};
    insertAt(t, below(rng, t.size() + 1), oneOf(rng, bytes));
    what += " utf8";
}

void splice(std::string& t, const std::string& donor, Rng& rng, std::string& what) {
    if (donor.empty()) return;
    const size_t a = below(rng, donor.size()), n = between(rng, 1, std::min<size_t>(4000, donor.size() - a));
    insertAt(t, below(rng, t.size() + 1), donor.substr(a, n));
    what += " splice" + std::to_string(n);
}

void duplicateOrDelete(std::string& t, Rng& rng, std::string& what) {
    if (t.empty()) return;
    const size_t a = below(rng, t.size()), n = between(rng, 1, std::min<size_t>(2000, t.size() - a));
    if (chance(rng, 0.5)) {
        const std::string piece = t.substr(a, n);
        insertAt(t, below(rng, t.size() + 1), repeat(piece, between(rng, 1, 8)));
        what += " duplicate" + std::to_string(n);
    } else {
        t.erase(a, n);
        what += " delete" + std::to_string(n);
    }
}

void recursiveInclude(std::string& t, Rng& rng, std::string& what) {
    static const std::vector<std::string> incs = {"#include __FILE__\n", "#include \"hetero_program.cl\"\n",
                                                  "#include \"input.cl\"\n", "#include \".\"\n"};
    insertAt(t, placeIn(rng, scan(t).topLevelLines, 0), oneOf(rng, incs));
    what += " self-include";
}

void hostileOptions(std::string& o, Rng& rng, std::string& what) {
    static const std::vector<std::string> opts = {
        "-D X", "-DFOO=(", "-D 'a b'", "-D\"Q", "-cl-std=CL3.0", "-cl-std=CL1.0", "-cl-std=CL9.9", "-cl-std=",
        "-I", "-I /nonexistent", "-x c++", "-Werror", "-w", "-cl-fast-relaxed-math", "-cl-mad-enable",
        "-D get_group_id(x)=0", "-D __LINE__=1", "-U __OPENCL_VERSION__", "-Dint=float", "-D kernel=",
        "-cl-kernel-arg-info", "-g", "--", "-", "'", "\"", "\\", "-D" + std::string(5000, 'a'),
        "-include missing.h", "-DX=\"unterminated", "-cl-denorms-are-zero", "-cl-single-precision-constant",
        "-cl-uniform-work-group-size", "-cl-no-signed-zeros", "-D HF=1 -U HF", "-Xclang -ast-dump", "-emit-llvm",
        "-o /dev/null", "-cl-opt-disable", "-DX=1 -DX=2", "-D__hetero_launch=1", "-D \"A=B C\"",
    };
    const size_t n = between(rng, 1, 3);
    for (size_t i = 0; i < n; ++i) o += " " + oneOf(rng, opts);
    what += " options[" + o + "]";
}

std::string& someSource(Program& p, Rng& rng) {
    if (p.sources.empty()) p.sources.emplace_back();
    return p.sources[below(rng, p.sources.size())];
}

}  // namespace

Rng rngFor(uint64_t seed, uint64_t iteration) {
    std::seed_seq s{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), static_cast<uint32_t>(iteration),
                    static_cast<uint32_t>(iteration >> 32)};
    return Rng(s);
}

Program mutateHostile(const Program& base, const std::string& donor, Rng& rng, std::string& what) {
    Program p = base;
    const size_t count = between(rng, 1, 3);
    for (size_t m = 0; m < count; ++m) {
        std::string& t = someSource(p, rng);
        switch (below(rng, 24)) {
        case 0: truncate(t, rng, what); break;
        case 1: case 2: byteFlips(t, rng, what); break;
        case 3: deepParens(t, rng, chance(rng, 0.5) ? 300 : 20000, what); break;
        case 4: deepBraces(t, rng, chance(rng, 0.5) ? 300 : 20000, what); break;
        case 5: deepIfStatements(t, rng, chance(rng, 0.5) ? 300 : 8000, what); break;
        case 6: longSum(t, rng, chance(rng, 0.5) ? 1000 : 30000, what); break;
        case 7: deepIfDirectives(t, rng, chance(rng, 0.5) ? 300 : 20000, chance(rng, 0.7), what); break;
        case 8: hugeUnusedMacro(t, rng, what); break;
        case 9: selfReferentialMacros(t, rng, what); break;
        case 10: {
            // Long identifiers: any word of the program.
            std::vector<std::string> words;
            for (size_t i = 0; i < t.size();) {
                if (isIdent(t[i]) && !std::isdigit(static_cast<unsigned char>(t[i]))) {
                    size_t j = i;
                    while (j < t.size() && isIdent(t[j])) ++j;
                    words.push_back(t.substr(i, j - i));
                    i = j;
                } else {
                    ++i;
                }
            }
            longIdentifier(t, rng, words, what);
            break;
        }
        case 11: case 12: topLevelDirective(t, rng, false, what); break;
        case 13: bodyPragma(t, rng, false, what); break;
        case 14: unbalanced(t, rng, what); break;
        case 15: nulBytes(t, rng, what); break;
        case 16: invalidUtf8(t, rng, what); break;
        case 17: splice(t, donor, rng, what); break;
        case 18: duplicateOrDelete(t, rng, what); break;
        case 19: recursiveInclude(t, rng, what); break;
        case 20: lineEndings(t, rng, what); break;
        case 21: lineSplices(t, rng, what); break;
        case 22: hostileOptions(p.options, rng, what); break;
        default: byteOrderMark(t, what); break;
        }
    }
    return p;
}

Program mutateValid(const Program& base, const std::vector<std::string>& paramNames, Rng& rng, std::string& what) {
    Program p = base;
    const size_t count = between(rng, 1, 3);
    for (size_t m = 0; m < count; ++m) {
        std::string& t = p.sources.back();  // where the kernels are
        switch (below(rng, 14)) {
        case 0: deepParens(t, rng, 200, what); break;
        case 1: deepBraces(t, rng, 200, what); break;
        case 2: deepIfStatements(t, rng, 400, what); break;
        case 3: longSum(t, rng, 3000, what); break;
        case 4: deepIfDirectives(t, rng, 150, true, what); break;
        case 5: hugeUnusedMacro(t, rng, what); break;
        case 6: selfReferentialMacros(t, rng, what); break;
        case 7: longIdentifier(t, rng, paramNames, what); break;
        case 8: topLevelDirective(t, rng, true, what); break;
        case 9: bodyPragma(t, rng, true, what); break;
        case 10: lineEndings(t, rng, what); break;
        case 11: lineSplices(t, rng, what); break;
        case 12: comments(t, rng, what); break;
        default: byteOrderMark(t, what); break;
        }
    }
    return p;
}

std::string describe(const Program& p) {
    size_t total = 0;
    for (const auto& s : p.sources) total += s.size();
    return std::to_string(p.sources.size()) + " source string(s), " + std::to_string(total) + " bytes, options \"" +
           p.options.substr(0, 200) + "\"";
}

}  // namespace fuzz
