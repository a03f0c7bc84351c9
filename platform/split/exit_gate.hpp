// A CPU slot's chunks (the split engines run them on internal queues): none may run while the
// process exits. PoCL compiles a kernel at its first run at a work-group size, in its worker
// threads, and the libraries' exit handlers (PoCL's own, LLVM's) break that compile: a program
// that returned from main with split launches in flight (two PoCL slots, HETERO_SPLIT=always, 256
// launches after its last wait) ended in SIGSEGV or SIGABRT, the compile in
// llvm::PMTopLevelManager::schedulePass (14 of 20 runs while PoCL's kernel cache still filled on a
// loaded machine, 2 of 20 with the cache off). From the exit on (closeAndDrain) such chunks are
// refused, and those enqueued before are waited for: an internal queue's commands carry no wait
// lists (only that queue's earlier ones), so they end. A refusal fails no launch: the GPU side
// does the work (a discrete split's result stands, or its GPU runs a static share the CPU did not
// send; a unified split's GPU side takes the chunk over), so another thread that still launches
// while the process exits only loses the CPU's help. (A main thread that ends by pthread_exit
// closes nothing: glibc runs no thread_local destructor of the main thread then, and the process
// goes on with the CPU helping: stress.split-after-main-ends-*.)
#pragma once

#include "devices/backend_call.hpp"

#include <functional>

namespace hetero::exit_gate {

// Runs `enqueue`, which enqueues kernels on an internal queue of a CPU slot and leaves the last
// one's event in `last`, unless the process exits: then throws Error(CL_OUT_OF_RESOURCES) without
// running it. The exit waits for that last kernel's end, also where `enqueue` throws.
void enqueue(const std::function<void()>& enqueue, backend::Event& last);

// True once closed: a chunk refused then is the exit's doing, no failure to warn of.
bool closed();

// From now on nothing more is enqueued; returns once what was is done. The exiting thread's end
// calls it (thread_end.hpp), and an exit handler registered with the first enqueue (for an exit
// from a thread that never called in).
void closeAndDrain();

}  // namespace hetero::exit_gate
