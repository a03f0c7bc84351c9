// Running the transform's work on a thread of its own with a large stack: the AST walks recurse once
// per nesting level of the program (analyzer.cpp bounds that at kMaxNesting), and the caller of
// clBuildProgram may be any thread of the application, with any stack size.
#pragma once

#include <functional>

namespace hetero::transform::detail {

// Runs `work` to completion on a thread with a 64 MiB stack (reserved, touched only as used) and
// rethrows what it throws; runs it on the calling thread if no such thread can be made.
void runWithLargeStack(const std::function<void()>& work);

}  // namespace hetero::transform::detail
