#include "clang_util.hpp"

namespace hetero::transform::detail {

std::string take(CXString s) {
    const char* c = clang_getCString(s);
    std::string r = c ? c : "";
    clang_disposeString(s);
    return r;
}

std::string spelling(CXCursor c) { return take(clang_getCursorSpelling(c)); }
std::string typeSpelling(CXType t) { return take(clang_getTypeSpelling(t)); }

std::vector<CXCursor> children(CXCursor c) {
    std::vector<CXCursor> out;
    clang_visitChildren(
        c,
        [](CXCursor child, CXCursor, CXClientData data) {
            static_cast<std::vector<CXCursor>*>(data)->push_back(child);
            return CXChildVisit_Continue;
        },
        &out);
    return out;
}

std::string prettyPrinted(CXCursor c) {
    CXPrintingPolicy policy = clang_getCursorPrintingPolicy(c);
    clang_PrintingPolicy_setProperty(policy, CXPrintingPolicy_TerseOutput, 1);
    std::string s = take(clang_getCursorPrettyPrinted(c, policy));
    clang_PrintingPolicy_dispose(policy);
    return s;
}

namespace {
thread_local std::string tMainFile;

bool isMain(CXFile f) { return f && take(clang_getFileName(f)) == tMainFile; }
}  // namespace

void setMainFile(const std::string& name) { tMainFile = name; }

unsigned expansionOffset(CXSourceLocation loc) {
    CXFile f = nullptr;
    unsigned off = 0;
    clang_getExpansionLocation(loc, &f, nullptr, nullptr, &off);
    return isMain(f) ? off : kNoOffset;
}

unsigned literalOffset(CXSourceLocation loc) {
    CXFile ef = nullptr, sf = nullptr;
    unsigned eo = 0, so = 0;
    clang_getExpansionLocation(loc, &ef, nullptr, nullptr, &eo);
    clang_getSpellingLocation(loc, &sf, nullptr, nullptr, &so);
    if (!isMain(ef) || !isMain(sf) || eo != so) return kNoOffset;
    return eo;
}

std::string describeLocation(CXSourceLocation loc) {
    unsigned line = 0, col = 0;
    clang_getExpansionLocation(loc, nullptr, &line, &col, nullptr);
    return std::to_string(line) + ":" + std::to_string(col);
}

bool isPointer(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

bool isArray(CXType t) {
    const CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray ||
           k == CXType_DependentSizedArray;
}

void scalarSizes(CXType t, std::set<size_t>& out) {
    CXType c = clang_getCanonicalType(t);
    switch (c.kind) {
    case CXType_Vector:
    case CXType_ExtVector:
        scalarSizes(clang_getElementType(c), out);
        return;
    case CXType_ConstantArray:
    case CXType_IncompleteArray:
        scalarSizes(clang_getArrayElementType(c), out);
        return;
    case CXType_Record: {
        clang_Type_visitFields(
            c,
            [](CXCursor field, CXClientData data) {
                scalarSizes(clang_getCursorType(field), *static_cast<std::set<size_t>*>(data));
                return CXVisit_Continue;
            },
            &out);
        return;
    }
    default: {
        const long long s = clang_Type_getSizeOf(c);
        if (s > 0) out.insert(static_cast<size_t>(s));
        return;
    }
    }
}

bool isImageType(CXType t) {
    const std::string s = typeSpelling(clang_getCanonicalType(t));
    return s.find("image1d") != std::string::npos || s.find("image2d") != std::string::npos ||
           s.find("image3d") != std::string::npos;
}

bool isSamplerType(CXType t) { return clang_getCanonicalType(t).kind == CXType_OCLSampler; }

Space addressSpaceOf(CXType t) {
    const std::string s = typeSpelling(t);
    // clang spells the qualifier before the type name, e.g. "const __global float".
    if (s.find("__global") != std::string::npos) return Space::Global;
    if (s.find("__constant") != std::string::npos) return Space::Constant;
    if (s.find("__local") != std::string::npos) return Space::Local;
    if (s.find("__generic") != std::string::npos) return Space::Generic;
    return Space::Private;
}

size_t skipBlank(const std::string& text, size_t pos) {
    while (pos < text.size()) {
        const char c = text[pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            ++pos;
        } else if (c == '\\' && pos + 1 < text.size() && text[pos + 1] == '\n') {
            pos += 2;
        } else if (text.compare(pos, 2, "//") == 0) {
            while (pos < text.size() && text[pos] != '\n') ++pos;
        } else if (text.compare(pos, 2, "/*") == 0) {
            const size_t e = text.find("*/", pos + 2);
            pos = e == std::string::npos ? text.size() : e + 2;
        } else {
            break;
        }
    }
    return pos;
}

}  // namespace hetero::transform::detail
