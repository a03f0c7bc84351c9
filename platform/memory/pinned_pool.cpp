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
    for (auto& slab : slabs_) unpin(slab.get());
    // The queue, then the context, go with the members.
}

size_t PinnedPool::slabSize(size_t classBytes) const {
    size_t largest = 0;
    for (const auto& s : slabs_) largest = std::max(largest, s->bytes);
    const size_t bytes = std::max(classBytes, std::clamp(2 * largest, kFirstSlab, kLargestSlab));
    return (bytes + kSlabGranule - 1) / kSlabGranule * kSlabGranule;
}

PinnedPool::Slab* PinnedPool::pin(size_t slabBytes) {
    if (!queue_) {
        queue_ = backend::queue(context_.get(), device_, 0);
        if (!queue_) return nullptr;
    }
    backend::Buffer buffer = backend::buffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, slabBytes, nullptr);
    if (!buffer) return nullptr;
    cl_int err = CL_SUCCESS;
    void* p = backend::mapAndWait(queue_.get(), buffer.get(), CL_MAP_READ | CL_MAP_WRITE, 0, slabBytes, &err);
    if (!p) return nullptr;
    auto slab = std::make_unique<Slab>();
    slab->buffer = buffer.release();
    slab->data = static_cast<unsigned char*>(p);
    slab->bytes = slabBytes;
    slabs_.push_back(std::move(slab));
    return slabs_.back().get();
}

void PinnedPool::unpin(Slab* s) {
    backend::enqueueUnmap(queue_.get(), s->buffer, s->data);
    backend::flush(queue_.get());
    backend::release(s->buffer);  // the slab's reference; the backend frees it once the unmap is done
    pinnedTotal -= s->bytes;
}

bool PinnedPool::reserve(size_t slabBytes) {
    const uint64_t limit = budget();
    if (slabBytes > limit) return false;
    for (;;) {
        if (pinnedTotal.fetch_add(slabBytes) + slabBytes <= limit) return true;
        pinnedTotal -= slabBytes;
        // Slabs whose blocks are all kept go first, largest first: their blocks may never be asked
        // for again.
        Slab* idle = nullptr;
        for (const auto& s : slabs_)
            if (s->out == 0 && (!idle || s->bytes > idle->bytes)) idle = s.get();
        if (!idle) return false;
        for (auto& [size, blocks] : kept_)
            blocks.erase(std::remove_if(blocks.begin(), blocks.end(), [&](const Block& b) { return b.slab == idle; }),
                         blocks.end());
        unpin(idle);
        slabs_.erase(std::find_if(slabs_.begin(), slabs_.end(), [&](const auto& s) { return s.get() == idle; }));
    }
}

PinnedPool::Block PinnedPool::carve(size_t classBytes) {
    auto from = [&](Slab* s) -> Block {
        const size_t at = (s->carved + kBlockAlign - 1) / kBlockAlign * kBlockAlign;
        if (at + classBytes > s->bytes) return {};
        s->carved = at + classBytes;
        return {s->data + at, classBytes, s};
    };
    for (const auto& s : slabs_)
        if (Block b = from(s.get())) return b;
    // A new slab: as large as the budget allows, down to the block alone (another pool may have
    // taken what was left meanwhile).
    const uint64_t limit = budget(), total = pinnedTotal.load(), left = total < limit ? limit - total : 0;
    size_t slabBytes = std::min<size_t>(slabSize(classBytes), std::max<size_t>(classBytes, left));
    if (!reserve(slabBytes)) {
        if (slabBytes == classBytes || !reserve(classBytes)) return {};
        slabBytes = classBytes;
    }
    Slab* s = pin(slabBytes);
    if (!s) {
        pinnedTotal -= slabBytes;
        return {};
    }
    counters::add(counters::PinnedBytesAllocated, slabBytes);
    return from(s);
}

PinnedPool::Block PinnedPool::take(size_t bytes) {
    const size_t classBytes = sizeClass(bytes);
    std::lock_guard lock(mutex_);
    auto it = kept_.find(classBytes);
    Block b;
    if (it != kept_.end() && !it->second.empty()) {
        b = it->second.back();
        it->second.pop_back();
        counters::add(counters::PinnedReuses);
    } else if (!(b = carve(classBytes))) {
        return {};
    }
    ++b.slab->out;
    return b;
}

void PinnedPool::give(const Block& block) {
    std::lock_guard lock(mutex_);
    --block.slab->out;
    kept_[block.bytes].push_back(block);
}

}  // namespace hetero
