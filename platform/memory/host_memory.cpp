#include "platform/memory/host_memory.hpp"

#include "devices/backend_commands.hpp"
#include "platform/objects/context.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/error.hpp"
#include "platform/support/log.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>

namespace hetero {
namespace {

// One line for the whole process: a host copy in ordinary memory is slower, never wrong.
void reportUnpinned(size_t bytes) {
    static std::once_flag once;
    std::call_once(once, [bytes] {
        bool overBudget = PinnedPool::pinnedBytes() + PinnedPool::sizeClass(bytes) > PinnedPool::budget();
        HETERO_LOG(Warn,
                   "a %zu-byte host copy is in ordinary memory: %s; it and later ones move at the speed of "
                   "unpinned memory (not reported again)",
                   bytes,
                   overBudget ? "the pinned-memory budget (HETERO_PINNED_BUDGET) is spent"
                              : "the GPU's backend could not pin more");
    });
}

}  // namespace

HostMemory* HostMemory::allocate(Context& context, size_t bytes) {
    auto* m = new HostMemory;
    if (bytes >= kPinFrom) {
        if (std::shared_ptr<PinnedPool> pool = context.pinnedPool()) {
            m->block_ = pool->take(bytes);
            if (m->block_) {
                m->pool_ = std::move(pool);
                m->data_ = m->block_.data;
                return m;
            }
            counters::add(counters::HostCopiesUnpinned);
            reportUnpinned(bytes);
        }
    }
    // Page-aligned, so that any sub-buffer origin keeps the alignment backends expect.
    void* p = nullptr;
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
        delete m;
        fail(CL_OUT_OF_HOST_MEMORY);
    }
    m->data_ = static_cast<unsigned char*>(p);
    return m;
}

void HostMemory::readUntil(cl_event e) {
    readers_.erase(std::remove_if(readers_.begin(), readers_.end(),
                                  [](const backend::Event& r) { return backend::done(r.get()); }),
                   readers_.end());
    readers_.push_back(backend::Event::retained(e));
}

void HostMemory::drop() {
    if (holders_.fetch_sub(1) != 1) return;
    releaseOnceRead();
}

void HostMemory::releaseOnceRead() {
    while (!readers_.empty()) {
        if (!backend::done(readers_.back().get())) {
            // Rare: the buffer went while a transfer still reads its memory.
            if (backend::whenComplete(readers_.back().get(), [this](cl_int) { releaseOnceRead(); })) return;
            backend::waitFor(readers_.back().get());
        }
        readers_.pop_back();
    }
    if (block_)
        pool_->give(block_);
    else
        std::free(data_);
    delete this;
}

void CL_CALLBACK HostMemory::backendBufferGone(cl_mem, void* memory) { static_cast<HostMemory*>(memory)->drop(); }

}  // namespace hetero
