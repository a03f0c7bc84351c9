#include "sites.hpp"

#include "clang_util.hpp"

#include <algorithm>

namespace hetero::transform::detail {

void findIncludes(const ParsedProgram& program, SourceFiles& files) {
    struct Ctx {
        SourceFiles* files;
    } ctx{&files};
    clang_getInclusions(
        program.tu,
        [](CXFile included, CXSourceLocation* stack, unsigned depth, CXClientData data) {
            auto* c = static_cast<Ctx*>(data);
            if (depth == 0) return;
            // The outermost #include, in the program itself, is the last entry of the stack.
            CXFile f = nullptr;
            unsigned off = 0;
            clang_getExpansionLocation(stack[depth - 1], &f, nullptr, nullptr, &off);
            if (!f || take(clang_getFileName(f)) != c->files->program->fileName) return;
            const std::string& text = c->files->program->text;
            size_t eol = text.find('\n', off);
            eol = eol == std::string::npos ? text.size() : eol + 1;
            c->files->includeEnd.emplace(take(clang_getFileName(included)), eol);
        },
        &ctx);
}


FunctionSite siteOf(CXCursor fn, SourceFiles& files) {
    FunctionSite s;
    s.name = spelling(fn);
    s.isDefinition = clang_isCursorDefinition(fn) != 0;
    auto fail = [&](const std::string& why) {
        s.ok = false;
        s.problem = why;
        return s;
    };
    const CXSourceRange ext = clang_getCursorExtent(fn);
    // The file the declaration is in: the program itself, or a header it includes (then the copy
    // goes right after the program's #include line that brought the header in).
    CXFile file = nullptr;
    clang_getExpansionLocation(clang_getRangeStart(ext), &file, nullptr, nullptr, nullptr);
    if (!file) return fail("it has no source file");
    const std::string fileName = take(clang_getFileName(file));
    const bool inMain = fileName == files.program->fileName;
    if (!inMain) {
        auto inc = files.includeEnd.find(fileName);
        if (inc == files.includeEnd.end()) return fail("the #include that brings in " + fileName + " was not found");
        if (!files.texts.count(fileName)) {
            size_t size = 0;
            const char* data = clang_getFileContents(files.program->tu, file, &size);
            if (!data) return fail("cannot read " + fileName);
            files.texts[fileName] = std::string(data, size);
        }
        s.file = fileName;
    }
    const std::string& text = inMain ? files.program->text : files.texts[fileName];
    auto expansionOffset = [&](CXSourceLocation l) -> unsigned {
        CXFile f = nullptr;
        unsigned o = 0;
        clang_getExpansionLocation(l, &f, nullptr, nullptr, &o);
        return f && clang_File_isEqual(f, file) ? o : kNoOffset;
    };
    auto literalOffset = [&](CXSourceLocation l) -> unsigned {
        CXFile ef = nullptr, sf = nullptr;
        unsigned eo = 0, so = 0;
        clang_getExpansionLocation(l, &ef, nullptr, nullptr, &eo);
        clang_getSpellingLocation(l, &sf, nullptr, nullptr, &so);
        return ef && sf && clang_File_isEqual(ef, file) && clang_File_isEqual(sf, file) && eo == so ? eo : kNoOffset;
    };
    unsigned start = expansionOffset(clang_getRangeStart(ext));
    const unsigned end = expansionOffset(clang_getRangeEnd(ext));
    if (start == kNoOffset || end == kNoOffset) return fail("it is not delimited within one file");
    CXCursor body = clang_getNullCursor();
    for (CXCursor k : children(fn)) {
        const CXCursorKind kind = clang_getCursorKind(k);
        if (kind >= CXCursor_FirstAttr && kind <= CXCursor_LastAttr) {
            const unsigned a = expansionOffset(clang_getRangeStart(clang_getCursorExtent(k)));
            if (a != kNoOffset) start = std::min(start, a);
        }
        if (kind == CXCursor_CompoundStmt) body = k;
    }
    const unsigned name = literalOffset(clang_getCursorLocation(fn));
    if (name == kNoOffset || text.compare(name, s.name.size(), s.name) != 0)
        return fail("its name is produced by a macro");
    s.start = start;
    s.end = end;
    s.nameOffset = name;
    size_t p = skipBlank(text, name + s.name.size());
    if (p >= text.size() || text[p] != '(') return fail("its parameter list is produced by a macro");
    s.openParen = p;
    int depthParen = 0;
    for (size_t q = p; q < text.size(); q = skipBlank(text, q + 1)) {
        if (text[q] == '(') ++depthParen;
        else if (text[q] == ')' && --depthParen == 0) {
            s.closeParen = q;
            break;
        }
    }
    if (s.closeParen == 0 || s.closeParen > end) return fail("its parameter list could not be delimited");
    std::string inner;
    for (size_t q = skipBlank(text, p + 1); q < s.closeParen; q = skipBlank(text, q + 1)) inner += text[q];
    s.emptyParams = inner.empty() || inner == "void";
    if (s.isDefinition) {
        if (clang_Cursor_isNull(body)) return fail("no body found");
        const unsigned open = literalOffset(clang_getRangeStart(clang_getCursorExtent(body)));
        if (open == kNoOffset || text[open] != '{' || end == 0 || text[end - 1] != '}')
            return fail("its body is produced by a macro");
        s.bodyOpen = open + 1;
        s.insertAt = end;
    } else {
        const size_t q = skipBlank(text, end);
        if (q >= text.size() || text[q] != ';') return fail("its declaration does not end in ';'");
        s.insertAt = q + 1;
    }
    if (!inMain) s.insertAt = files.includeEnd[fileName];
    s.ok = true;
    return s;
}


}  // namespace hetero::transform::detail
