#include "parse.hpp"

#include "directives.hpp"
#include "options.hpp"

#include <dlfcn.h>
#include <glob.h>
#include <sys/stat.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <regex>

namespace hetero::transform::detail {

namespace {

std::atomic<unsigned long> gParses{0};

bool hasBaseHeader(const std::string& dir) {
    struct stat st;
    return !dir.empty() && stat((dir + "/opencl-c-base.h").c_str(), &st) == 0;
}

std::string firstGlob(const std::string& pattern) {
    glob_t g;
    std::string found;
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0 && g.gl_pathc > 0) {
        std::string p = g.gl_pathv[0];
        found = p.substr(0, p.rfind('/'));
    }
    globfree(&g);
    return found;
}

std::string findHeaderDir() {
    if (const char* env = std::getenv("HETERO_CLANG_RESOURCE_DIR")) {
        const std::string e = env;
        if (hasBaseHeader(e)) return e;
        if (hasBaseHeader(e + "/include")) return e + "/include";
    }
    // Next to the libclang actually loaded: <libdir>/clang/<version>/include.
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&clang_createIndex), &info) && info.dli_fname) {
        char real[PATH_MAX];
        if (realpath(info.dli_fname, real)) {
            std::string libDir = real;
            libDir = libDir.substr(0, libDir.rfind('/'));
            std::string d = firstGlob(libDir + "/clang/*/include/opencl-c-base.h");
            if (!d.empty()) return d;
        }
    }
    // Distribution layout by major version (Debian/Ubuntu: /usr/lib/llvm-N/lib/clang/*/include).
    CXString v = clang_getClangVersion();
    const std::string version = clang_getCString(v);
    clang_disposeString(v);
    std::smatch m;
    if (std::regex_search(version, m, std::regex("version ([0-9]+)"))) {
        std::string d = firstGlob("/usr/lib/llvm-" + m[1].str() + "/lib/clang/*/include/opencl-c-base.h");
        if (!d.empty()) return d;
    }
    if (hasBaseHeader(HETERO_CLANG_OPENCL_HEADERS)) return HETERO_CLANG_OPENCL_HEADERS;
    // Last resort: the copy PoCL ships for its own clang, which is the LLVM we link (see CMakeLists.txt).
    if (hasBaseHeader("/usr/share/pocl/include")) return "/usr/share/pocl/include";
    return {};
}

}  // namespace

const std::string& openclHeaderDir() {
    static const std::string dir = findHeaderDir();
    return dir;
}

unsigned long parseCount() { return gParses.load(); }

bool macroKernelsEnabled() {
    const char* e = std::getenv("HETERO_TRANSFORM_MACRO_KERNELS");
    return e && (std::string(e) == "on" || std::string(e) == "1");
}

ParsedProgram::~ParsedProgram() {
    if (tu) clang_disposeTranslationUnit(tu);
    if (index) clang_disposeIndex(index);
}

std::unique_ptr<ParsedProgram> parseProgram(const std::vector<std::string>& sources, const std::string& options) {
    auto p = std::make_unique<ParsedProgram>();
    for (const auto& s : sources) p->text += s;
    // Parsed as it is scanned: with line feeds only (clang reads a lone carriage return as one).
    p->text = withLineFeeds(std::move(p->text));
    p->fileName = "hetero_program.cl";
    const ClangOptions co = translateOptions(options);
    p->clStd = co.clStd;
    for (const auto& a : co.args)
        if (a.rfind("-D", 0) == 0 || a.rfind("-U", 0) == 0) p->macroOptions.push_back(a);
    if (co.unsupported) {
        p->log = "hetero transform: " + co.unsupportedReason + "\n";
        return p;
    }
    std::vector<std::string> args = {"-x", "cl", "-cl-std=" + co.clStd, "--target=spir64-unknown-unknown",
                                     "-Xclang", "-finclude-default-header", "-Xclang", "-fdeclare-opencl-builtins"};
    const std::string& headers = openclHeaderDir();
    if (!headers.empty()) {
        args.push_back("-isystem");
        args.push_back(headers);
    }
    args.insert(args.end(), co.args.begin(), co.args.end());
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());

    CXUnsavedFile unsaved{p->fileName.c_str(), p->text.data(), static_cast<unsigned long>(p->text.size())};
    ++gParses;
    CXErrorCode err;
    {
        // One parse at a time in the process: two at once (programs built from two threads) raced
        // inside libclang 15 under TSan, on what its option parsing sets up on first use
        // (llvm::opt::OptTable; docs/results/sanitizers.md). The parse is a small part of a build.
        static std::mutex parsing;
        std::lock_guard lock(parsing);
        p->index = clang_createIndex(0, 0);
        err = clang_parseTranslationUnit2(p->index, p->fileName.c_str(), argv.data(), static_cast<int>(argv.size()),
                                          &unsaved, 1,
                                          CXTranslationUnit_KeepGoing |
                                              (macroKernelsEnabled() ? CXTranslationUnit_DetailedPreprocessingRecord : 0),
                                          &p->tu);
    }
    if (err != CXError_Success || !p->tu) {
        p->log = "hetero transform: libclang could not parse the program (error " + std::to_string(err) + ")\n";
        p->tu = nullptr;
        return p;
    }
    bool errors = false;
    const unsigned n = clang_getNumDiagnostics(p->tu);
    for (unsigned i = 0; i < n; ++i) {
        CXDiagnostic d = clang_getDiagnostic(p->tu, i);
        const CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) errors = true;
        if (sev >= CXDiagnostic_Warning) {
            CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
            p->log += clang_getCString(s);
            p->log += "\n";
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
    }
    if (headers.empty()) p->log += "hetero transform: clang's OpenCL headers (opencl-c-base.h) were not found\n";
    p->ok = !errors;
    return p;
}

}  // namespace hetero::transform::detail
