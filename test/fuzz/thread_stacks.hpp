// The native stack of every thread of the process, for the fuzzer's watchdog. A hang's cause is where
// each thread waits, Hetero's workers and PoCL's and the NVIDIA driver's threads included, and the
// operation names alone did not say it (issue 20); on the GPU machine there may be no debugger to
// attach and no core dump kept, so the process prints the stacks itself before it aborts.
#pragma once

#include <chrono>
#include <cstdio>

namespace fuzz::thread_stacks {

// Picks a real-time signal nobody handles, installs the handler that records the receiving thread's
// stack, and loads the unwinder (a handler must not load anything). Call once, before anything can
// hang. False (with a message) if no signal was free: printAll then prints no stacks.
bool prepare();

// Prints every thread: id, name, kernel state, wait channel and system call, then its stack, each
// frame as function+offset where a symbol table names it and always as module+offset (for
// `addr2line -f -C -e module offset` later). A thread that blocks the signal, or does not answer
// within `perThread` (stuck in the kernel), is printed without a stack; nothing here waits longer.
// Symbols are read from the files in /proc/self/maps, never through the dynamic loader (dladdr takes
// its lock, which a hung thread may hold).
void printAll(std::FILE* out, std::chrono::milliseconds perThread);

}  // namespace fuzz::thread_stacks
