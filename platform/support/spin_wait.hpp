// One step of a short busy wait: a pause instruction for the first few steps, then the processor
// given away (the thread being waited for may not be running: more threads than cores).
#pragma once

#include <thread>

namespace hetero {

inline void spinPause(unsigned& spins) {
    if (++spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        std::this_thread::yield();
    }
}

}  // namespace hetero
