// Every object Hetero hands to an application: the ICD handle layout, reference counting and
// handle validation. Modelled on ROCm CLR's ICDDispatchedObject + RuntimeObject split.
#pragma once

#include <CL/cl_icd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

// The ICD contract: every handle starts with a pointer to a Khronos dispatch table. The loader
// dispatches on it; backend handles (PoCL, NVIDIA) have the same layout, so the same struct types
// serve to call them through their own tables.
struct _cl_platform_id { const cl_icd_dispatch* dispatch; };
struct _cl_device_id { const cl_icd_dispatch* dispatch; };
struct _cl_context { const cl_icd_dispatch* dispatch; };
struct _cl_command_queue { const cl_icd_dispatch* dispatch; };
struct _cl_mem { const cl_icd_dispatch* dispatch; };
struct _cl_program { const cl_icd_dispatch* dispatch; };
struct _cl_kernel { const cl_icd_dispatch* dispatch; };
struct _cl_event { const cl_icd_dispatch* dispatch; };
struct _cl_sampler { const cl_icd_dispatch* dispatch; };

namespace hetero {

// Hetero's own dispatch table (icd/dispatch_table.cpp).
const cl_icd_dispatch& dispatchTable();

enum class Kind : unsigned { Platform, Device, Context, CommandQueue, Mem, Program, Kernel, Event, Sampler };

// The set of handles Hetero has handed out and not yet destroyed. Validation asks it instead of
// dereferencing, so NULL, foreign (another platform's) and released handles are all rejected safely.
class RefCounted;
namespace live_handles {
void add(const void* handle, Kind kind, RefCounted* object);
void remove(const void* handle);
// Retains the object behind `handle` if the handle is still live and the object not on its way
// out. Safe against a concurrent last release: that one removes the handle (under the registry's
// lock) before deleting the object. The registry keeps the object's address, so the caller never
// converts a handle whose object may be gone (a cast is undefined behaviour for a destroyed
// object; UBSan's vptr check reads the freed memory).
bool retainIfLive(const void* handle, Kind kind);
// The same for an API call's hold (see fromHandle).
bool holdIfLive(const void* handle, Kind kind);

// HETERO_TEST_MEM_LOOKUP_DELAY_MS=<n> (tests only): every lookup of a memory object's handle
// sleeps n ms after it took its hold, so that a test can release the object's last reference on
// another thread while a call is between its lookup and its use of the object. Memory objects
// only, so that the test's other calls (the one that releases) run undelayed. Read when the
// registry is made; inline: every such lookup asks.
inline std::atomic<unsigned> testLookupDelayMs{0};
void sleepAfterLookup(unsigned ms);
inline void testDelayAfterLookup() {
    if (unsigned ms = testLookupDelayMs.load(std::memory_order_relaxed)) [[unlikely]]
        sleepAfterLookup(ms);
}
}  // namespace live_handles

class RefCounted {
public:
    RefCounted() = default;
    RefCounted(const RefCounted&) = delete;
    RefCounted& operator=(const RefCounted&) = delete;
    virtual ~RefCounted() = default;

    void retain() { counts_.fetch_add(1, std::memory_order_relaxed); }
    // Retains unless the object is already on its way out (no references left); for weak lookups.
    bool tryRetain() { return addIfReferenced(1); }
    // Drops a reference; the object goes once no reference and no hold is left.
    void release() { drop(1); }
    // The application's release (clRelease*), by a caller that holds the object: false, changing
    // nothing, when no reference is left to drop (two threads released the application's last one).
    bool releaseReference() {
        uint64_t n = counts_.load(std::memory_order_relaxed);
        while (references(n) != 0)
            if (counts_.compare_exchange_weak(n, n - 1, std::memory_order_acq_rel)) return true;
        return false;
    }
    // What CL_*_REFERENCE_COUNT reports: references, not the holds of calls in progress.
    cl_uint referenceCount() const { return references(counts_.load(std::memory_order_relaxed)); }

    // A hold keeps the object whole for an API call (fromHandle); taken only while a reference is
    // left, so a released object cannot be picked up again.
    bool tryHold() { return addIfReferenced(kHold); }
    void dropHold() { drop(kHold); }

protected:
    // Runs once, just before deletion, while the object is still whole.
    virtual void lastReleased() {}

private:
    // Both counts in one word, so that the one change that leaves both at zero is seen by exactly
    // one thread, which deletes the object: references in the low half, holds in the high half.
    static constexpr uint64_t kHold = uint64_t{1} << 32;
    static cl_uint references(uint64_t n) { return static_cast<cl_uint>(n & (kHold - 1)); }
    bool addIfReferenced(uint64_t amount) {
        uint64_t n = counts_.load(std::memory_order_relaxed);
        while (references(n) != 0)
            if (counts_.compare_exchange_weak(n, n + amount, std::memory_order_acq_rel)) return true;
        return false;
    }
    void drop(uint64_t amount) {
        if (counts_.fetch_sub(amount, std::memory_order_acq_rel) != amount) return;
        lastReleased();
        delete this;
    }

    std::atomic<uint64_t> counts_{1};
};

// Base of every application-visible object: a handle of type Handle that validates as kind K.
template <class Handle, Kind K>
class ApiObject : public Handle, public RefCounted {
public:
    using HandleType = Handle*;
    static constexpr Kind kind = K;

    ApiObject() : serial_(K == Kind::Event ? 0 : nextSerial()) {
        Handle::dispatch = &dispatchTable();
        live_handles::add(static_cast<Handle*>(this), K, this);
    }
    Handle* handle() { return this; }
    // Unique over the process's lifetime: tells this object from a later one at the same address.
    // Events have none (0): nothing refers to one weakly, and every launch with an event makes one.
    uint64_t serial() const { return serial_; }

protected:
    void lastReleased() override { live_handles::remove(static_cast<Handle*>(this)); }

private:
    static uint64_t nextSerial() {
        static std::atomic<uint64_t> next{1};
        return next.fetch_add(1, std::memory_order_relaxed);
    }
    const uint64_t serial_;
};

// An API call's hold on the object behind a handle (see fromHandle): move-only, dropped when the
// call returns.
template <class T>
class Held {
public:
    Held() = default;
    Held(Held&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
    Held& operator=(Held&& o) noexcept { std::swap(p_, o.p_); return *this; }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    ~Held() { if (p_) p_->dropHold(); }
    T* get() const { return p_; }
    T* operator->() const { return p_; }
    T& operator*() const { return *p_; }
    explicit operator bool() const { return p_ != nullptr; }
    // A named hold passes as the object, for as long as it lives; a temporary one does not (the
    // pointer would outlive the hold). Where the object is used past the Held's scope (a list of
    // them, a helper's result), keep or return the Held, never the pointer.
    operator T*() const& { return p_; }
    operator T*() const&& = delete;
    bool operator==(std::nullptr_t) const { return p_ == nullptr; }
    bool operator!=(std::nullptr_t) const { return p_ != nullptr; }

private:
    template <class U>
    friend Held<U> fromHandle(typename U::HandleType h);
    explicit Held(T* held) : p_(held) {}
    T* p_ = nullptr;
};

// A handle from the application, as Hetero's object held for the caller, or empty when it is not
// a live one of ours. The rule for every entry point: turn each handle into its object only here,
// and keep the Held for as long as the call uses the object. The hold is taken under the
// registry's lock, and only while the object has a reference left, so a last release on another
// thread (the application's, or a command's that held a handle the application had released)
// cannot destroy the object mid-call: the object goes when the hold is dropped. A released handle,
// NULL, a foreign handle or one of another kind: empty, and the call answers CL_INVALID_<OBJECT>.
// The hold is not a reference: CL_*_REFERENCE_COUNT does not count it, and clRelease* of a
// handle with no reference left fails instead of dropping another caller's hold.
template <class T>
Held<T> fromHandle(typename T::HandleType h) {
    if (h == nullptr || !live_handles::holdIfLive(h, T::kind)) return {};
    Held<T> held(static_cast<T*>(h));  // held: alive, and of kind T
    if constexpr (T::kind == Kind::Mem) live_handles::testDelayAfterLookup();
    return held;
}

// Owning reference to a RefCounted object, for internal links (queue -> context, kernel -> program).
template <class T>
class Ref {
public:
    Ref() = default;
    explicit Ref(T* p, bool adopt = false) : p_(p) { if (p_ && !adopt) p_->retain(); }
    Ref(const Ref& o) : p_(o.p_) { if (p_) p_->retain(); }
    Ref(Ref&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
    Ref& operator=(Ref o) { std::swap(p_, o.p_); return *this; }
    ~Ref() { if (p_) p_->release(); }
    T* get() const { return p_; }
    T* operator->() const { return p_; }
    T& operator*() const { return *p_; }
    explicit operator bool() const { return p_ != nullptr; }
    T* detach() { T* p = p_; p_ = nullptr; return p; }

private:
    T* p_ = nullptr;
};

// A reference that does not keep its object alive: what the application handed over without the
// object being retained (clSetKernelArg's memory objects and samplers). lock() gives the object
// back only while it still exists (the application or a command in flight holds it): not after its
// last release, and never a later object that happens to reuse the address.
template <class T>
class WeakRef {
    static_assert(T::kind != Kind::Event, "events have no serial (ApiObject::serial)");

public:
    WeakRef() = default;
    explicit WeakRef(T* p) : handle_(p ? p->handle() : nullptr), serial_(p ? p->serial() : 0) {}
    explicit operator bool() const { return handle_ != nullptr; }
    Ref<T> lock() const {
        if (!handle_ || !live_handles::retainIfLive(handle_, T::kind)) return {};
        Ref<T> strong(static_cast<T*>(handle_), true);  // retained: alive, and of kind T
        if (strong->serial() != serial_) return {};
        return strong;
    }
    // Both name the same object (never two objects that had the same address one after the other).
    bool sameObject(const WeakRef& other) const { return handle_ == other.handle_ && serial_ == other.serial_; }

private:
    typename T::HandleType handle_ = nullptr;
    uint64_t serial_ = 0;
};

}  // namespace hetero
