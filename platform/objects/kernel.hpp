// Kernels: one backend kernel per slot where the program built, and the application's arguments,
// kept as Hetero objects until a launch translates them for the slot it runs on.
#pragma once

#include "devices/call_pipe.hpp"

#include "platform/objects/memobj.hpp"
#include "platform/objects/program.hpp"
#include "platform/objects/sampler.hpp"

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

struct KernelVariants;  // platform/split/variants.hpp

// An argument as a launch uses it: the launch holds its memory objects and samplers until it completes.
struct KernelArg {
    bool set = false;
    size_t size = 0;
    std::vector<unsigned char> value;  // empty with size > 0: local memory (arg_value NULL)
    Ref<Mem> mem;                       // the value named a Hetero memory object
    Ref<Sampler> sampler;               // ... or a sampler
    uint64_t stamp = 0;                 // the clSetKernelArg it came from (StoredKernelArg::stamp)
};

// An argument as the kernel keeps it between clSetKernelArg and a launch. clSetKernelArg does not
// retain memory objects or samplers (the specification has only launches retain them): the
// application may release them, and a launch then finds them gone (CL_INVALID_MEM_OBJECT /
// CL_INVALID_SAMPLER) instead of keeping them alive.
struct StoredKernelArg {
    bool set = false;
    size_t size = 0;
    std::vector<unsigned char> value;
    WeakRef<Mem> mem;
    WeakRef<Sampler> sampler;
    uint64_t stamp = 0;  // names this clSetKernelArg: unique in the process, never 0
};

class Kernel : public ApiObject<_cl_kernel, Kind::Kernel> {
public:
    static Kernel* create(Program* program, const char* name);
    static Kernel* clone(Kernel* source);

    Program* program() const { return program_.get(); }
    Context* context() const { return program_->context(); }
    const std::string& name() const { return name_; }
    cl_uint numArgs() const { return numArgs_; }
    bool availableOn(unsigned slot) const { return bool(backend_[slot]); }
    int referenceSlot() const;
    // Launch limits, fixed once the kernel exists: CL_KERNEL_WORK_GROUP_SIZE (minimum over the
    // slots) and reqd_work_group_size (zeros when the kernel has none).
    size_t maxWorkGroupSize() const { return maxWorkGroupSize_; }
    const size_t* requiredLocalSize() const { return requiredLocal_; }

    void setArg(cl_uint index, size_t size, const void* value);
    // The arguments as they are now, retained for a launch; CL_INVALID_KERNEL_ARGS if any unset,
    // CL_INVALID_MEM_OBJECT / CL_INVALID_SAMPLER if one names an object released since.
    std::vector<KernelArg> argsForLaunch() const;
    void requireArgsSet() const;  // the same check alone
    // Sets `args` on the slot's backend kernel (or on `target`, a variant of it on that slot);
    // the caller holds the kernel's launch mutex until it has enqueued. The slot's own backend
    // kernel is given only the arguments that changed since it was last given any (by stamp): a
    // clSetKernelArg is a backend call, and most launches repeat most of their arguments.
    void applyArgs(unsigned slot, const std::vector<KernelArg>& args) { applyArgs(backend_[slot].get(), slot, args); }
    void applyArgs(cl_kernel target, unsigned slot, const std::vector<KernelArg>& args) {
        applyArgs(target, slot, args, slot);
    }
    // The same with the memory objects and samplers of `objectsOf`, a slot that shares `slot`'s
    // backend context (Context::sameBackend): a split over slots of one device runs every part
    // over the primary's objects (platform/split/one_device_split.hpp).
    void applyArgs(cl_kernel target, unsigned slot, const std::vector<KernelArg>& args, unsigned objectsOf);

    // For a launch submitted by the enqueuing thread at once (platform/split/launch.cpp): the
    // arguments as they are, without a copy. While a LaunchLock is held they cannot change and
    // no other launch of this kernel sets backend arguments; it only tries (never waits), so it
    // takes no part in any lock order: who cannot have it goes the ordinary way.
    class LaunchLock {
    public:
        explicit LaunchLock(Kernel& k);
        ~LaunchLock();
        LaunchLock(const LaunchLock&) = delete;
        LaunchLock& operator=(const LaunchLock&) = delete;
        bool ok() const { return ok_; }

    private:
        Kernel& kernel_;
        bool args_ = false, ok_ = false;
    };
    // With a LaunchLock held: the current arguments (argsForLaunch() without the copy; their
    // memory objects are not retained: the caller locks them for as long as it uses them).
    const std::vector<StoredKernelArg>& currentArgs() const { return args_; }
    // With a LaunchLock held: applyArgs() of currentArgs() on the slot's backend kernel, with
    // `mems[i]` the memory object argument i names (locked by the caller), null where none.
    void applyCurrentArgs(unsigned slot, Mem* const* mems);
    // With a LaunchLock held: whether what applyCurrentArgs() would give fits a pipe's record
    // (devices/call_pipe.hpp): at most CallPipe::kMaxArgs arguments, no value over
    // CallPipe::kValueBytes, no new __local size (made at once, a backend's refusal of the size
    // comes back from the launch itself).
    bool currentArgsPipeable(unsigned slot, Mem* const* mems) const;
    // With a LaunchLock held: applyCurrentArgs() written into `launch` for the pipe to make instead
    // of made now (only after currentArgsPipeable() said yes), and counted as given.
    void pipeCurrentArgs(unsigned slot, Mem* const* mems, backend::CallPipe::Launch& launch);
    // With a LaunchLock held: whether the slot's backend took a launch of this kernel before (a
    // pipe's launch cannot report a backend's refusal to the application: the first is made at
    // once, and what a backend refuses for the kernel itself it refuses on the first).
    bool launchedOn(unsigned slot) const { return launchedOn_[slot]; }
    void launchTakenOn(unsigned slot) { launchedOn_[slot] = true; }
    // The split variants of this kernel, or nullptr when it is not splittable.
    const std::shared_ptr<KernelVariants>& variants() const { return variants_; }
    cl_kernel backend(unsigned slot) const { return backend_[slot].get(); }
    std::mutex& launchMutex() { return launchMutex_; }

    cl_int info(cl_kernel_info param, size_t size, void* value, size_t* sizeRet);
    cl_int workGroupInfo(cl_kernel_work_group_info param, size_t size, void* value, size_t* sizeRet);
    cl_int argInfo(cl_uint index, cl_kernel_arg_info param, size_t size, void* value, size_t* sizeRet);

protected:
    ~Kernel() override;

private:
    Kernel() = default;
    Ref<Program> program_;
    std::string name_;
    cl_uint numArgs_ = 0;
    std::vector<backend::Kernel> backend_;  // per slot; empty where the program did not build
    mutable std::mutex argsMutex_;  // taken before launchMutex_ where both are held
    std::vector<StoredKernelArg> args_;
    // Every argument was set (requireArgsSet): once true it stays so (none is ever unset), and
    // launches then check without argsMutex_.
    mutable std::atomic<bool> allArgsSet_{false};
    std::mutex launchMutex_;
    // Per slot, per argument: the stamp of what backend_[slot] was given last (0: unknown).
    // Under launchMutex_.
    std::vector<std::vector<uint64_t>> applied_;
    std::vector<bool> launchedOn_;  // per slot (launchedOn); under launchMutex_
    // Per slot, per argument: the size of a by-value argument backend_[slot] accepted (0: none yet).
    // A backend judges such an argument by its size alone, so a new value of an accepted size
    // waits for the next launch on the slot instead of costing a backend call on every slot now
    // (a loop that changes a scalar before each launch would pay it once per slot per launch).
    // Written under both argsMutex_ and launchMutex_ (setValueArg), so read under either.
    std::vector<std::vector<size_t>> acceptedSize_;
    std::shared_ptr<KernelVariants> variants_;
    size_t maxWorkGroupSize_ = 0;
    size_t requiredLocal_[3] = {0, 0, 0};
    // Per argument: CL_KERNEL_ARG_ADDRESS_QUALIFIER on the reference slot, 0 where it is not known
    // (asked once: clSetKernelArg checks it, and loops set arguments before every launch).
    std::vector<cl_kernel_arg_address_qualifier> qualifiers_;
    void readLaunchLimits();
    void readArgQualifiers();
    // Whether the slot's own kernel has argument `index` as stamped `stamp` (0: never given).
    bool given(unsigned slot, cl_uint index, uint64_t stamp) const { return stamp != 0 && applied_[slot][index] == stamp; }
    // Gives argument `index` to backend kernel `k` of `slot`, unless `k` is the slot's own kernel
    // and already has it (given); variants (the split engines') are given it every time.
    // Memory objects and samplers are `objectsOf`'s (the slot itself but in applyArgs above).
    void applyArg(cl_kernel k, unsigned slot, cl_uint index, size_t size, const std::vector<unsigned char>& value,
                  Mem* mem, Sampler* sampler, uint64_t stamp, unsigned objectsOf);
    // clSetKernelArg of a value (no memory object or sampler): checked, given to the backends that
    // have to judge it, and stored.
    void setValueArg(cl_uint index, size_t size, const void* value);
    // Whether a by-value argument of `size` for `index` can wait for the next launch on `slot`.
    bool acceptedBefore(unsigned slot, cl_uint index, size_t size) const;
};

}  // namespace hetero
