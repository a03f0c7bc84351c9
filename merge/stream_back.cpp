#include "merge/stream_back.hpp"

#include "devices/backend_commands.hpp"

namespace hetero::merge {

void StreamBack::run() {
    backend::waitAll(cpuReady);
    if (items.empty()) return;  // nothing on the CPU's queue to wait for
    for (auto& it : items) {
        if (beforeEach) beforeEach(it.bytes);
        backend::withMapped(cpuQueue, it.onCpu.get(), CL_MAP_WRITE_INVALIDATE_REGION, it.bytes, [&](unsigned char* p) {
            check(backend::enqueueAndWait([&](cl_event* done) {
                return backend::enqueueRead(gpuQueue, it.from, 0, it.bytes, p, {}, done);
            }));
        });
        bytesMoved += it.bytes;
    }
    check(backend::finish(cpuQueue));
}

void StreamBack::release() {
    backend::releaseAll(cpuReady);
    for (auto& it : items) {
        pool->give(gpuContext, it.from, it.bytes);
        it.onCpu.reset();
    }
    items.clear();
}

}  // namespace hetero::merge
