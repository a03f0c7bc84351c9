// Kernel objects: creation, arguments, kernel/work-group/argument info.
#include "platform/objects/kernel.hpp"

#include "devices/backend_objects.hpp"
#include "platform/observe/counters.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/split/variants.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace hetero {
namespace {
const std::vector<Slot>& slots() { return Device::instance()->slots(); }

// Stamps of clSetKernelArg calls (StoredKernelArg::stamp).
std::atomic<uint64_t> lastStamp{0};
}  // namespace

Kernel* Kernel::create(Program* program, const char* name) {
    require(name != nullptr, CL_INVALID_VALUE);
    require(program->hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
    auto* k = new Kernel;
    Ref<Kernel> guard(k, true);
    k->program_ = Ref<Program>(program);
    k->name_ = name;
    cl_int firstError = CL_SUCCESS;
    for (unsigned s = 0; s < program->context()->slotCount(); ++s) {
        backend::Kernel bk;
        if (program->builtOn(s)) {
            cl_int err = CL_SUCCESS;
            bk = backend::kernel(program->backend(s), name, &err);
            if (!bk && firstError == CL_SUCCESS) firstError = err;
        }
        k->backend_.push_back(std::move(bk));
    }
    int ref = k->referenceSlot();
    if (ref < 0) fail(firstError != CL_SUCCESS ? firstError : CL_INVALID_KERNEL_NAME);
    backend::kernelInfo(k->backend(ref), CL_KERNEL_NUM_ARGS, k->numArgs_);
    k->args_.resize(k->numArgs_);
    k->applied_.assign(k->backend_.size(), std::vector<uint64_t>(k->numArgs_, 0));
    k->launchedOn_.assign(k->backend_.size(), false);
    k->acceptedSize_.assign(k->backend_.size(), std::vector<size_t>(k->numArgs_, 0));
    k->variants_ = createKernelVariants(program->variants(), k->name_);
    k->readLaunchLimits();
    k->readArgQualifiers();
    program->kernelCreated();
    return guard.detach();
}

Kernel* Kernel::clone(Kernel* source) {
    auto* k = new Kernel;
    Ref<Kernel> guard(k, true);
    k->program_ = source->program_;
    k->name_ = source->name_;
    k->numArgs_ = source->numArgs_;
    for (const backend::Kernel& b : source->backend_) {
        backend::Kernel c;
        if (b) {
            cl_int err = CL_SUCCESS;
            c = backend::cloneKernel(b.get(), &err);
            if (!c) fail(err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES);
        }
        k->backend_.push_back(std::move(c));
    }
    {
        std::lock_guard lock(source->argsMutex_);
        k->args_ = source->args_;
    }
    k->applied_.assign(k->backend_.size(), std::vector<uint64_t>(k->numArgs_, 0));  // clones hold them, unknown to us
    k->launchedOn_.assign(k->backend_.size(), false);
    k->acceptedSize_.assign(k->backend_.size(), std::vector<size_t>(k->numArgs_, 0));
    k->variants_ = createKernelVariants(k->program_->variants(), k->name_);
    k->readLaunchLimits();
    k->qualifiers_ = source->qualifiers_;
    k->program_->kernelCreated();
    return guard.detach();
}

Kernel::~Kernel() {
    backend_.clear();  // before the program hears of it: a build needs the backend kernels gone
    if (program_) program_->kernelReleased();
}

void Kernel::readLaunchLimits() {
    workGroupInfo(CL_KERNEL_WORK_GROUP_SIZE, sizeof maxWorkGroupSize_, &maxWorkGroupSize_, nullptr);
    workGroupInfo(CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof requiredLocal_, requiredLocal_, nullptr);
}

void Kernel::readArgQualifiers() {
    qualifiers_.assign(numArgs_, 0);
    cl_kernel k = backend(referenceSlot());
    for (cl_uint i = 0; i < numArgs_; ++i) {
        cl_kernel_arg_address_qualifier q = 0;
        if (backend::kernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, q) == CL_SUCCESS)
            qualifiers_[i] = q;
    }
}

int Kernel::referenceSlot() const {
    unsigned primary = Backends::instance().primarySlot();
    if (primary < backend_.size() && backend_[primary]) return static_cast<int>(primary);
    for (size_t s = 0; s < backend_.size(); ++s)
        if (backend_[s]) return static_cast<int>(s);
    return -1;
}

void Kernel::setArg(cl_uint index, size_t size, const void* value) {
    require(index < numArgs_, CL_INVALID_ARG_INDEX);
    StoredKernelArg arg;
    arg.set = true;
    arg.size = size;
    // A value the size of a handle that names one of our memory objects or samplers is that object
    // (this is how every OpenCL implementation reads such arguments).
    if (value && size == sizeof(cl_mem)) {
        void* h = *static_cast<void* const*>(value);
        if (auto m = fromHandle<Mem>(static_cast<cl_mem>(h))) {
            require(m->context() == context(), CL_INVALID_MEM_OBJECT);
            arg.mem = WeakRef<Mem>(m);
        } else if (auto s = fromHandle<Sampler>(static_cast<cl_sampler>(h))) {
            require(s->context() == context(), CL_INVALID_SAMPLER);
            arg.sampler = WeakRef<Sampler>(s);
        }
    }
    if (!arg.mem && !arg.sampler) {
        setValueArg(index, size, value);
        return;
    }
    {
        // Loops often set every argument before every launch: one set to the object it already
        // names changes nothing (the backends keep it, and launches need not give it again).
        std::lock_guard lock(argsMutex_);
        const StoredKernelArg& now = args_[index];
        if (now.set && now.size == size &&
            ((arg.mem && now.mem && now.mem.sameObject(arg.mem)) ||
             (arg.sampler && now.sampler && now.sampler.sameObject(arg.sampler))))
            return;
    }
    arg.stamp = ++lastStamp;  // only for a change: a shared counter, and loops set unchanged arguments
    const cl_kernel_arg_address_qualifier q = qualifiers_[index];  // 0: not known, not checked
    // A memory object for an argument: check it really is a pointer/image/sampler argument. The
    // backends get it at the next launch, as the slot's backend memory object.
    const bool pointer = q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT;
    if (arg.mem && q != 0) require(pointer, CL_INVALID_ARG_VALUE);
    // A sampler for a buffer argument: the backend would take its sampler for a memory object.
    if (arg.sampler && q != 0) require(!pointer, CL_INVALID_MEM_OBJECT);
    std::lock_guard lock(argsMutex_);
    std::swap(args_[index], arg);
}

void Kernel::setValueArg(cl_uint index, size_t size, const void* value) {
    const cl_kernel_arg_address_qualifier q = qualifiers_[index];  // 0: not known, not checked
    // A global/constant pointer takes one of our memory objects or NULL; any other handle-sized
    // value must not reach the backend, which would take it for one of its own objects.
    if (value && size == sizeof(cl_mem) && *static_cast<void* const*>(value) != nullptr)
        require(q != CL_KERNEL_ARG_ADDRESS_GLOBAL && q != CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_INVALID_MEM_OBJECT);
    StoredKernelArg old;  // what the argument named before, let go of after the locks
    std::lock_guard argsLock(argsMutex_);
    StoredKernelArg& now = args_[index];
    // Loops often set every argument before every launch: one set to what it already is changes
    // nothing (the backends keep it, and launches need not give it again).
    if (now.set && now.size == size && !now.mem && !now.sampler &&
        (value ? now.value.size() == size && std::memcmp(now.value.data(), value, size) == 0 : now.value.empty()))
        return;
    const uint64_t stamp = ++lastStamp;
    // Let the backends judge sizes and kinds they know (local size 0, wrong value size, ...):
    // every one of them, since the launch may run on any (NVIDIA accepts what PoCL refuses),
    // unless it accepted a value of this size before (acceptedSize_): then the next launch on
    // the slot gives it (applyArgs), and clSetKernelArg costs no backend call.
    auto callsBackend = [&](unsigned s) { return backend(s) && !(value && acceptedBefore(s, index, size)); };
    bool anyCall = false;
    for (size_t slot = 0; slot < backend_.size() && !anyCall; ++slot) anyCall = callsBackend(static_cast<unsigned>(slot));
    // Without a backend call (the common case in a loop) launchMutex_ is not needed: acceptedSize_
    // changes only here, under argsMutex_ too.
    if (anyCall) {
        std::lock_guard launchLock(launchMutex_);
        for (size_t slot = 0; slot < backend_.size(); ++slot) {
            const auto s = static_cast<unsigned>(slot);
            if (!callsBackend(s)) continue;
            applied_[slot][index] = 0;
            counters::add(counters::BackendKernelArgs);
            cl_int err = backend::setArg(backend(s), index, size, value);
            if (err != CL_SUCCESS) fail(err);
            applied_[slot][index] = stamp;
            if (value) acceptedSize_[slot][index] = size;
        }
    }
    // Set in place: a loop that changes a scalar before every launch reuses the value's storage.
    if (now.mem || now.sampler) std::swap(now, old);
    now.set = true;
    now.size = size;
    now.stamp = stamp;
    if (value)
        now.value.assign(static_cast<const unsigned char*>(value), static_cast<const unsigned char*>(value) + size);
    else
        now.value.clear();
}

void Kernel::requireArgsSet() const {
    if (allArgsSet_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(argsMutex_);
    for (const auto& a : args_) require(a.set, CL_INVALID_KERNEL_ARGS);
    allArgsSet_.store(true, std::memory_order_release);
}

std::vector<KernelArg> Kernel::argsForLaunch() const {
    std::lock_guard lock(argsMutex_);
    std::vector<KernelArg> out(args_.size());
    for (size_t i = 0; i < args_.size(); ++i) {
        const StoredKernelArg& a = args_[i];
        require(a.set, CL_INVALID_KERNEL_ARGS);
        out[i].set = true;
        out[i].size = a.size;
        out[i].value = a.value;
        out[i].stamp = a.stamp;
        if (a.mem) {
            out[i].mem = a.mem.lock();
            require(bool(out[i].mem), CL_INVALID_MEM_OBJECT);
        }
        if (a.sampler) {
            out[i].sampler = a.sampler.lock();
            require(bool(out[i].sampler), CL_INVALID_SAMPLER);
        }
    }
    return out;
}

Kernel::LaunchLock::LaunchLock(Kernel& k) : kernel_(k) {
    args_ = k.argsMutex_.try_lock();
    ok_ = args_ && k.launchMutex_.try_lock();
}

Kernel::LaunchLock::~LaunchLock() {
    if (ok_) kernel_.launchMutex_.unlock();
    if (args_) kernel_.argsMutex_.unlock();
}

void Kernel::applyArgs(cl_kernel k, unsigned slot, const std::vector<KernelArg>& args, unsigned objectsOf) {
    for (cl_uint i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        applyArg(k, slot, i, a.size, a.value, a.mem.get(), a.sampler.get(), a.stamp, objectsOf);
    }
}

void Kernel::applyCurrentArgs(unsigned slot, Mem* const* mems) {
    for (cl_uint i = 0; i < args_.size(); ++i) {
        const StoredKernelArg& a = args_[i];
        applyArg(backend(slot), slot, i, a.size, a.value, mems[i], nullptr, a.stamp, slot);
    }
}

bool Kernel::currentArgsPipeable(unsigned slot, Mem* const* mems) const {
    using Pipe = backend::CallPipe;
    unsigned toGive = 0;
    for (cl_uint i = 0; i < args_.size(); ++i) {
        const StoredKernelArg& a = args_[i];
        if (given(slot, i, a.stamp)) continue;
        if (!mems[i] && (a.value.size() > Pipe::kValueBytes || (a.value.empty() && a.size != 0))) return false;
        if (++toGive > Pipe::kMaxArgs) return false;
    }
    return true;
}

void Kernel::pipeCurrentArgs(unsigned slot, Mem* const* mems, backend::CallPipe::Launch& launch) {
    for (cl_uint i = 0; i < args_.size(); ++i) {
        const StoredKernelArg& a = args_[i];
        if (given(slot, i, a.stamp)) continue;
        backend::CallPipe::Arg& out = launch.args[launch.argCount++];
        out.index = i;
        out.size = a.size;
        out.isMem = mems[i] != nullptr;
        out.hasValue = !a.value.empty();
        if (out.isMem)
            out.mem = mems[i]->backendMem(slot);
        else if (out.hasValue)
            std::memcpy(out.value, a.value.data(), a.value.size());
        counters::add(counters::BackendKernelArgs);
        applied_[slot][i] = a.stamp;
    }
}

void Kernel::applyArg(cl_kernel k, unsigned slot, cl_uint i, size_t size, const std::vector<unsigned char>& value,
                      Mem* mem, Sampler* sampler, uint64_t stamp, unsigned objectsOf) {
    // Only the slot's own kernel is tracked; variants (the split engines') are given everything.
    const bool tracked = k == backend(slot) && objectsOf == slot;
    if (tracked) {
        if (given(slot, i, stamp)) return;
        applied_[slot][i] = 0;  // unknown until the backend took it
    }
    counters::add(counters::BackendKernelArgs);
    cl_int err;
    if (mem) {
        cl_mem m = mem->backendMem(objectsOf);
        err = backend::setArg(k, i, m);
    } else if (sampler) {
        cl_sampler s = sampler->backend(objectsOf);
        err = backend::setArg(k, i, s);
    } else {
        err = backend::setArg(k, i, size, value.empty() ? nullptr : value.data());
    }
    if (err != CL_SUCCESS) fail(err);
    if (tracked) applied_[slot][i] = stamp;
}

bool Kernel::acceptedBefore(unsigned slot, cl_uint index, size_t size) const {
    if (size == 0 || acceptedSize_[slot][index] != size) return false;  // 0: none accepted yet
    // A handle-sized value for an argument that may be a pointer: the backend also judges the
    // value (a handle of its own, or not), so it is asked every time.
    const cl_kernel_arg_address_qualifier q = qualifiers_[index];
    return size != sizeof(cl_mem) || q == CL_KERNEL_ARG_ADDRESS_PRIVATE;
}

cl_int Kernel::info(cl_kernel_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return out.string(name_);
    case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(numArgs_);
    case CL_KERNEL_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(context()->handle());
    case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(program_->handle());
    case CL_KERNEL_ATTRIBUTES: return out.string(backend::kernelInfoString(backend(referenceSlot()), param));
    default: return CL_INVALID_VALUE;
    }
}

cl_int Kernel::workGroupInfo(cl_kernel_work_group_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    auto each = [&](auto init, auto combine) {
        using T = decltype(init);
        T acc = init;
        bool first = true;
        for (unsigned s = 0; s < backend_.size(); ++s) {
            if (!backend_[s]) continue;
            T v{};
            backend::kernelWorkGroupInfo(backend(s), slots()[s].device, param, v);
            acc = first ? v : combine(acc, v);
            first = false;
        }
        return acc;
    };
    int ref = referenceSlot();
    switch (param) {
    case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(each(size_t{0}, [](size_t a, size_t b) { return std::min(a, b); }));
    case CL_KERNEL_LOCAL_MEM_SIZE:
    case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar<cl_ulong>(each(cl_ulong{0}, [](cl_ulong a, cl_ulong b) { return std::max(a, b); }));
    case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: {
        size_t v = 1;
        backend::kernelWorkGroupInfo(backend(ref), slots()[ref].device, param, v);
        return out.scalar<size_t>(v);
    }
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        size_t v[3] = {0, 0, 0};
        backend::kernelWorkGroupInfo(backend(ref), slots()[ref].device, param, v);
        return out.bytes(v, sizeof v);
    }
    case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;  // only for custom devices and built-in kernels
    default: return CL_INVALID_VALUE;
    }
}

cl_int Kernel::argInfo(cl_uint index, cl_kernel_arg_info param, size_t size, void* value, size_t* sizeRet) {
    require(index < numArgs_, CL_INVALID_ARG_INDEX);
    // The backends always have it (Program::build); the application gets it when it asked.
    if (!program_->argInfoRequested()) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
    std::vector<unsigned char> bytes;
    cl_int err = backend::kernelArgInfoBytes(backend(referenceSlot()), index, param, bytes);
    if (err != CL_SUCCESS) return err;
    InfoWriter out(size, value, sizeRet);
    return out.bytes(bytes.data(), bytes.size());
}

}  // namespace hetero
