// Small conveniences over libclang's C API used by the analysis and the rewriter.
#pragma once

#include <clang-c/Index.h>

#include <climits>
#include <set>
#include <string>
#include <vector>

namespace hetero::transform::detail {

std::string take(CXString s);  // converts and disposes
std::string spelling(CXCursor c);
std::string typeSpelling(CXType t);
std::vector<CXCursor> children(CXCursor c);
std::string prettyPrinted(CXCursor c);

constexpr unsigned kNoOffset = UINT_MAX;
// The in-memory main file's name, for the offset functions below (per thread, set by analyzeProgram).
void setMainFile(const std::string& name);
// Offset in the main file where the code at `loc` comes from after macro expansion, kNoOffset if it is
// in another file.
unsigned expansionOffset(CXSourceLocation loc);
// Offset in the main file if `loc` is written literally there (not produced by a macro), else kNoOffset.
unsigned literalOffset(CXSourceLocation loc);
std::string describeLocation(CXSourceLocation loc);  // "line:col" for messages

bool isPointer(CXType t);
bool isArray(CXType t);
// Distinct scalar sizes stored when a value of type t is stored (float4 -> {4}, struct {float; char} -> {4, 1}).
void scalarSizes(CXType t, std::set<size_t>& out);
bool isImageType(CXType t);
bool isSamplerType(CXType t);
// The OpenCL address space qualifier of a pointee/variable type, from clang's spelling.
enum class Space { Private, Global, Constant, Local, Generic };
Space addressSpaceOf(CXType t);

// Skips whitespace and comments in text from pos; returns the position of the next token character.
size_t skipBlank(const std::string& text, size_t pos);

}  // namespace hetero::transform::detail
