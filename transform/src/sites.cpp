#include "sites.hpp"

#include "clang_util.hpp"
#include "directives.hpp"

#include <algorithm>
#include <cctype>

namespace hetero::transform::detail {

namespace {

unsigned spellingOffsetIn(CXSourceLocation l, const std::string& mainName) {
    CXFile f = nullptr;
    unsigned o = 0;
    clang_getSpellingLocation(l, &f, nullptr, nullptr, &o);
    return f && take(clang_getFileName(f)) == mainName ? o : kNoOffset;
}

// Moves back from pos over blanks and backslash-newlines; returns the index of the previous character.
long skipBlankBack(const std::string& text, long pos) {
    while (pos >= 0) {
        const char c = text[static_cast<size_t>(pos)];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\\') --pos;
        else break;
    }
    return pos;
}

// A definition produced whole by one invocation "M(args)" (or "M") of a macro M defined in the
// program. Positions of the name, the parameter list's ')' and the body's '{' are found where they
// are spelled: in M's #define, or (the name only) in the invocation's arguments.
FunctionSite macroSite(CXCursor fn, const SourceFiles& files, unsigned start, unsigned end, FunctionSite s) {
    auto fail = [&](const std::string& why) {
        s.ok = false;
        s.problem = "it is produced by a macro invocation that cannot be rewritten: " + why;
        return s;
    };
    const std::string& text = files.program->text;
    const std::string& mainName = files.program->fileName;
    CXCursor expansion = clang_getNullCursor();
    for (CXCursor e : files.macroExpansions) {
        const CXSourceRange r = clang_getCursorExtent(e);
        if (expansionOffset(clang_getRangeStart(r)) == start && expansionOffset(clang_getRangeEnd(r)) == end)
            expansion = e;
    }
    if (clang_Cursor_isNull(expansion)) return fail("no single macro invocation spans it");
    int declarations = 0;
    for (unsigned at : files.declarationStarts)
        if (at >= start && at < end) ++declarations;
    if (declarations != 1) return fail("the invocation declares more than this function");
    const CXCursor definition = clang_getCursorReferenced(expansion);
    if (clang_Cursor_isNull(definition)) return fail("the macro's definition was not found");
    const CXSourceRange dr = clang_getCursorExtent(definition);
    const unsigned defStart = spellingOffsetIn(clang_getRangeStart(dr), mainName);
    const unsigned defEnd = spellingOffsetIn(clang_getRangeEnd(dr), mainName);
    s.macroName = spelling(definition);
    if (defStart == kNoOffset || defEnd == kNoOffset || defEnd > text.size() ||
        text.compare(defStart, s.macroName.size(), s.macroName) != 0)
        return fail("the macro is not defined in the program");
    const bool functionLike = text[defStart + s.macroName.size()] == '(';
    if (text.compare(start, s.macroName.size(), s.macroName) != 0)
        return fail("the invocation is not spelled with the macro's name");
    if (text.substr(defStart, defEnd - defStart).find('#') != std::string::npos)
        return fail("the macro uses # or ##");
    // libclang reports positions inside a macro's replacement list as the invocation's, so the
    // function is found in the #define's text: "M(params) ... name(parameters) {": the first '{'
    // outside parentheses opens the body, the ')' before it closes the parameter list, and the
    // identifier before the matching '(' is the name, literally or as one of M's parameters.
    size_t q = defStart + s.macroName.size();
    int depth = 0;
    size_t paramsClose = q - 1;  // an object-like macro: its replacement list starts after the name
    for (; functionLike && q < defEnd; ++q) {
        if (text[q] == '(') ++depth;
        else if (text[q] == ')' && --depth == 0) {
            paramsClose = q;
            break;
        }
    }
    if (functionLike && paramsClose < defStart + s.macroName.size()) return fail("its macro's parameter list was not found");
    std::vector<std::string> macroParams;
    if (functionLike) {
        std::string cur;
        for (size_t i = defStart + s.macroName.size() + 1; i <= paramsClose; ++i) {
            const char c = text[i];
            if (c == ',' || i == paramsClose) {
                macroParams.push_back(cur);
                cur.clear();
            } else if (c != ' ' && c != '\t' && c != '\\' && c != '\n' && c != '\r') {
                cur += c;
            }
        }
    }
    depth = 0;
    size_t open = 0;
    for (q = paramsClose + 1; q < defEnd; ++q) {
        if (text.compare(q, 2, "/*") == 0 || text.compare(q, 2, "//") == 0) return fail("comments in the macro");
        if (text[q] == '"' || text[q] == '\'') return fail("literals before the function body");
        if (text[q] == '(') ++depth;
        else if (text[q] == ')') --depth;
        else if (text[q] == '{' && depth == 0) {
            open = q;
            break;
        }
    }
    if (open == 0) return fail("no function body in the macro");
    const long close = skipBlankBack(text, static_cast<long>(open) - 1);
    if (close < 0 || text[static_cast<size_t>(close)] != ')') return fail("something between its parameters and body");
    long p = close;
    depth = 0;
    for (; p > static_cast<long>(paramsClose); --p) {
        if (text[static_cast<size_t>(p)] == ')') ++depth;
        else if (text[static_cast<size_t>(p)] == '(' && --depth == 0) break;
    }
    if (p <= static_cast<long>(paramsClose)) return fail("its parameter list was not found");
    const long identEnd = skipBlankBack(text, p - 1);
    long identStart = identEnd;
    while (identStart >= 0 && (std::isalnum(static_cast<unsigned char>(text[static_cast<size_t>(identStart)])) ||
                               text[static_cast<size_t>(identStart)] == '_'))
        --identStart;
    ++identStart;
    const std::string ident = text.substr(static_cast<size_t>(identStart), static_cast<size_t>(identEnd - identStart + 1));
    if (ident == s.name) {
        s.nameOffset = static_cast<size_t>(identStart);
    } else if (std::find(macroParams.begin(), macroParams.end(), ident) != macroParams.end()) {
        s.nameInArguments = true;
    } else {
        return fail("its name is neither spelled in the macro nor one of its parameters");
    }
    s.openParen = static_cast<size_t>(p);
    s.closeParen = static_cast<size_t>(close);
    std::string inner;
    for (size_t i = s.openParen + 1; i < s.closeParen; ++i)
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\\' && text[i] != '\n' && text[i] != '\r') inner += text[i];
    s.emptyParams = inner.empty() || inner == "void";
    if (s.emptyParams != (clang_Cursor_getNumArguments(fn) == 0)) return fail("its parameter list was misread");
    s.bodyOpen = open + 1;
    s.viaMacro = true;
    s.invocationStart = start;
    s.invocationEnd = end;
    s.definitionStart = defStart;
    s.definitionEnd = defEnd;
    s.start = defStart;
    s.end = defEnd;
    s.insertAt = end;
    s.ok = true;
    return s;
}

}  // namespace

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
            const std::string name = take(clang_getFileName(included));
            c->files->includeEnd.emplace(name, eol);
            CXTranslationUnit tu = c->files->program->tu;
            if (clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, included, 0))) return;
            size_t size = 0;
            const char* contents = clang_getFileContents(tu, included, &size);
            if (contents) c->files->userHeaders.emplace(name, withLineFeeds(std::string(contents, size)));
            IncludeChain chain;
            for (unsigned k = 0; k < depth; ++k) {
                CXFile by = nullptr;
                unsigned at = 0;
                clang_getExpansionLocation(stack[k], &by, nullptr, nullptr, &at);
                const std::string byName = by ? take(clang_getFileName(by)) : std::string();
                chain.emplace_back(byName == c->files->program->fileName ? std::string() : byName, at);
            }
            c->files->includeChains.emplace(name, chain);
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
    if (name == kNoOffset || text.compare(name, s.name.size(), s.name) != 0) {
        if (macroKernelsEnabled() && inMain && s.isDefinition && !clang_Cursor_isNull(body))
            return macroSite(fn, files, start, end, s);
        return fail("its name is produced by a macro");
    }
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
