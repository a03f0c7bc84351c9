#include "options.hpp"

namespace hetero::transform::detail {

std::vector<std::string> splitOptions(const std::string& options) {
    std::vector<std::string> out;
    std::string cur;
    bool have = false;
    char quote = 0;
    for (char c : options) {
        if (quote) {
            if (c == quote) quote = 0;
            else cur += c;
        } else if (c == '"' || c == '\'') {
            quote = c;
            have = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (have) out.push_back(cur);
            cur.clear();
            have = false;
        } else {
            cur += c;
            have = true;
        }
    }
    if (have) out.push_back(cur);
    return out;
}

namespace {

// -cl-* options clang understands and that can change the preprocessed source (e.g. __FAST_RELAXED_MATH__).
const char* const kPassedClFlags[] = {
    "-cl-fast-relaxed-math", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-finite-math-only",
    "-cl-unsafe-math-optimizations", "-cl-denorms-are-zero", "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt", "-cl-uniform-work-group-size", "-cl-opt-disable",
};

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

ClangOptions translateOptions(const std::string& options) {
    ClangOptions r;
    const auto words = splitOptions(options);
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "-D" || w == "-U" || w == "-I") {  // separate-argument forms
            if (i + 1 < words.size()) {
                r.args.push_back(w + words[i + 1]);
                ++i;
            }
        } else if (startsWith(w, "-D") || startsWith(w, "-U") || startsWith(w, "-I")) {
            r.args.push_back(w);
        } else if (startsWith(w, "-cl-std=")) {
            r.clStd = w.substr(8);
            if (r.clStd != "CL1.0" && r.clStd != "CL1.1" && r.clStd != "CL1.2" && r.clStd != "CL2.0" &&
                r.clStd != "CL3.0") {
                r.unsupported = true;
                r.unsupportedReason = "build option " + w + " is not OpenCL C 1.x/2.0/3.0";
            }
        } else if (w == "-w") {  // not -Werror: our parse's warnings differ from the backend's
            r.args.push_back(w);
        } else {
            bool passed = false;
            for (const char* f : kPassedClFlags) {
                if (w == f) {
                    r.args.push_back(w);
                    passed = true;
                }
            }
            if (!passed) r.ignored.push_back(w);
        }
    }
    return r;
}

}  // namespace hetero::transform::detail
