// What the end of an application thread waits for. An application may exit as soon as its last
// wait returns, and from then on the libraries' exit handlers run, LLVM's among them (some
// registered lazily, during a compile, so that no exit handler of ours can precede them); no
// compiler Hetero started may run on then. glibc's exit runs the exiting thread's thread-local
// destructors before any exit handler: the threads that call in hold one (holdThreadEnd), whose
// end waits for the builds of split variants under way (variants.hpp), and, where the thread is
// the process's main thread (its end is the exit), closes the split engines' exit gate
// (exit_gate.hpp). An exit from a thread that never called in has the exit handlers those
// register as they start their work. (A main thread that ends by pthread_exit runs no
// thread_local destructor in glibc, so it closes nothing: the process goes on, the CPU helping;
// stress.split-after-main-ends-*.)
#pragma once

namespace hetero {

// Called by the API entry points that may start such work or meet it (platform enumeration,
// program builds, kernel launches): the calling thread's end waits for it. The first call on a
// thread makes its thread-local object; the rest cost a look at it.
void holdThreadEnd();

}  // namespace hetero
