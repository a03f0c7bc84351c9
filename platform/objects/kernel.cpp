// Kernel objects: creation, arguments, kernel/work-group/argument info.
#include "platform/objects/kernel.hpp"

#include "platform/api/api.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/split/split.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace hetero {
namespace {
const std::vector<Slot>& slots() { return Device::instance()->slots(); }

std::atomic<uint64_t> lastStamp{0};

std::vector<std::string> splitNames(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < s.size()) {
        size_t end = s.find(';', start);
        if (end == std::string::npos) end = s.size();
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}
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
        cl_kernel bk = nullptr;
        if (program->builtOn(s)) {
            cl_int err = CL_SUCCESS;
            cl_program bp = program->backend(s);
            bk = BACKEND(bp, clCreateKernel)(bp, name, &err);
            if (!bk && firstError == CL_SUCCESS) firstError = err;
        }
        k->backend_.push_back(bk);
    }
    int ref = k->referenceSlot();
    if (ref < 0) fail(firstError != CL_SUCCESS ? firstError : CL_INVALID_KERNEL_NAME);
    BACKEND(k->backend_[ref], clGetKernelInfo)(k->backend_[ref], CL_KERNEL_NUM_ARGS, sizeof k->numArgs_, &k->numArgs_, nullptr);
    k->args_.resize(k->numArgs_);
    k->applied_.assign(k->backend_.size(), std::vector<uint64_t>(k->numArgs_, 0));
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
    for (cl_kernel b : source->backend_) {
        cl_kernel c = nullptr;
        if (b) {
            cl_int err = CL_SUCCESS;
            c = BACKEND(b, clCloneKernel)(b, &err);
            if (!c) fail(err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES);
        }
        k->backend_.push_back(c);
    }
    {
        std::lock_guard lock(source->argsMutex_);
        k->args_ = source->args_;
    }
    k->applied_.assign(k->backend_.size(), std::vector<uint64_t>(k->numArgs_, 0));  // clones hold them, unknown to us
    k->variants_ = createKernelVariants(k->program_->variants(), k->name_);
    k->readLaunchLimits();
    k->qualifiers_ = source->qualifiers_;
    k->program_->kernelCreated();
    return guard.detach();
}

Kernel::~Kernel() {
    for (cl_kernel b : backend_)
        if (b) BACKEND(b, clReleaseKernel)(b);
    if (program_) program_->kernelReleased();
}

void Kernel::readLaunchLimits() {
    workGroupInfo(CL_KERNEL_WORK_GROUP_SIZE, sizeof maxWorkGroupSize_, &maxWorkGroupSize_, nullptr);
    workGroupInfo(CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof requiredLocal_, requiredLocal_, nullptr);
}

void Kernel::readArgQualifiers() {
    qualifiers_.assign(numArgs_, 0);
    cl_kernel k = backend_[referenceSlot()];
    for (cl_uint i = 0; i < numArgs_; ++i) {
        cl_kernel_arg_address_qualifier q = 0;
        if (BACKEND(k, clGetKernelArgInfo)(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) == CL_SUCCESS)
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
    KernelArg arg;
    arg.set = true;
    arg.size = size;
    arg.stamp = ++lastStamp;
    // A value the size of a handle that names one of our memory objects or samplers is that object
    // (this is how every OpenCL implementation reads such arguments).
    if (value && size == sizeof(cl_mem)) {
        void* h = *static_cast<void* const*>(value);
        if (Mem* m = fromHandle<Mem>(static_cast<cl_mem>(h))) {
            require(m->context() == context(), CL_INVALID_MEM_OBJECT);
            arg.mem = Ref<Mem>(m);
        } else if (Sampler* s = fromHandle<Sampler>(static_cast<cl_sampler>(h))) {
            require(s->context() == context(), CL_INVALID_SAMPLER);
            arg.sampler = Ref<Sampler>(s);
        }
    }
    arg.memSerial = arg.mem ? arg.mem->serial() : 0;
    {
        // Loops often set every argument before every launch: one set to what it already is
        // changes nothing (the backends keep it, and launches need not give it again).
        std::lock_guard lock(argsMutex_);
        const KernelArg& now = args_[index];
        const bool sameValue = !arg.mem && !arg.sampler && !now.mem && !now.sampler &&
                               (value ? now.value.size() == size && std::memcmp(now.value.data(), value, size) == 0
                                      : now.value.empty());
        if (now.set && now.size == size &&
            (sameValue || (arg.mem && now.mem && now.memSerial == arg.memSerial) ||
             (arg.sampler && now.sampler.get() == arg.sampler.get())))
            return;
    }
    const cl_kernel_arg_address_qualifier q = qualifiers_[index];  // 0: not known, not checked
    if (!arg.mem && !arg.sampler) {
        if (value) arg.value.assign(static_cast<const unsigned char*>(value), static_cast<const unsigned char*>(value) + size);
        // A global/constant pointer takes one of our memory objects or NULL; any other handle-sized
        // value must not reach the backend, which would take it for one of its own objects.
        if (value && size == sizeof(cl_mem) && *static_cast<void* const*>(value) != nullptr)
            require(q != CL_KERNEL_ARG_ADDRESS_GLOBAL && q != CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_INVALID_MEM_OBJECT);
        // Let the backends judge sizes and kinds they know (local size 0, wrong value size, ...):
        // every one of them, since the launch may run on any (NVIDIA accepts what PoCL refuses).
        // What they were given is then what a launch would give them (applyArgs).
        std::lock_guard argsLock(argsMutex_);
        std::lock_guard launchLock(launchMutex_);
        for (size_t slot = 0; slot < backend_.size(); ++slot) {
            cl_kernel b = backend_[slot];
            if (!b) continue;
            applied_[slot][index] = 0;
            cl_int err = BACKEND(b, clSetKernelArg)(b, index, size, value);
            if (err != CL_SUCCESS) fail(err);
            applied_[slot][index] = arg.stamp;
        }
        std::swap(args_[index], arg);  // the old one goes after the locks
        return;
    }
    // A memory object for an argument: check it really is a pointer/image/sampler argument. The
    // backends get it at the next launch, as the slot's backend memory object.
    if (arg.mem && q != 0)
        require(q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_INVALID_ARG_VALUE);
    std::lock_guard lock(argsMutex_);
    std::swap(args_[index], arg);
}

void Kernel::requireArgsSet() const {
    std::lock_guard lock(argsMutex_);
    for (const auto& a : args_) require(a.set, CL_INVALID_KERNEL_ARGS);
}

std::vector<KernelArg> Kernel::argsForLaunch() const {
    std::lock_guard lock(argsMutex_);
    for (const auto& a : args_) require(a.set, CL_INVALID_KERNEL_ARGS);
    return args_;
}

Kernel::LaunchLock::LaunchLock(Kernel& k) : kernel_(k) {
    args_ = k.argsMutex_.try_lock();
    ok_ = args_ && k.launchMutex_.try_lock();
}

Kernel::LaunchLock::~LaunchLock() {
    if (ok_) kernel_.launchMutex_.unlock();
    if (args_) kernel_.argsMutex_.unlock();
}

void Kernel::applyArgs(cl_kernel k, unsigned slot, const std::vector<KernelArg>& args) {
    // Only the slot's own kernel is tracked; variants (the split engines') are given everything.
    std::vector<uint64_t>* applied = k == backend_[slot] ? &applied_[slot] : nullptr;
    for (cl_uint i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
        if (applied) {
            if ((*applied)[i] == a.stamp && a.stamp != 0) continue;
            (*applied)[i] = 0;  // unknown until the backend took it
        }
        cl_int err;
        if (a.mem) {
            cl_mem m = a.mem->backendMem(slot);
            err = BACKEND(k, clSetKernelArg)(k, i, sizeof m, &m);
        } else if (a.sampler) {
            cl_sampler s = a.sampler->backend(slot);
            err = BACKEND(k, clSetKernelArg)(k, i, sizeof s, &s);
        } else {
            err = BACKEND(k, clSetKernelArg)(k, i, a.size, a.value.empty() ? nullptr : a.value.data());
        }
        if (err != CL_SUCCESS) fail(err);
        if (applied) (*applied)[i] = a.stamp;
    }
}

cl_int Kernel::info(cl_kernel_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_KERNEL_FUNCTION_NAME: return out.string(name_);
    case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(numArgs_);
    case CL_KERNEL_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(context()->handle());
    case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(program_->handle());
    case CL_KERNEL_ATTRIBUTES: {
        cl_kernel k = backend_[referenceSlot()];
        size_t n = 0;
        BACKEND(k, clGetKernelInfo)(k, param, 0, nullptr, &n);
        std::string s(n, '\0');
        if (n) BACKEND(k, clGetKernelInfo)(k, param, n, s.data(), nullptr);
        while (!s.empty() && s.back() == '\0') s.pop_back();
        return out.string(s);
    }
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
            BACKEND(backend_[s], clGetKernelWorkGroupInfo)(backend_[s], slots()[s].device, param, sizeof v, &v, nullptr);
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
        BACKEND(backend_[ref], clGetKernelWorkGroupInfo)(backend_[ref], slots()[ref].device, param, sizeof v, &v, nullptr);
        return out.scalar<size_t>(v);
    }
    case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
        size_t v[3] = {0, 0, 0};
        BACKEND(backend_[ref], clGetKernelWorkGroupInfo)(backend_[ref], slots()[ref].device, param, sizeof v, v, nullptr);
        return out.bytes(v, sizeof v);
    }
    case CL_KERNEL_GLOBAL_WORK_SIZE: return CL_INVALID_VALUE;  // only for custom devices and built-in kernels
    default: return CL_INVALID_VALUE;
    }
}

cl_int Kernel::argInfo(cl_uint index, cl_kernel_arg_info param, size_t size, void* value, size_t* sizeRet) {
    require(index < numArgs_, CL_INVALID_ARG_INDEX);
    cl_kernel k = backend_[referenceSlot()];
    size_t n = 0;
    cl_int err = BACKEND(k, clGetKernelArgInfo)(k, index, param, 0, nullptr, &n);
    if (err != CL_SUCCESS) return err;
    std::vector<unsigned char> bytes(n);
    if (n) BACKEND(k, clGetKernelArgInfo)(k, index, param, n, bytes.data(), nullptr);
    InfoWriter out(size, value, sizeRet);
    return out.bytes(bytes.data(), bytes.size());
}

}  // namespace hetero

using namespace hetero;

namespace {
Kernel* kernelOf(cl_kernel kernel) {
    Kernel* k = fromHandle<Kernel>(kernel);
    require(k != nullptr, CL_INVALID_KERNEL);
    return k;
}
}  // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_kernel {
        Program* p = fromHandle<Program>(program);
        require(p != nullptr, CL_INVALID_PROGRAM);
        return Kernel::create(p, kernel_name)->handle();
    });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
    return guarded([&] {
        Program* p = fromHandle<Program>(program);
        require(p != nullptr, CL_INVALID_PROGRAM);
        require(p->hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
        size_t n = 0;
        cl_int err = p->info(CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n);
        if (err != CL_SUCCESS) return err;
        std::string names(n, '\0');
        p->info(CL_PROGRAM_KERNEL_NAMES, n, names.data(), nullptr);
        names.resize(std::strlen(names.c_str()));
        auto list = splitNames(names);
        require(!kernels || num_kernels >= list.size(), CL_INVALID_VALUE);
        if (kernels) {
            std::vector<cl_kernel> made;
            try {
                for (const auto& name : list) made.push_back(Kernel::create(p, name.c_str())->handle());
            } catch (...) {
                for (cl_kernel k : made) fromHandle<Kernel>(k)->release();
                throw;
            }
            std::copy(made.begin(), made.end(), kernels);
        }
        if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(list.size());
        return CL_SUCCESS;
    });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_kernel { return Kernel::clone(kernelOf(source_kernel))->handle(); });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
    Kernel* k = fromHandle<Kernel>(kernel);
    if (!k) return CL_INVALID_KERNEL;
    k->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    Kernel* k = fromHandle<Kernel>(kernel);
    if (!k) return CL_INVALID_KERNEL;
    k->release();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
    return guarded([&] {
        kernelOf(kernel)->setArg(arg_index, arg_size, arg_value);
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
    return guarded([&] { return kernelOf(kernel)->info(param_name, param_value_size, param_value, param_value_size_ret); });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        Kernel* k = kernelOf(kernel);
        require(device == nullptr || isOurDevice(device), CL_INVALID_DEVICE);
        return k->workGroupInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                      size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        return kernelOf(kernel)->argInfo(arg_index, param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void* input_value, size_t param_value_size,
                                           void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        kernelOf(kernel);
        require(device == nullptr || isOurDevice(device), CL_INVALID_DEVICE);
        return CL_INVALID_OPERATION;  // the device reports no sub-groups
    });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
    return guarded([&] {
        kernelOf(kernel);
        return CL_INVALID_OPERATION;  // no SVM
    });
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                       const void* param_value) {
    return guarded([&] {
        kernelOf(kernel);
        return CL_INVALID_OPERATION;  // the only defined parameters concern SVM
    });
}
