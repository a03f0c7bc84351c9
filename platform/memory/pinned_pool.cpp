#include "platform/memory/pinned_pool.hpp"

#include "devices/backend_commands.hpp"
#include "devices/backend_objects.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/config.hpp"
#include "platform/support/log.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <unistd.h>

namespace hetero {
namespace {

std::atomic<uint64_t> pinnedTotal{0};

uint64_t defaultBudget() {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return uint64_t{1} << 30;
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 4;
}

}  // namespace

uint64_t PinnedPool::budget() {
    static const uint64_t value = [] {
        auto v = config::get("HETERO_PINNED_BUDGET", "pinned_budget");
        if (!v || v->empty() || *v == "auto") return defaultBudget();
        int64_t bytes = config::parseBytes(*v);
        if (bytes < 0) {
            HETERO_LOG(Warn, "HETERO_PINNED_BUDGET=%s not understood (bytes, with K/M/G/T, or off); using the default",
                       v->c_str());
            return defaultBudget();
        }
        return static_cast<uint64_t>(bytes);
    }();
    return value;
}

uint64_t PinnedPool::pinnedBytes() { return pinnedTotal.load(); }

size_t PinnedPool::sizeClass(size_t bytes) {
    constexpr size_t minimum = 4096;
    if (bytes <= minimum) return minimum;
    size_t power = minimum;
    while (power * 2 < bytes) power *= 2;  // power < bytes <= 2 * power
    for (size_t quarters = 5; quarters <= 8; ++quarters) {
        size_t c = power / 4 * quarters;
        if (c >= bytes) return c;
    }
    return power * 2;
}

PinnedPool::PinnedPool(cl_context context, cl_device_id device)
    : context_(backend::Context::retained(context)), device_(device) {}

PinnedPool::~PinnedPool() {
    // Every block was given back (each holder keeps the pool alive); no blocking call: this may run
    // on a backend's callback thread, from the destructor callback of the last buffer on a block.
    for (auto& [size, blocks] : kept_)
        for (const Block& b : blocks) unpin(b);
    // The queue, then the context, go with the members.
}

PinnedPool::Block PinnedPool::pin(size_t classBytes) {
    if (!queue_) {
        queue_ = backend::queue(context_.get(), device_, 0);
        if (!queue_) return {};
    }
    backend::Buffer buffer = backend::buffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, classBytes, nullptr);
    if (!buffer) return {};
    cl_int err = CL_SUCCESS;
    void* p = backend::mapAndWait(queue_.get(), buffer.get(), CL_MAP_READ | CL_MAP_WRITE, 0, classBytes, &err);
    if (!p) return {};
    return {buffer.release(), static_cast<unsigned char*>(p), classBytes};
}

void PinnedPool::unpin(const Block& b) {
    backend::enqueueUnmap(queue_.get(), b.buffer, b.data);
    backend::flush(queue_.get());
    backend::release(b.buffer);  // the block's reference; the backend frees it once the unmap is done
    pinnedTotal -= b.bytes;
}

bool PinnedPool::reserve(size_t classBytes) {
    const uint64_t limit = budget();
    if (classBytes > limit) return false;
    // Kept blocks go first when the budget is short, largest first: they may never be asked for again.
    for (;;) {
        if (pinnedTotal.fetch_add(classBytes) + classBytes <= limit) return true;
        pinnedTotal -= classBytes;
        auto it = std::find_if(kept_.rbegin(), kept_.rend(), [](const auto& k) { return !k.second.empty(); });
        if (it == kept_.rend()) return false;
        unpin(it->second.back());
        it->second.pop_back();
    }
}

PinnedPool::Block PinnedPool::take(size_t bytes) {
    const size_t classBytes = sizeClass(bytes);
    std::lock_guard lock(mutex_);
    auto it = kept_.find(classBytes);
    if (it != kept_.end() && !it->second.empty()) {
        Block b = it->second.back();
        it->second.pop_back();
        counters::add(counters::PinnedReuses);
        return b;
    }
    if (!reserve(classBytes)) return {};
    Block b = pin(classBytes);
    if (!b) {
        pinnedTotal -= classBytes;
        return {};
    }
    counters::add(counters::PinnedBytesAllocated, classBytes);
    return b;
}

void PinnedPool::give(const Block& block) {
    std::lock_guard lock(mutex_);
    kept_[block.bytes].push_back(block);
}

}  // namespace hetero
