#include "variants.hpp"

#include "directives.hpp"
#include "launch_layout.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace hetero::transform::detail {

namespace {

// Definitions the generated kernels call. Placed before the application's source, which then
// restarts at line 1 so the backend's diagnostics keep the application's line numbers.
const char* const kPreamble = R"CL(/* Hetero: helpers of the generated __hetero_chunk and __hetero_abort kernels. */
/* Compiled under the application's -D options: every name of their own is reserved (__hetero_). */
/* CPU work-group splitting (FluidiCL 6.3): with L.sc = k > 1 each work-group runs as k smaller ones
   along dimension 0; the work-item functions give the original group's values. */
size_t __hetero_chunk_group_id(ulong16 __hetero_l, uint __hetero_d) {
    size_t __hetero_g = get_group_id(__hetero_d);
    if (__hetero_d == 0u && __hetero_l.sc > 1ul) __hetero_g /= (size_t)__hetero_l.sc;
    return __hetero_g + (size_t)(__hetero_d == 0u ? __hetero_l.s0 : __hetero_d == 1u ? __hetero_l.s1
                                 : __hetero_d == 2u ? __hetero_l.s2 : 0ul);
}
size_t __hetero_chunk_local_id(ulong16 __hetero_l, uint __hetero_d) {
    if (__hetero_d != 0u || __hetero_l.sc <= 1ul) return get_local_id(__hetero_d);
    return get_local_id(0) + (get_group_id(0) % (size_t)__hetero_l.sc) * get_local_size(0);
}
size_t __hetero_chunk_local_size(ulong16 __hetero_l, uint __hetero_d) {
    return get_local_size(__hetero_d) * (__hetero_d == 0u && __hetero_l.sc > 1ul ? (size_t)__hetero_l.sc : 1u);
}
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
size_t __hetero_chunk_enqueued_local_size(ulong16 __hetero_l, uint __hetero_d) {
    return get_enqueued_local_size(__hetero_d) * (__hetero_d == 0u && __hetero_l.sc > 1ul ? (size_t)__hetero_l.sc : 1u);
}
size_t __hetero_chunk_local_linear_id(ulong16 __hetero_l) {
    return (__hetero_chunk_local_id(__hetero_l, 2u) * get_local_size(1) + __hetero_chunk_local_id(__hetero_l, 1u)) *
               __hetero_chunk_local_size(__hetero_l, 0u) + __hetero_chunk_local_id(__hetero_l, 0u);
}
#endif
size_t __hetero_chunk_num_groups(ulong16 __hetero_l, uint __hetero_d) {
    return (size_t)(__hetero_d == 0u ? __hetero_l.s3 : __hetero_d == 1u ? __hetero_l.s4
                    : __hetero_d == 2u ? __hetero_l.s5 : 1ul);
}
size_t __hetero_chunk_global_size(ulong16 __hetero_l, uint __hetero_d) {
    return (size_t)(__hetero_d == 0u ? __hetero_l.s6 : __hetero_d == 1u ? __hetero_l.s7
                    : __hetero_d == 2u ? __hetero_l.s8 : 1ul);
}
size_t __hetero_chunk_global_offset(ulong16 __hetero_l, uint __hetero_d) {
    return (size_t)(__hetero_d == 0u ? __hetero_l.s9 : __hetero_d == 1u ? __hetero_l.sa
                    : __hetero_d == 2u ? __hetero_l.sb : 0ul);
}
size_t __hetero_chunk_global_linear_id(ulong16 __hetero_l) {
    return (size_t)((((ulong)get_global_id(2) - __hetero_l.sb) * __hetero_l.s7 + ((ulong)get_global_id(1) - __hetero_l.sa)) *
                        __hetero_l.s6 + ((ulong)get_global_id(0) - __hetero_l.s9));
}
/* Status word: s[0] launch id, s[1] lowest flattened work-group the CPU has completed. Read as one
   8-byte load, so both words come from the same moment. */
uint __hetero_flat_group(void) {
    return (uint)(get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2)));
}
int __hetero_abort_now(volatile __global uint* __hetero_s, uint __hetero_launch_id) {
    uint2 __hetero_st = *(volatile __global uint2*)__hetero_s;
    return __hetero_st.x == __hetero_launch_id && __hetero_flat_group() >= __hetero_st.y;
}
int __hetero_abort_cached(volatile __global uint* __hetero_s, uint __hetero_launch_id) {
    uint2 __hetero_st = *(__global const uint2*)__hetero_s;
    return __hetero_st.x == __hetero_launch_id && __hetero_flat_group() >= __hetero_st.y;
}
#line 1
)CL";

// Inside a chunk copy, these work-item functions return the original launch's values.
const char* const kChunkMacros = R"CL(#define get_group_id(d) __hetero_chunk_group_id(__hetero_L, (d))
#define get_num_groups(d) __hetero_chunk_num_groups(__hetero_L, (d))
#define get_global_size(d) __hetero_chunk_global_size(__hetero_L, (d))
#define get_global_offset(d) __hetero_chunk_global_offset(__hetero_L, (d))
#define get_global_linear_id() __hetero_chunk_global_linear_id(__hetero_L)
#define get_local_id(d) __hetero_chunk_local_id(__hetero_L, (d))
#define get_local_size(d) __hetero_chunk_local_size(__hetero_L, (d))
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
#define get_enqueued_local_size(d) __hetero_chunk_enqueued_local_size(__hetero_L, (d))
#define get_local_linear_id() __hetero_chunk_local_linear_id(__hetero_L)
#endif
)CL";
const char* const kChunkUndefs = R"CL(#undef get_group_id
#undef get_num_groups
#undef get_global_size
#undef get_global_offset
#undef get_global_linear_id
#undef get_local_id
#undef get_local_size
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 200
#undef get_enqueued_local_size
#undef get_local_linear_id
#endif
)CL";

const std::string kChunkParam = std::string("ulong16 ") + kChunkInfoParam;
// Spelled with keywords where there is a choice: the application's macros apply to the copies.
const std::string kAbortParams =
    std::string("volatile __global unsigned int* ") + kStatusParam + ", unsigned int " + kLaunchParam;
const std::string kAbortCall = std::string("__hetero_abort_now(") + kStatusParam + ", " + kLaunchParam + ")";

std::string lineDirective(size_t line) { return line ? "#line " + std::to_string(line) + "\n" : std::string(); }

// A copy of a function declaration under a new name, with extra parameters and body insertions.
// `text` is the text the site's offsets refer to (the program or a header). The copy starts with
// the site's restore directives and its original's line number, and keeps every line break of
// the original (replaced text included), so that its lines number as the original's did.
std::string copyFunction(const std::string& text, const FunctionSite& s, const std::string& newName,
                         const std::string& extraParams, std::map<size_t, std::string> bodyInserts = {}) {
    std::map<size_t, std::pair<size_t, std::string>> edits;  // offset -> (chars replaced, new text)
    const std::string newMacro = s.macroName + "__hetero_" + newName;
    if (s.viaMacro) edits[s.definitionStart] = {s.macroName.size(), newMacro};
    if (!s.viaMacro || !s.nameInArguments) edits[s.nameOffset] = {s.name.size(), newName};
    if (s.emptyParams) edits[s.openParen + 1] = {s.closeParen - s.openParen - 1, extraParams};
    else edits[s.closeParen] = {0, ", " + extraParams};
    for (auto& [at, t] : bodyInserts) edits[at] = {0, t};
    std::string out;
    size_t pos = s.start;
    for (auto& [at, e] : edits) {
        out.append(text, pos, at - pos);
        out += e.second;
        const auto replaced = text.begin() + static_cast<long>(at);
        out.append(static_cast<size_t>(std::count(replaced, replaced + static_cast<long>(e.first), '\n')), '\n');
        pos = at + e.first;
    }
    out.append(text, pos, s.end - pos);
    if (!s.isDefinition) out += ";";
    if (!s.viaMacro) return s.restore + lineDirective(s.copyLine) + out;
    // out is the edited macro; invoke it as the program does, the function's name renamed if needed.
    std::string m = s.restore + lineDirective(s.copyLine) + "#define " + out + "\n";
    if (s.nameInArguments) m += "#define " + s.name + " " + newName + "\n";
    m += lineDirective(s.invocationLine) + newMacro +
         text.substr(s.invocationStart + s.macroName.size(), s.invocationEnd - s.invocationStart - s.macroName.size()) + "\n";
    if (s.nameInArguments) m += "#undef " + s.name + "\n";
    return m + "#undef " + newMacro;
}

// Function-like macros that send calls of helpers to their chunk copies, passing the launch info on.
std::string helperMacros(const ProgramModel& model, const std::set<std::string>& usrs, bool define) {
    std::string out;
    for (const auto& usr : usrs) {
        const auto sites = model.helpers.find(usr);
        if (sites == model.helpers.end() || sites->second.empty()) continue;
        const FunctionSite& s = sites->second.front();
        if (!define) {
            out += "#undef " + s.name + "\n";
        } else if (s.emptyParams) {
            out += "#define " + s.name + "() " + s.name + kChunkSuffix + "(" + kChunkInfoParam + ")\n";
        } else {
            out += "#define " + s.name + "(...) " + s.name + kChunkSuffix + "(__VA_ARGS__, " + kChunkInfoParam + ")\n";
        }
    }
    return out;
}

std::string chunkRegion(const std::string& copy, const ProgramModel& model, const std::set<std::string>& helpers) {
    return std::string(kChunkMacros) + helperMacros(model, helpers, true) + copy + "\n" + kChunkUndefs +
           helperMacros(model, helpers, false);
}

const KernelDetail* detailOf(const ProgramModel& model, const std::string& kernel, size_t* index = nullptr) {
    for (size_t i = 0; i < model.analysis.kernels.size(); ++i)
        if (model.analysis.kernels[i].name == kernel && model.analysis.kernels[i].splittable) {
            if (index) *index = i;
            return &model.kernels[i];
        }
    return nullptr;
}

// How a work-group without barriers checks the status word at its start (HETERO_ABORT_START_CHECK):
// "cached" (default) every work-item loads it through the cache; "item" every work-item loads it
// volatile; "group" one work-item loads it volatile and a barrier shares the decision. Measured on an
// H200 against the original kernel (hetero-abort-cost): saxpy 4M +0.4 / +218 / +13 %, jacobi2d 4096
// +8 / +177 / +25 %: volatile loads of one word by every work-item serialize in L2. A cached value
// may be older, which only means skipping less; checks inside loops stay volatile. Any mix is safe:
// without barriers the work-items of a group need not agree.
}  // namespace

std::set<std::string> rewriterMacroNames() {
    std::set<std::string> names;
    for (const Directive& d : lex(kChunkMacros).directives)
        if (d.name == "define") names.insert(d.macro);
    // Used by the code inserted into abortable copies.
    names.insert({"get_local_id", "barrier", "CLK_LOCAL_MEM_FENCE"});
    return names;
}

std::set<std::string> preambleIdentifiers() {
    std::set<std::string> names;
    for (const Identifier& id : lex(kPreamble).identifiers) names.insert(id.name);
    return names;
}

std::string startCheckMode() {
    const char* e = std::getenv("HETERO_ABORT_START_CHECK");
    const std::string m = e ? e : "";
    return m == "group" || m == "item" ? m : "cached";
}

namespace {

const std::string& textOf(const ParsedProgram& program, const ProgramModel& model, const FunctionSite& s) {
    if (s.file.empty()) return program.text;
    return model.files.at(s.file);
}

std::string abortCopy(const ParsedProgram& program, const ProgramModel& model, size_t i) {
    const KernelDetail& kd = model.kernels[i];
    const KernelAnalysis& ka = model.analysis.kernels[i];
    std::map<size_t, std::string> inserts;
    std::string start;
    const std::string mode = startCheckMode();
    if (ka.usesBarrier || mode == "group") {
        // One work-item decides for the whole group, so no work-item misses a barrier.
        start = std::string(" __local unsigned int __hetero_skip; if (get_local_id(0) == 0 && get_local_id(1) == 0 && "
                            "get_local_id(2) == 0) __hetero_skip = ") +
                kAbortCall + "; barrier(CLK_LOCAL_MEM_FENCE); if (__hetero_skip) return;";
    } else {
        start = std::string(" if (") +
                (mode == "cached" ? std::string("__hetero_abort_cached(") + kStatusParam + ", " + kLaunchParam + ")"
                                  : std::string(kAbortCall)) +
                ") return;";
    }
    // H1: only loops that end before the kernel's first possible global store get checks, and only
    // without barriers (a work-item leaving a loop alone could miss one). Not in macro-made kernels.
    if (!ka.usesBarrier && !kd.loopChecks.empty() && !kd.site.viaMacro) {
        start += " unsigned int __hetero_n = 0u;";
        for (size_t at : kd.loopChecks)
            inserts[at] = std::string(" if ((++__hetero_n & 7u) == 0u && ") + kAbortCall + ") return;";
    }
    inserts[kd.site.bodyOpen] = start;
    return copyFunction(textOf(program, model, kd.site), kd.site, ka.name + kAbortSuffix, kAbortParams, inserts);
}

std::string chunkCopy(const ParsedProgram& program, const ProgramModel& model, size_t i) {
    const KernelDetail& kd = model.kernels[i];
    return copyFunction(textOf(program, model, kd.site), kd.site, model.analysis.kernels[i].name + kChunkSuffix,
                        kChunkParam);
}

size_t lineAt(const std::string& text, size_t offset) {
    return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

}  // namespace

Variants generateVariants(const ParsedProgram& program, const ProgramModel& model, const std::set<std::string>& kernels) {
    Variants v;
    // By program position, then by position in the header, so copies keep the declaration order.
    std::multimap<std::pair<size_t, size_t>, std::string> inserts;
    std::map<size_t, size_t> resumeLines;  // insertion offset -> the program's (presumed) line there
    std::set<std::string> helpers;
    for (size_t i = 0; i < model.analysis.kernels.size(); ++i) {
        const KernelAnalysis& ka = model.analysis.kernels[i];
        if (!ka.splittable || !kernels.count(ka.name)) continue;
        const KernelDetail& kd = model.kernels[i];
        helpers.insert(kd.chunkHelpers.begin(), kd.chunkHelpers.end());
        inserts.emplace(std::make_pair(kd.site.insertAt, kd.site.start), chunkRegion(chunkCopy(program, model, i), model, kd.chunkHelpers) +
                                              abortCopy(program, model, i) + "\n");
        resumeLines[kd.site.insertAt] = kd.site.resumeLine;
        v.log += "hetero transform: generated " + ka.name + kChunkSuffix + " and " + ka.name + kAbortSuffix +
                 (kd.loopChecks.empty() ? std::string(" (abort check at work-group start)")
                                        : " (abort checks at start and in " + std::to_string(kd.loopChecks.size()) +
                                              " loop(s))") +
                 "\n";
    }
    if (inserts.empty()) {
        v.source = program.text;
        return v;
    }
    for (const auto& usr : helpers) {
        auto sites = model.helpers.find(usr);
        if (sites == model.helpers.end()) continue;
        for (const FunctionSite& s : sites->second) {
            const std::string copy = copyFunction(textOf(program, model, s), s, s.name + kChunkSuffix, kChunkParam);
            // Helpers this one calls are already declared: C needs a declaration before use.
            inserts.emplace(std::make_pair(s.insertAt, s.start), chunkRegion(copy, model, helpers));
            resumeLines[s.insertAt] = s.resumeLine;
        }
    }
    v.source = kPreamble;
    size_t pos = 0;
    for (auto it = inserts.begin(); it != inserts.end();) {
        const size_t at = it->first.first;
        v.source.append(program.text, pos, at - pos);
        v.source += "\n";
        for (; it != inserts.end() && it->first.first == at; ++it) v.source += it->second;
        // The program goes on with its own line numbers (copy_rules.cpp computed them, #line included).
        const size_t line = resumeLines[at] ? resumeLines[at] : lineAt(program.text, at);
        v.source += "#line " + std::to_string(line) + "\n";
        pos = at;
    }
    v.source.append(program.text, pos, std::string::npos);
    return v;
}

std::string chunkKernelText(const ParsedProgram& program, const ProgramModel& model, const std::string& kernel) {
    size_t i = 0;
    const KernelDetail* kd = detailOf(model, kernel, &i);
    if (!kd) return {};
    std::string out;
    for (const auto& usr : kd->chunkHelpers) {
        auto sites = model.helpers.find(usr);
        if (sites == model.helpers.end()) continue;
        for (const FunctionSite& s : sites->second)
            if (s.isDefinition)
                out += chunkRegion(copyFunction(textOf(program, model, s), s, s.name + kChunkSuffix, kChunkParam), model,
                                   kd->chunkHelpers) + "\n";
    }
    return out + chunkRegion(chunkCopy(program, model, i), model, kd->chunkHelpers);
}

std::string abortKernelText(const ParsedProgram& program, const ProgramModel& model, const std::string& kernel) {
    size_t i = 0;
    if (!detailOf(model, kernel, &i)) return {};
    return abortCopy(program, model, i) + "\n";
}

}  // namespace hetero::transform::detail
