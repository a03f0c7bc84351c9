// Every object Hetero hands to an application: the ICD handle layout, reference counting and
// handle validation. Modelled on ROCm CLR's ICDDispatchedObject + RuntimeObject split.
#pragma once

#include <CL/cl_icd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

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
bool contains(const void* handle, Kind kind);
// Retains the object behind `handle` if the handle is still live and the object not on its way
// out. Safe against a concurrent last release: that one removes the handle (under the registry's
// lock) before deleting the object. The registry keeps the object's address, so the caller never
// converts a handle whose object may be gone (a cast is undefined behaviour for a destroyed
// object; UBSan's vptr check reads the freed memory).
bool retainIfLive(const void* handle, Kind kind);

// HETERO_TEST_MEM_LOOKUP_DELAY_MS=<n> (tests only): every lookup of a memory object's handle
// sleeps n ms after it found the object, so that a test can release the object's last reference
// on another thread while a call is between its lookup and its use of the object. Memory objects
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

    void retain() { refs_.fetch_add(1, std::memory_order_relaxed); }
    // Retains unless the object is already on its way out (count zero); for weak lookups.
    bool tryRetain() {
        cl_uint n = refs_.load(std::memory_order_relaxed);
        while (n != 0)
            if (refs_.compare_exchange_weak(n, n + 1, std::memory_order_acq_rel)) return true;
        return false;
    }
    // Returns true when this was the last reference and the object is gone.
    bool release() {
        if (refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return false;
        lastReleased();
        delete this;
        return true;
    }
    cl_uint referenceCount() const { return refs_.load(std::memory_order_relaxed); }

protected:
    // Runs once, just before deletion, while the object is still whole.
    virtual void lastReleased() {}

private:
    std::atomic<cl_uint> refs_{1};
};

// Base of every application-visible object: a handle of type Handle that validates as kind K.
template <class Handle, Kind K>
class ApiObject : public Handle, public RefCounted {
public:
    using HandleType = Handle*;
    static constexpr Kind kind = K;

    ApiObject() : serial_(nextSerial()) {
        Handle::dispatch = &dispatchTable();
        live_handles::add(static_cast<Handle*>(this), K, this);
    }
    Handle* handle() { return this; }
    // Unique over the process's lifetime: tells this object from a later one at the same address.
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

// A handle from the application, as Hetero's object, or nullptr when it is not a live one of ours.
template <class T>
T* fromHandle(typename T::HandleType h) {
    if (h == nullptr || !live_handles::contains(h, T::kind)) return nullptr;
    if constexpr (T::kind == Kind::Mem) live_handles::testDelayAfterLookup();
    return static_cast<T*>(h);
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
