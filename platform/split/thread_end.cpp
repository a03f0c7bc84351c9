#include "platform/split/thread_end.hpp"

#include "platform/split/exit_gate.hpp"
#include "platform/split/variants.hpp"

#include <sys/syscall.h>
#include <unistd.h>

namespace hetero {
namespace {

// The process's first thread: its end is the process's exit (return from main, or exit).
bool isMainThread() { return static_cast<pid_t>(::syscall(SYS_gettid)) == ::getpid(); }

struct ThreadEndWaits {
    ~ThreadEndWaits() {
        waitForVariantBuilds();
        if (isMainThread()) exit_gate::closeAndDrain();
    }
};

}  // namespace

void holdThreadEnd() {
    static thread_local ThreadEndWaits hold;
    (void)&hold;  // made on the thread's first call
}

}  // namespace hetero
