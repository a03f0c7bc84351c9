// hetero-transform: prints what Hetero's transform makes of an OpenCL C program — per kernel the
// analysis (why a kernel is or is not split) and the generated chunk/abort variants.
#include "analyzer.hpp"
#include "parse.hpp"
#include "transform/transform.hpp"
#include "variants.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace hetero::transform;

namespace {

const char* spaceName(AddressSpace s) {
    switch (s) {
    case AddressSpace::Global: return "global";
    case AddressSpace::Constant: return "constant";
    case AddressSpace::Local: return "local";
    default: return "private";
    }
}

void printAnalysis(const KernelAnalysis& k, std::ostream& out) {
    out << "kernel " << k.name << ": " << (k.splittable ? "splittable" : "NOT splittable: " + k.reason) << "\n";
    for (size_t i = 0; i < k.params.size(); ++i) {
        const ParamInfo& p = k.params[i];
        out << "  arg " << i << " " << p.name << " : " << p.typeSpelling;
        if (p.isPointer) {
            out << " [" << spaceName(p.addressSpace) << (p.pointeeConst ? " const" : "")
                << (p.isRestrict ? " restrict" : "") << ", element " << p.elementSize << " B"
                << (p.mayRead ? ", read" : "") << (p.mayWrite ? ", written" : "");
            if (!p.storeSizes.empty()) {
                out << ", stores of";
                for (size_t s : p.storeSizes) out << " " << s;
                out << " B";
            }
            out << "]";
        }
        if (p.isImage) out << " [image]";
        if (p.isSampler) out << " [sampler]";
        out << "\n";
    }
    out << "  uses:";
    const std::pair<bool, const char*> flags[] = {
        {k.usesGlobalAtomics, "global-atomics"}, {k.usesLocalAtomics, "local-atomics"},
        {k.usesBarrier, "barrier"},              {k.usesLocalMemory, "local-memory"},
        {k.usesPrintf, "printf"},                {k.usesImages, "images"},
        {k.usesProgramScopeVariables, "program-scope-variables"},
        {k.storesBeforeLoopEnds, "stores-inside-loops"}};
    bool any = false;
    for (auto& [on, name] : flags)
        if (on) {
            out << " " << name;
            any = true;
        }
    out << (any ? "\n" : " nothing special\n");
}

int usage() {
    std::cerr << "usage: hetero-transform [--kernel K] [--options \"...\"] [--analysis|--chunk|--abort|--all|--source] "
                 "file.cl...\n"
                 "  --analysis  per-kernel analysis (default)\n"
                 "  --chunk     the CPU chunk variant of each splittable kernel (with rewritten helpers)\n"
                 "  --abort     the GPU abortable variant of each splittable kernel\n"
                 "  --all       analysis and both variants\n"
                 "  --source    the whole rewritten program as the backends compile it\n"
                 "Several files are concatenated as clCreateProgramWithSource does.\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string kernel, options, mode = "--analysis";
    std::vector<std::string> sources;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--kernel" && i + 1 < argc) kernel = argv[++i];
        else if (a == "--options" && i + 1 < argc) options = argv[++i];
        else if (a == "--analysis" || a == "--chunk" || a == "--abort" || a == "--all" || a == "--source") mode = a;
        else if (a == "-h" || a == "--help") return usage();
        else if (!a.empty() && a[0] == '-') return usage();
        else {
            std::ifstream in(a, std::ios::binary);
            if (!in) {
                std::cerr << "hetero-transform: cannot read " << a << "\n";
                return 1;
            }
            std::stringstream ss;
            ss << in.rdbuf();
            sources.push_back(ss.str());
        }
    }
    if (sources.empty()) return usage();

    auto program = detail::parseProgram(sources, options);
    const detail::ProgramModel model = detail::analyzeProgram(*program);
    const ProgramAnalysis& analysis = model.analysis;
    if (!kernel.empty() && !analysis.find(kernel)) {
        std::cerr << "hetero-transform: no kernel named " << kernel << "\n" << analysis.log;
        return 1;
    }
    if (mode == "--source") {  // exactly what the engine gets, re-parse check included
        const Variants v = makeVariants(sources, options, analysis);
        std::cout << v.source;
        std::cerr << v.log;
        return 0;
    }
    if (!analysis.parsed) std::cout << "program did not parse cleanly:\n" << program->log;
    for (const auto& k : analysis.kernels) {
        if (!kernel.empty() && k.name != kernel) continue;
        if (mode == "--analysis" || mode == "--all") printAnalysis(k, std::cout);
        if (!k.splittable) {
            if (mode == "--chunk" || mode == "--abort")
                std::cout << "// kernel " << k.name << " is not splittable: " << k.reason << "\n";
            continue;
        }
        if (mode == "--chunk" || mode == "--all")
            std::cout << "// ---- chunk variant of " << k.name << " (runs on the CPU)\n"
                      << detail::chunkKernelText(*program, model, k.name) << "\n";
        if (mode == "--abort" || mode == "--all")
            std::cout << "// ---- abortable variant of " << k.name << " (runs on the GPU)\n"
                      << detail::abortKernelText(*program, model, k.name) << "\n";
    }
    return 0;
}
