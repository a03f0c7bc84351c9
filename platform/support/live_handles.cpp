// The registry behind handle validation (see object.hpp).
#include "platform/support/object.hpp"

#include "platform/support/config.hpp"
#include "platform/support/spin_wait.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>  // std::shared_lock
#include <thread>
#include <vector>

namespace hetero::live_handles {
namespace {
struct Entry {
    const void* handle;  // null: never used; erased(): used, then erased
    Kind kind;
    RefCounted* object;
};

// The handles in an open-addressed table (linear probing, a power-of-two size): every command
// with an event adds and removes one, and every call looks one up, so neither allocates nor
// divides (std::unordered_map did both: a node per handle, a prime modulus per lookup).
class Table {
public:
    Table() { slots_.assign(kInitialSize, Entry{nullptr, Kind::Platform, nullptr}); }

    const Entry* find(const void* handle) const {
        if (!usable(handle)) return nullptr;
        for (size_t i = home(handle);; i = (i + 1) & mask()) {
            const Entry& e = slots_[i];
            if (e.handle == handle) return &e;
            if (e.handle == nullptr) return nullptr;
        }
    }

    void put(const void* handle, Kind kind, RefCounted* object) {
        if (!usable(handle)) return;
        // At most 3/4 in use (erased slots included): probing always meets an empty slot.
        if ((used_ + 1) * 4 > slots_.size() * 3) rehash();
        Entry* reuse = nullptr;  // the first erased slot on the way: taken unless the handle is there
        for (size_t i = home(handle);; i = (i + 1) & mask()) {
            Entry& e = slots_[i];
            if (e.handle == handle) {
                e = {handle, kind, object};
                return;
            }
            if (e.handle == erased() && !reuse) reuse = &e;
            if (e.handle == nullptr) {
                if (!reuse) {
                    reuse = &e;
                    ++used_;
                }
                break;
            }
        }
        *reuse = {handle, kind, object};
        ++live_;
    }

    void erase(const void* handle) {
        auto* e = const_cast<Entry*>(find(handle));
        if (!e) return;
        *e = {erased(), Kind::Platform, nullptr};  // keeps the probe chains through it whole
        --live_;
    }

private:
    static constexpr size_t kInitialSize = 1024;
    // Not a static constant: one initialized at load could be read before that (a handle made
    // while the library's statics are set up).
    static const void* erased() { return reinterpret_cast<const void*>(uintptr_t{1}); }

    static bool usable(const void* handle) { return handle != nullptr && handle != erased(); }
    size_t mask() const { return slots_.size() - 1; }
    size_t home(const void* handle) const {
        // Fibonacci hashing: objects are 16-byte aligned, so the low bits alone would cluster.
        const uint64_t h = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle)) * 0x9E3779B97F4A7C15ull;
        return static_cast<size_t>(h >> 32) & mask();
    }
    // Into a table at most half full of live handles, without the erased slots.
    void rehash() {
        size_t size = kInitialSize;
        while (size < (live_ + 1) * 2) size *= 2;
        std::vector<Entry> old(size, Entry{nullptr, Kind::Platform, nullptr});
        old.swap(slots_);
        used_ = live_ = 0;
        for (const Entry& e : old)
            if (usable(e.handle)) put(e.handle, e.kind, e.object);
    }

    std::vector<Entry> slots_;
    size_t used_ = 0;  // slots not empty: live and erased
    size_t live_ = 0;
};

// The registry's reader-writer lock: lookups (every entry point, several per launch) share it,
// adds and removes (every object made and gone: every event) take it alone. Each holds it for a
// few dozen instructions, so a waiter spins, then yields, instead of sleeping; taking and giving
// it back costs one atomic operation each, as pthread's rwlock does, but a fifth of the
// instructions. A writer waiting keeps new readers out, so lookups cannot starve it.
class RegistryLock {
public:
    void lock_shared() {
        unsigned spins = 0;
        // Counted in first, then checked: no writer holds or waits, or out again until none does.
        while (state_.fetch_add(kReader, std::memory_order_acquire) & kWriter) {
            state_.fetch_sub(kReader, std::memory_order_relaxed);
            while (state_.load(std::memory_order_relaxed) & kWriter) spinPause(spins);
        }
    }
    void unlock_shared() { state_.fetch_sub(kReader, std::memory_order_release); }

    void lock() {
        unsigned spins = 0;
        // The writer bit first (one writer at a time), then wait for the readers inside to leave.
        for (uint32_t s = state_.load(std::memory_order_relaxed);; s = state_.load(std::memory_order_relaxed)) {
            if (!(s & kWriter) && state_.compare_exchange_weak(s, s | kWriter, std::memory_order_acquire)) break;
            spinPause(spins);
        }
        while (state_.load(std::memory_order_acquire) != kWriter) spinPause(spins);
    }
    void unlock() { state_.fetch_sub(kWriter, std::memory_order_release); }

private:
    static constexpr uint32_t kReader = 1;
    static constexpr uint32_t kWriter = uint32_t{1} << 31;
    std::atomic<uint32_t> state_{0};  // readers inside (or on their way out), plus kWriter
};

struct Registry {
    Registry() {
        if (auto delay = config::get("HETERO_TEST_MEM_LOOKUP_DELAY_MS", "test_mem_lookup_delay_ms"))
            testLookupDelayMs.store(static_cast<unsigned>(std::strtoul(delay->c_str(), nullptr, 10)));
    }
    RegistryLock mutex;
    Table handles;
};
Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: handles may be released during exit
    return *r;
}
}  // namespace

void add(const void* handle, Kind kind, RefCounted* object) {
    auto& r = registry();
    std::unique_lock lock(r.mutex);
    r.handles.put(handle, kind, object);
}

void remove(const void* handle) {
    auto& r = registry();
    std::unique_lock lock(r.mutex);
    r.handles.erase(handle);
}

bool retainIfLive(const void* handle, Kind kind) {
    auto& r = registry();
    std::shared_lock lock(r.mutex);
    const Entry* e = r.handles.find(handle);
    return e && e->kind == kind && e->object->tryRetain();
}

bool holdIfLive(const void* handle, Kind kind) {
    auto& r = registry();
    std::shared_lock lock(r.mutex);
    const Entry* e = r.handles.find(handle);
    return e && e->kind == kind && e->object->tryHold();
}

void sleepAfterLookup(unsigned ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
}  // namespace hetero::live_handles
