// Whether a copy of a function, placed where the rewriter puts it (right after the original, or
// after the program's #include line for a function from a header), is compiled exactly as the
// original: under the same macros and with the same line numbers. Fills in what to emit before
// the copy to make it so, or says why it cannot be made so (then the kernel is not split).
#pragma once

#include "analyzer.hpp"
#include "directives.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hetero::transform::detail {

// How a header was reached: for each file on the way, innermost first, the file that includes it
// ("" for the program) and the offset of that #include directive in it.
using IncludeChain = std::vector<std::pair<std::string, size_t>>;

class CopyRules {
public:
    // program: the program's text; headers: every user header it includes (name -> text);
    // macroOptions: the -D/-U build options in order ("-DX=1", "-UY").
    CopyRules(const std::string& program, const std::map<std::string, std::string>& headers,
              std::map<std::string, IncludeChain> chains, const std::vector<std::string>& macroOptions,
              std::vector<std::pair<size_t, size_t>> topLevelExtents);

    // Checks a site whose positions siteOf() found (s.ok) and sets its restore text and line numbers,
    // possibly extending s.start over tokens before it; on failure s.ok = false with the reason.
    void plan(FunctionSite& s) const;

    // The first of `names` that the program, its headers or its build options #define or #undef.
    std::string macroNamed(const std::set<std::string>& names) const;
    // The first of `names` that the build options define or undefine.
    std::string optionMacroNamed(const std::set<std::string>& names) const;

private:
    struct State {
        bool known = false;
        bool defined = false;
        std::string definition;  // "#define ..." when defined
        std::string why;         // when !known
    };
    struct File {
        const std::string* text = nullptr;
        Lexed lexed;
    };

    const std::string& program_;
    Lexed lexed_;
    std::map<std::string, File> headers_;
    std::map<std::string, IncludeChain> chains_;
    std::vector<std::pair<std::string, std::string>> options_;  // (name, "#define ..." or "" for -U)
    std::vector<std::pair<size_t, size_t>> topLevel_;
    std::set<std::string> headerMacros_;                    // names headers #define or #undef
    std::map<std::string, std::set<std::string>> reaches_;  // macro -> special identifiers its expansion may produce
    bool unsafePragmaStrings_ = false;                      // some _Pragma("...") is not a loop hint
    bool popMacro_ = false;                                 // push_macro/pop_macro appear somewhere
    bool overloadable_ = false;                             // "overloadable" appears somewhere

    void computeReach();
    std::set<std::string> specialsReached(const std::vector<std::string>& identifiers) const;
    size_t presumedLine(size_t offset) const;  // 0: not known
    bool fileNamedBefore(size_t offset) const;  // a #line before offset names the file
    State stateBefore(size_t offset, const std::string& macro) const;
    void extendOverStrayTokens(FunctionSite& s) const;
    std::string checkDirectives(const Lexed& lexed, const FunctionSite& s, std::set<std::string>& defined) const;
    std::string checkPositions(const std::vector<std::string>& identifiers, bool inHeader, size_t at) const;
    void planProgramSite(FunctionSite& s) const;
    void planHeaderSite(FunctionSite& s) const;
    void planMacroSite(FunctionSite& s) const;
};

}  // namespace hetero::transform::detail
