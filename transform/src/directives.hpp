// A lexical view of OpenCL C text as the preprocessor sees it before expanding anything: its
// directive lines (those in skipped groups too) and its identifiers, outside comments and literals.
// The rewriter needs it to tell whether a copy of a function, placed elsewhere, is compiled under
// the same macros as the original (copy_rules.cpp).
#pragma once

#include <string>
#include <vector>

namespace hetero::transform::detail {

struct Directive {
    size_t begin = 0;     // offset of the '#'
    size_t end = 0;       // offset of the newline that ends it (line splices and comments included)
    std::string name;     // "define", "if", "pragma", ...; "line" for GNU line markers ("# 12 ..."); "" for "#"
    std::string macro;    // define/undef: the macro's name; line: the line number as written
    std::string rest;     // the words after the name (after the macro for define/undef), one space apart,
                          // comments removed, string literals kept
    unsigned depth = 0;   // conditional groups open around it (#elif/#else/#endif count with their #if)
};

struct Identifier {
    size_t at = 0;
    std::string name;
};

struct Lexed {
    std::vector<Directive> directives;    // in text order
    std::vector<Identifier> identifiers;  // in text order, those in directives included
    std::vector<size_t> lineStarts;       // offsets at which physical lines start
    // 1-based physical line of an offset.
    size_t lineOf(size_t offset) const;
    // The identifiers in [begin, end).
    std::vector<std::string> identifiersIn(size_t begin, size_t end) const;
    // The directives in [begin, end).
    std::vector<const Directive*> directivesIn(size_t begin, size_t end) const;
};

// `text` expects line feeds only (withLineFeeds).
Lexed lex(const std::string& text);

// `text` with each carriage return not followed by a line feed made one (old Mac line endings, which
// clang reads as line ends). Character for character, so offsets and clang's locations stay valid.
// Every text the transform scans comes through it (parse.cpp, sites.cpp): the scanners look for
// line feeds only.
std::string withLineFeeds(std::string text);

bool isConditional(const std::string& directiveName);  // if, ifdef, ifndef, elif, elifdef, elifndef, else, endif

}  // namespace hetero::transform::detail
