// The analysis: walks each kernel (and, context-sensitively, every helper it calls) and follows
// pointers from the kernel's parameters through variables, arithmetic, casts and calls, to learn what
// each parameter's memory may be read and written through, and what else the kernel does that
// decides whether a launch may be split (docs/hazards.md, H2, H5, H6).
#include "analyzer.hpp"

#include "clang_util.hpp"
#include "sites.hpp"
#include "variants.hpp"

#include <algorithm>
#include <regex>

namespace hetero::transform::detail {

namespace {

// A pointer value's possible targets: kernel parameter indices (>= 0) or one of these.
constexpr int kPrivate = -1;  // private memory (variables, arrays)
constexpr int kLocal = -2;    // local memory
constexpr int kProgram = -3;  // a program-scope variable
constexpr int kUnknown = -4;  // not attributable (loaded from memory, made from an integer, ...)
using Roots = std::set<int>;

constexpr int kMaxCallDepth = 24;
// Statements and expressions nested deeper than this (e.g. `0+0+...+x` with thousands of terms,
// which compilers accept) make the kernel unsplittable instead of being walked: the walk recurses
// once per level, and must not run out of stack on any thread (see large_stack.hpp).
constexpr int kMaxNesting = 1000;

const char* const kWorkItemFunctions[] = {
    "get_work_dim", "get_global_size", "get_global_id", "get_local_size", "get_enqueued_local_size",
    "get_local_id", "get_num_groups", "get_group_id", "get_global_offset", "get_global_linear_id",
    "get_local_linear_id"};
// What the chunk variant redefines (variants.cpp, kChunkMacros): helpers calling these get chunk copies.
const char* const kRemapped[] = {"get_group_id", "get_num_groups", "get_global_size", "get_global_offset",
                                 "get_global_linear_id", "get_local_id", "get_local_size",
                                 "get_enqueued_local_size", "get_local_linear_id"};

bool startsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

bool isBarrierLike(const std::string& n) {
    return n == "barrier" || n == "work_group_barrier" || n == "sub_group_barrier" ||
           startsWith(n, "work_group_") || startsWith(n, "sub_group_reduce") || startsWith(n, "sub_group_scan") ||
           n == "wait_group_events" ||
           n.find("sub_group") != std::string::npos;  // sub-groups: work-items of a group act together
}

bool isKernelDecl(CXCursor fn) {
    bool hasAttr = false;
    for (CXCursor k : children(fn)) {
        const CXCursorKind kind = clang_getCursorKind(k);
        if (kind >= CXCursor_FirstAttr && kind <= CXCursor_LastAttr) hasAttr = true;
    }
    if (!hasAttr) return false;
    // clang prints the OpenCL kernel attribute with its spelling ("__kernel" or "kernel", both keywords).
    static const std::regex kernelWord("(^|[^A-Za-z0-9_])(__)?kernel([^A-Za-z0-9_]|$)");
    return std::regex_search(prettyPrinted(fn), kernelWord);
}

bool isExpressionKind(CXCursorKind k) { return clang_isExpression(k) != 0; }

std::vector<CXCursor> exprChildren(CXCursor c) {
    std::vector<CXCursor> out;
    for (CXCursor k : children(c))
        if (isExpressionKind(clang_getCursorKind(k))) out.push_back(k);
    return out;
}

CXCursor stripParens(CXCursor c) {
    while (clang_getCursorKind(c) == CXCursor_ParenExpr) {
        auto k = exprChildren(c);
        if (k.size() != 1) break;
        c = k[0];
    }
    return c;
}

bool isIntegerType(CXType t) {
    const CXTypeKind k = clang_getCanonicalType(t).kind;
    return (k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum;
}

// LLVM < 17 exposes no operator kinds and prints no expressions, so operators are told apart by
// value categories, which OpenCL makes visible in types: an lvalue's type carries its address space
// ("__global float", "__private int", "__global float *__private"), an rvalue's does not ("float",
// "__global float *"). This works inside macro expansions, where tokens would not.
bool isLvalue(CXType t) {
    const std::string s = typeSpelling(t);
    const size_t star = s.rfind('*');
    const std::string top = star == std::string::npos ? s : s.substr(star + 1);
    for (const char* as : {"__private", "__global", "__local", "__constant", "__generic"})
        if (top.find(as) != std::string::npos) return true;
    return false;
}

// A BinaryOperator whose left operand stays an lvalue is an assignment (',' too, rarely: counted as a
// write, which only over-approximates).
// A bare lvalue expression (no implicit conversion around it) is a second, structural sign, so that a
// type spelled without its address space can only make the analysis see more writes, never fewer.
bool isBareLvalueExpression(CXCursor c) {
    while (clang_getCursorKind(c) == CXCursor_ParenExpr) {
        std::vector<CXCursor> kids;
        for (CXCursor k : children(c))
            if (clang_isExpression(clang_getCursorKind(k))) kids.push_back(k);
        if (kids.size() != 1) return false;
        c = kids[0];
    }
    const CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_DeclRefExpr) {  // a variable, not an enumerator or a function
        const CXCursorKind d = clang_getCursorKind(clang_getCursorReferenced(c));
        return d == CXCursor_VarDecl || d == CXCursor_ParmDecl;
    }
    return k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr;
}

bool isAssignment(CXCursor lhs) { return isLvalue(clang_getCursorType(lhs)) || isBareLvalueExpression(lhs); }

enum class Unary { Deref, AddressOf, IncDec, Other };

Unary unaryKind(CXCursor c, CXCursor operand) {
    const CXType result = clang_getCursorType(c);
    const CXType sub = clang_getCursorType(operand);
    const bool subL = isLvalue(sub) || isBareLvalueExpression(operand), resL = isLvalue(result);
    if (!subL && resL) return Unary::Deref;
    if (subL && !resL) {
        const CXType rc = clang_getCanonicalType(result);
        if (rc.kind == CXType_Pointer &&
            clang_equalTypes(clang_getCanonicalType(clang_getPointeeType(rc)), clang_getCanonicalType(sub)))
            return Unary::AddressOf;
        return Unary::IncDec;
    }
    return Unary::Other;
}

struct Effects {
    std::vector<ParamInfo>* params = nullptr;
    std::vector<std::set<size_t>> storeSizes;
    std::vector<std::string> problems;
    bool globalAtomics = false, localAtomics = false, barrier = false, localMemory = false, printf = false;
    bool asyncCopies = false;
    bool images = false, imageWrite = false, programScope = false, unknownRead = false;
    bool storeInLoop = false, hasGoto = false, callsRemapped = false;
    size_t firstStore = SIZE_MAX;                     // kernel-body offset of the first possible global store
    std::vector<std::pair<size_t, size_t>> topLoops;  // (just after '{', loop end) of the kernel's outer loops
    std::set<std::string> chunkHelpers;
    const std::set<std::string>* userFunctions = nullptr;  // USRs of functions the program declares
    std::vector<std::string> callStack;                    // USRs of the helpers being walked
    int nesting = 0;                                       // levels of the walk now open, helpers included

    void problem(const std::string& p) {
        if (std::find(problems.begin(), problems.end(), p) == problems.end()) problems.push_back(p);
    }
};

struct Env {
    std::vector<std::pair<CXCursor, Roots>> vars;
    Roots* find(CXCursor decl) {
        for (auto& v : vars)
            if (clang_equalCursors(v.first, decl)) return &v.second;
        return nullptr;
    }
    bool add(CXCursor decl, const Roots& r) {
        Roots* e = find(decl);
        if (!e) {
            vars.emplace_back(decl, r);
            return true;
        }
        const size_t before = e->size();
        e->insert(r.begin(), r.end());
        return e->size() != before;
    }
    bool operator==(const Env& o) const {
        if (vars.size() != o.vars.size()) return false;
        for (size_t i = 0; i < vars.size(); ++i)
            if (!clang_equalCursors(vars[i].first, o.vars[i].first) || vars[i].second != o.vars[i].second)
                return false;
        return true;
    }
};

// One level of the walk, open while it lives; deeper than kMaxNesting, the kernel is refused.
class Nesting {
public:
    explicit Nesting(Effects& fx) : fx_(fx) {
        if (++fx_.nesting > kMaxNesting)
            fx_.problem("statements or expressions nest deeper than " + std::to_string(kMaxNesting) + " levels");
    }
    ~Nesting() { --fx_.nesting; }
    bool tooDeep() const { return fx_.nesting > kMaxNesting; }

private:
    Effects& fx_;
};

Roots analyzeBody(CXCursor fn, const std::vector<Roots>& bindings, Effects& fx, bool recording, int depth,
                  bool inLoop, size_t callSite, bool& callsRemapped);

class Walker {
public:
    Walker(Effects& fx, bool recording, int depth, bool inLoop, size_t callSite)
        : fx_(fx), recording_(recording), depth_(depth), inLoop_(inLoop), callSite_(callSite) {}

    Env env;
    Roots returns;
    bool callsRemapped = false;

    void visit(CXCursor c) {
        const Nesting level(fx_);
        if (level.tooDeep()) return;
        const CXCursorKind k = clang_getCursorKind(c);
        if (isExpressionKind(k)) {
            eval(c);
            return;
        }
        switch (k) {
        case CXCursor_VarDecl: varDecl(c); return;
        case CXCursor_ForStmt:
        case CXCursor_WhileStmt:
        case CXCursor_DoStmt: loop(c); return;
        case CXCursor_ReturnStmt:
            for (CXCursor e : exprChildren(c)) {
                Roots r = eval(e);
                returns.insert(r.begin(), r.end());
            }
            return;
        case CXCursor_GotoStmt:
        case CXCursor_IndirectGotoStmt: fx_.hasGoto = true; return;
        default:
            for (CXCursor child : children(c)) visit(child);
        }
    }

private:
    Effects& fx_;
    bool recording_;
    int depth_;
    bool inLoop_;
    size_t callSite_;
    int loopDepth_ = 0;

    size_t storeOffset(CXCursor c) const {
        if (callSite_ != SIZE_MAX) return callSite_;
        const unsigned off = expansionOffset(clang_getRangeStart(clang_getCursorExtent(c)));
        return off == kNoOffset ? 0 : off;
    }

    void loop(CXCursor c) {
        if (recording_ && depth_ == 0 && loopDepth_ == 0) {
            auto kids = children(c);
            if (!kids.empty()) {
                CXCursor body = clang_getCursorKind(c) == CXCursor_DoStmt ? kids.front() : kids.back();
                const CXSourceRange ext = clang_getCursorExtent(c);
                const unsigned open = literalOffset(clang_getRangeStart(clang_getCursorExtent(body)));
                const unsigned end = expansionOffset(clang_getRangeEnd(ext));
                if (clang_getCursorKind(body) == CXCursor_CompoundStmt && open != kNoOffset && end != kNoOffset)
                    fx_.topLoops.emplace_back(open + 1, end);
            }
        }
        ++loopDepth_;
        for (CXCursor child : children(c)) visit(child);
        --loopDepth_;
    }

    void varDecl(CXCursor c) {
        const CXType t = clang_getCursorType(c);
        if (clang_Cursor_getStorageClass(c) == CX_SC_OpenCLWorkGroupLocal || addressSpaceOf(t) == Space::Local)
            fx_.localMemory = true;
        const CXCursor init = clang_Cursor_getVarDeclInitializer(c);
        Roots r;
        for (CXCursor child : children(c)) {
            if (!isExpressionKind(clang_getCursorKind(child))) continue;
            Roots cr = eval(child);
            if (!clang_Cursor_isNull(init) && clang_equalCursors(child, init)) r = cr;
        }
        if (isPointer(t)) env.add(c, r);
    }

    bool isProgramScope(CXCursor decl) {
        // Variables of a function have it as their semantic parent; others belong to the program.
        // A function's static variables (OpenCL C 2.0) live as long as the program, as those do.
        if (clang_getCursorKind(decl) == CXCursor_ParmDecl) return false;
        return clang_getCursorKind(clang_getCursorSemanticParent(decl)) != CXCursor_FunctionDecl ||
               clang_Cursor_getStorageClass(decl) == CX_SC_Static;
    }

    // The split kernels run from another program than the application's (the variants' program),
    // which holds its own instance of every program-scope variable: reading one that may change
    // (written by another kernel, unsplit, in the application's program) would read the wrong one.
    void useProgramScope(CXCursor decl) {
        fx_.programScope = true;
        const CXType t = clang_getCursorType(decl);
        CXType e = t;
        while (isArray(e)) e = clang_getArrayElementType(e);
        if (addressSpaceOf(t) != Space::Constant && !clang_isConstQualifiedType(e))
            fx_.problem("uses program-scope variable " + spelling(decl) +
                        ", of which the split variants' program holds an instance of its own");
    }

    // The memory holding a variable (for '&v', 'v[i]' on arrays, 'v.f = ...').
    Roots variableLocation(CXCursor decl) {
        if (isProgramScope(decl)) {
            useProgramScope(decl);
            return {kProgram};
        }
        if (clang_Cursor_getStorageClass(decl) == CX_SC_OpenCLWorkGroupLocal ||
            addressSpaceOf(clang_getCursorType(decl)) == Space::Local)
            return {kLocal};
        return {kPrivate};
    }

    // The value of a variable used as a pointer (arrays decay to their own memory).
    Roots variableValue(CXCursor decl) {
        const CXType t = clang_getCursorType(decl);
        if (isArray(t)) return variableLocation(decl);
        if (isProgramScope(decl)) {
            useProgramScope(decl);
            return isPointer(t) ? Roots{kUnknown} : Roots{};
        }
        if (Roots* r = env.find(decl)) return *r;
        return {};
    }

    CXCursor referencedVariable(CXCursor c) {
        c = stripParens(c);
        if (clang_getCursorKind(c) != CXCursor_DeclRefExpr) return clang_getNullCursor();
        CXCursor d = clang_getCursorReferenced(c);
        const CXCursorKind k = clang_getCursorKind(d);
        return (k == CXCursor_VarDecl || k == CXCursor_ParmDecl) ? d : clang_getNullCursor();
    }

    void recordRead(const Roots& roots) {
        if (!recording_) return;
        for (int r : roots) {
            if (r >= 0) (*fx_.params)[r].mayRead = true;
            else if (r == kUnknown) fx_.unknownRead = true;
        }
    }

    void recordWrite(const Roots& roots, CXType stored, CXCursor at) {
        if (!recording_) return;
        for (int r : roots) {
            if (r >= 0) {
                (*fx_.params)[r].mayWrite = true;
                scalarSizes(stored, fx_.storeSizes[r]);
                fx_.firstStore = std::min(fx_.firstStore, storeOffset(at));
                if (inLoop_ || loopDepth_ > 0) fx_.storeInLoop = true;
            } else if (r == kUnknown) {
                fx_.problem("writes through a pointer not attributable to a kernel argument (at " +
                            describeLocation(clang_getCursorLocation(at)) + ")");
            } else if (r == kProgram) {
                fx_.problem("writes a program-scope variable (at " + describeLocation(clang_getCursorLocation(at)) +
                            ")");
            }
        }
    }

    // Memory designated by an lvalue expression; evaluates (and records reads of) its subexpressions.
    Roots location(CXCursor c) {
        const Nesting level(fx_);
        if (level.tooDeep()) return {kUnknown};
        const CXCursorKind k = clang_getCursorKind(c);
        auto kids = exprChildren(c);
        switch (k) {
        case CXCursor_ParenExpr:
        case CXCursor_UnexposedExpr:  // vector component access (.x, .s01) or a no-op cast
            if (kids.size() == 1) return location(kids[0]);
            break;
        case CXCursor_ArraySubscriptExpr: {
            if (kids.size() != 2) break;
            const bool firstIsBase = isPointer(clang_getCursorType(kids[0])) || isArray(clang_getCursorType(kids[0]));
            Roots base = eval(firstIsBase ? kids[0] : kids[1]);
            eval(firstIsBase ? kids[1] : kids[0]);
            return base;
        }
        case CXCursor_MemberRefExpr: {
            if (kids.size() != 1) break;
            if (isPointer(clang_getCursorType(kids[0]))) return eval(kids[0]);
            return location(kids[0]);
        }
        case CXCursor_UnaryOperator: {
            if (kids.size() != 1) break;
            if (unaryKind(c, kids[0]) == Unary::Deref) return eval(kids[0]);
            break;
        }
        case CXCursor_DeclRefExpr: {
            CXCursor d = clang_getCursorReferenced(c);
            const CXCursorKind dk = clang_getCursorKind(d);
            if (dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) return variableLocation(d);
            break;
        }
        default: break;
        }
        eval(c);
        return {kUnknown};
    }

    Roots readLvalue(CXCursor c) {
        Roots loc = location(c);
        recordRead(loc);
        const CXType t = clang_getCursorType(c);
        if (isPointer(t)) return {kUnknown};  // a pointer loaded from memory
        if (isArray(t)) return loc;
        return {};
    }

    Roots eval(CXCursor c) {
        const Nesting level(fx_);
        if (level.tooDeep()) return {kUnknown};
        const CXCursorKind k = clang_getCursorKind(c);
        const CXType t = clang_getCursorType(c);
        auto kids = exprChildren(c);
        switch (k) {
        case CXCursor_IntegerLiteral:
        case CXCursor_FloatingLiteral:
        case CXCursor_StringLiteral:
        case CXCursor_CharacterLiteral:
        case CXCursor_UnaryExpr:  // sizeof, alignof, vec_step: not evaluated
            return {};
        case CXCursor_DeclRefExpr: {
            CXCursor d = clang_getCursorReferenced(c);
            const CXCursorKind dk = clang_getCursorKind(d);
            if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl) return {};
            if (isProgramScope(d)) useProgramScope(d);
            return variableValue(d);
        }
        case CXCursor_ArraySubscriptExpr:
        case CXCursor_MemberRefExpr: return readLvalue(c);
        case CXCursor_UnaryOperator: {
            if (kids.size() != 1) break;
            const Unary op = unaryKind(c, kids[0]);
            if (op == Unary::Deref) return readLvalue(c);
            if (op == Unary::AddressOf) {
                CXCursor var = referencedVariable(kids[0]);
                if (!clang_Cursor_isNull(var) && isPointer(clang_getCursorType(var)))
                    env.add(var, {kUnknown});  // the pointer may now change behind our back
                return location(kids[0]);
            }
            if (op == Unary::IncDec) {
                Roots loc = location(kids[0]);
                recordRead(loc);
                recordWrite(loc, clang_getCursorType(kids[0]), c);
                CXCursor var = referencedVariable(kids[0]);
                if (isPointer(t)) return clang_Cursor_isNull(var) ? Roots{kUnknown} : variableValue(var);
                return {};
            }
            eval(kids[0]);
            return {};
        }
        case CXCursor_BinaryOperator: {
            if (kids.size() != 2) break;
            if (isAssignment(kids[0])) {
                Roots loc = location(kids[0]);
                Roots value = eval(kids[1]);
                recordWrite(loc, clang_getCursorType(kids[0]), c);
                CXCursor var = referencedVariable(kids[0]);
                if (!clang_Cursor_isNull(var) && isPointer(clang_getCursorType(var)) && !isProgramScope(var))
                    env.add(var, value);
                return value;
            }
            Roots a = eval(kids[0]);
            Roots b = eval(kids[1]);
            if (!isPointer(t)) return {};
            Roots r;
            if (isPointer(clang_getCursorType(kids[0])) || isArray(clang_getCursorType(kids[0])))
                r.insert(a.begin(), a.end());
            if (isPointer(clang_getCursorType(kids[1])) || isArray(clang_getCursorType(kids[1])))
                r.insert(b.begin(), b.end());
            return r;
        }
        case CXCursor_CompoundAssignOperator: {
            if (kids.size() != 2) break;
            Roots loc = location(kids[0]);
            eval(kids[1]);
            recordRead(loc);
            recordWrite(loc, clang_getCursorType(kids[0]), c);
            CXCursor var = referencedVariable(kids[0]);
            if (isPointer(t)) return clang_Cursor_isNull(var) ? Roots{kUnknown} : variableValue(var);
            return {};
        }
        case CXCursor_ConditionalOperator: {
            Roots r;
            for (size_t i = 0; i < kids.size(); ++i) {
                Roots x = eval(kids[i]);
                if (i > 0 || kids.size() == 2) r.insert(x.begin(), x.end());
            }
            return isPointer(t) ? r : Roots{};
        }
        case CXCursor_CallExpr: return call(c);
        case CXCursor_ParenExpr:
        case CXCursor_UnexposedExpr:
        case CXCursor_CStyleCastExpr: {
            Roots r;
            for (CXCursor kid : kids) {
                Roots x = eval(kid);
                r.insert(x.begin(), x.end());
            }
            if (isPointer(t) && kids.size() == 1) {
                const CXType from = clang_getCursorType(kids[0]);
                if (!isPointer(from) && !isArray(from) && clang_getCanonicalType(from).kind != CXType_Invalid) {
                    // An integer made into a pointer: only a null constant is harmless.
                    if (clang_getCursorKind(stripParens(kids[0])) == CXCursor_IntegerLiteral) return {};
                    if (isIntegerType(from)) return {kUnknown};
                }
            }
            return isPointer(t) || isArray(t) ? r : Roots{};
        }
        default: break;
        }
        Roots r;
        for (CXCursor kid : kids) {
            Roots x = eval(kid);
            r.insert(x.begin(), x.end());
        }
        if (isPointer(t)) return {kUnknown};
        return {};
    }

    Roots call(CXCursor c) {
        const std::string name = spelling(c);
        CXCursor callee = clang_getCursorReferenced(c);
        const int nargs = clang_Cursor_getNumArguments(c);
        std::vector<CXCursor> args;
        for (int i = 0; i < nargs; ++i) args.push_back(clang_Cursor_getArgument(c, i));
        const CXType resultType = clang_getCursorType(c);
        if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
            for (CXCursor kid : exprChildren(c)) eval(kid);
            fx_.problem("calls something other than a named function (at " +
                        describeLocation(clang_getCursorLocation(c)) + ")");
            return isPointer(resultType) ? Roots{kUnknown} : Roots{};
        }
        CXCursor def = clang_getCursorDefinition(callee);
        if (!clang_Cursor_isNull(def) && clang_getCursorKind(def) == CXCursor_FunctionDecl) {
            std::vector<Roots> argRoots;
            for (CXCursor a : args) argRoots.push_back(eval(a));
            if (isKernelDecl(def)) fx_.problem("calls kernel " + name + " as a function");
            if (depth_ >= kMaxCallDepth) {
                fx_.problem("helper calls nest deeper than " + std::to_string(kMaxCallDepth));
                return {kUnknown};
            }
            // OpenCL C has no recursion; walking it would not end before the depth limit.
            const std::string usr = take(clang_getCursorUSR(def));
            if (std::find(fx_.callStack.begin(), fx_.callStack.end(), usr) != fx_.callStack.end()) {
                fx_.problem("calls " + name + " recursively");
                return {kUnknown};
            }
            std::vector<Roots> bindings;
            const int nparams = clang_Cursor_getNumArguments(def);
            for (int i = 0; i < nparams; ++i) {
                const CXType pt = clang_getCursorType(clang_Cursor_getArgument(def, i));
                bindings.push_back(i < static_cast<int>(argRoots.size()) && isPointer(pt) ? argRoots[i] : Roots{});
            }
            bool helperRemapped = false;
            const size_t site = callSite_ != SIZE_MAX ? callSite_ : storeOffset(c);
            fx_.callStack.push_back(usr);
            Roots ret = analyzeBody(def, bindings, fx_, recording_, depth_ + 1, inLoop_ || loopDepth_ > 0, site,
                                    helperRemapped);
            fx_.callStack.pop_back();
            if (helperRemapped) {
                callsRemapped = true;
                // By name: every overload of it gets a chunk copy, as the renaming macro catches all.
                fx_.chunkHelpers.insert(name);
            }
            return isPointer(resultType) ? ret : Roots{};
        }
        // No definition: an OpenCL builtin (declared by clang) or an undefined function.
        if (fx_.userFunctions->count(take(clang_getCursorUSR(callee))))
            fx_.problem("calls " + name + ", which has no definition in the program");
        for (const char* w : kWorkItemFunctions)
            if (name == w) {
                for (const char* r : kRemapped)
                    if (name == r) callsRemapped = true;
            }
        if (name == "printf") fx_.printf = true;
        if (startsWith(name, "enqueue_") || startsWith(name, "get_kernel_"))
            fx_.problem("uses device-side enqueue (" + name + ")");
        if (name.find("_pipe") != std::string::npos)
            fx_.problem("uses pipes (" + name + ")");
        if (isBarrierLike(name)) fx_.barrier = true;
        if (startsWith(name, "async_work_group")) fx_.asyncCopies = true;
        if (startsWith(name, "write_image")) fx_.imageWrite = true;
        if (startsWith(name, "read_image") || startsWith(name, "get_image")) fx_.images = true;
        const bool atomic = startsWith(name, "atom");
        Roots pointerArgs;
        for (CXCursor a : args) {
            Roots r = eval(a);
            const CXType at = clang_getCursorType(a);
            if (!isPointer(at)) continue;
            pointerArgs.insert(r.begin(), r.end());
            const CXType pointee = clang_getPointeeType(clang_getCanonicalType(at));
            if (atomic && recording_) {
                for (int x : r) {
                    if (x == kLocal) fx_.localAtomics = true;
                    else if (x >= 0 || x == kUnknown || x == kProgram) fx_.globalAtomics = true;
                }
            }
            if (clang_isConstQualifiedType(pointee)) {
                recordRead(r);
            } else {
                if (!startsWith(name, "vstore")) recordRead(r);
                recordWrite(r, pointee, c);
            }
        }
        if (!isPointer(resultType)) return {};
        if (name == "to_global" || name == "to_local" || name == "to_private") return pointerArgs;
        return {kUnknown};
    }
};

Roots analyzeBody(CXCursor fn, const std::vector<Roots>& bindings, Effects& fx, bool recording, int depth,
                  bool inLoop, size_t callSite, bool& callsRemapped) {
    CXCursor body = clang_getNullCursor();
    for (CXCursor k : children(fn))
        if (clang_getCursorKind(k) == CXCursor_CompoundStmt) body = k;
    if (clang_Cursor_isNull(body)) return {kUnknown};
    Env env;
    const int nparams = clang_Cursor_getNumArguments(fn);
    for (int i = 0; i < nparams && i < static_cast<int>(bindings.size()); ++i)
        env.add(clang_Cursor_getArgument(fn, i), bindings[i]);
    // Flow-insensitive: iterate until every pointer variable's possible targets are known.
    for (int iter = 0; iter < 16; ++iter) {
        Walker w(fx, false, depth, inLoop, callSite);
        w.env = env;
        w.visit(body);
        if (w.env == env) break;
        env = w.env;
    }
    Walker w(fx, recording, depth, inLoop, callSite);
    w.env = env;
    w.visit(body);
    callsRemapped = w.callsRemapped;
    return w.returns;
}

std::string stripPrivateQualifier(std::string s) {
    const std::string q = "__private";  // the parameter variable's own address space, not the argument's
    if (s.size() >= q.size() && s.compare(s.size() - q.size(), q.size(), q) == 0) {
        s.resize(s.size() - q.size());
        while (!s.empty() && s.back() == ' ') s.pop_back();
    }
    if (s.rfind("__private ", 0) == 0) s = s.substr(10);
    return s;
}

}  // namespace


ProgramModel analyzeProgram(const ParsedProgram& program) {
    ProgramModel model;
    model.analysis.parsed = program.ok;
    model.analysis.log = program.log;
    if (!program.tu) return model;
    setMainFile(program.fileName);
    SourceFiles files;
    files.program = &program;
    findIncludes(program, files);
    const CXCursor tu = clang_getTranslationUnitCursor(program.tu);
    for (CXCursor c : children(tu)) {
        const CXCursorKind k = clang_getCursorKind(c);
        const unsigned at = expansionOffset(clang_getRangeStart(clang_getCursorExtent(c)));
        if (at == kNoOffset) continue;
        if (k == CXCursor_MacroExpansion) {
            files.macroExpansions.push_back(c);
        } else if (clang_isDeclaration(k)) {
            files.declarationStarts.push_back(at);
            const unsigned end = expansionOffset(clang_getRangeEnd(clang_getCursorExtent(c)));
            if (end != kNoOffset) files.declarationExtents.emplace_back(at, end);
        }
    }
    const CopyRules rules(program.text, files.userHeaders, files.includeChains, program.macroOptions,
                          files.declarationExtents);
    // The helpers placed before the program are compiled under its build options.
    const std::string optionClash = rules.optionMacroNamed(preambleIdentifiers());
    std::vector<CXCursor> functions;
    std::set<std::string> userFunctions;
    for (CXCursor c : children(tu)) {
        if (clang_getCursorKind(c) != CXCursor_FunctionDecl) continue;
        const CXSourceLocation loc = clang_getCursorLocation(c);
        CXFile file = nullptr;
        clang_getExpansionLocation(loc, &file, nullptr, nullptr, nullptr);
        if (!file || clang_Location_isInSystemHeader(loc)) continue;  // clang's OpenCL builtins
        functions.push_back(c);
        userFunctions.insert(take(clang_getCursorUSR(c)));
    }

    for (CXCursor fn : functions) {
        if (!clang_isCursorDefinition(fn) || !isKernelDecl(fn)) continue;
        KernelAnalysis ka;
        ka.name = spelling(fn);
        const int nparams = clang_Cursor_getNumArguments(fn);
        std::vector<Roots> bindings;
        Effects fx;
        for (int i = 0; i < nparams; ++i) {
            CXCursor p = clang_Cursor_getArgument(fn, i);
            const CXType t = clang_getCursorType(p);
            ParamInfo pi;
            pi.name = spelling(p);
            pi.typeSpelling = stripPrivateQualifier(typeSpelling(t));
            pi.isPointer = isPointer(t);
            pi.isRestrict = clang_isRestrictQualifiedType(t) != 0;
            pi.isImage = isImageType(t);
            pi.isSampler = isSamplerType(t);
            Roots b;
            if (pi.isPointer) {
                const CXType pointee = clang_getPointeeType(clang_getCanonicalType(t));
                pi.pointeeConst = clang_isConstQualifiedType(pointee) != 0;
                std::set<size_t> sizes;
                scalarSizes(pointee, sizes);
                if (sizes.size() == 1) pi.elementSize = *sizes.begin();
                switch (addressSpaceOf(pointee)) {
                case Space::Global: pi.addressSpace = AddressSpace::Global; b = {i}; break;
                case Space::Constant: pi.addressSpace = AddressSpace::Constant; b = {i}; break;
                case Space::Local: pi.addressSpace = AddressSpace::Local; b = {kLocal}; fx.localMemory = true; break;
                default: pi.addressSpace = AddressSpace::Private; b = {kUnknown}; break;
                }
            } else if (pi.isImage) {
                pi.addressSpace = AddressSpace::Global;
                pi.mayRead = true;  // images are not followed as pointers: assume the kernel reads them
                fx.images = true;
            }
            ka.params.push_back(pi);
            bindings.push_back(b);
        }
        fx.params = &ka.params;
        fx.userFunctions = &userFunctions;
        fx.storeSizes.resize(ka.params.size());
        bool remapped = false;
        analyzeBody(fn, bindings, fx, true, 0, false, SIZE_MAX, remapped);

        for (size_t i = 0; i < ka.params.size(); ++i) {
            ka.params[i].storeSizes.assign(fx.storeSizes[i].begin(), fx.storeSizes[i].end());
            if (fx.unknownRead && ka.params[i].isPointer &&
                (ka.params[i].addressSpace == AddressSpace::Global ||
                 ka.params[i].addressSpace == AddressSpace::Constant))
                ka.params[i].mayRead = true;
        }
        ka.usesGlobalAtomics = fx.globalAtomics;
        ka.usesLocalAtomics = fx.localAtomics;
        ka.usesBarrier = fx.barrier;
        ka.usesLocalMemory = fx.localMemory;
        ka.usesPrintf = fx.printf;
        ka.usesImages = fx.images;
        ka.usesAsyncCopies = fx.asyncCopies;
        ka.usesProgramScopeVariables = fx.programScope;
        ka.storesBeforeLoopEnds = fx.storeInLoop;

        KernelDetail kd;
        kd.site = siteOf(fn, files);
        rules.plan(kd.site);
        kd.chunkHelpers = fx.chunkHelpers;
        if (!fx.hasGoto && !fx.barrier)
            for (auto& [open, end] : fx.topLoops)
                if (end < fx.firstStore) kd.loopChecks.push_back(open);

        // The verdict: the first reason found, in order of importance.
        std::vector<std::string> reasons;
        if (!program.ok) reasons.push_back("the program did not parse without errors");
        if (fx.globalAtomics) reasons.push_back("uses atomics on global memory");
        if (fx.printf) reasons.push_back("calls printf (output would be duplicated or split)");
        if (fx.imageWrite) reasons.push_back("writes images");
        reasons.insert(reasons.end(), fx.problems.begin(), fx.problems.end());
        for (const auto& p : ka.params)
            if (p.storeSizes.size() > 1) {
                std::string sizes;
                for (size_t s : p.storeSizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(s);
                reasons.push_back("parameter " + p.name + " is written through elements of different sizes (" +
                                  sizes + " bytes), which cannot be merged element-wise");
            }
        if (!kd.site.ok) reasons.push_back("cannot rewrite the kernel: " + kd.site.problem);
        if (!optionClash.empty())
            reasons.push_back("a build option defines " + optionClash + ", which the generated helpers use");
        // The copies' own macros and inserted code must mean what the rewriter meant.
        std::set<std::string> ownNames = rewriterMacroNames();
        ownNames.insert(fx.chunkHelpers.begin(), fx.chunkHelpers.end());
        if (kd.site.viaMacro) ownNames.insert(kd.site.name);
        if (const std::string clash = rules.macroNamed(ownNames); !clash.empty())
            reasons.push_back("the program defines or undefines a macro named " + clash +
                              ", a name its rewritten copies define or use");
        for (const auto& name : fx.chunkHelpers) {
            auto& sites = model.helpers[name];
            if (sites.empty()) {
                for (CXCursor f : functions)
                    if (spelling(f) == name) {
                        sites.push_back(siteOf(f, files));
                        rules.plan(sites.back());
                    }
            }
            bool withParams = false, withoutParams = false;
            for (const auto& s : sites) {
                if (!s.ok)
                    reasons.push_back("cannot rewrite helper " + s.name + " (it calls work-item functions): " +
                                      s.problem);
                (s.emptyParams ? withoutParams : withParams) = true;
            }
            if (withParams && withoutParams)
                reasons.push_back("cannot rewrite helper " + name + ": overloads with and without parameters");
        }
        ka.splittable = reasons.empty();
        if (!reasons.empty()) ka.reason = reasons.front();
        model.analysis.log += "hetero transform: kernel " + ka.name + ": " +
                              (ka.splittable ? std::string("splittable") : "not splittable: " + ka.reason) + "\n";
        model.analysis.kernels.push_back(std::move(ka));
        model.kernels.push_back(std::move(kd));
    }
    model.files = files.texts;
    return model;
}

}  // namespace hetero::transform::detail
