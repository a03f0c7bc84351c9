// Names Hetero's own threads, so that top -H, perf and debuggers tell them from the application's
// and the backends' (at most 15 characters: Linux's limit).
#pragma once

#include <pthread.h>

namespace hetero {

inline void nameThisThread(const char* name) {
#ifdef __linux__
    pthread_setname_np(pthread_self(), name);
#else
    (void)name;
#endif
}

}  // namespace hetero
