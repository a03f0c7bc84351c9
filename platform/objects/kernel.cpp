// Kernel objects: creation, arguments, kernel/work-group/argument info.
#include "platform/objects/kernel.hpp"

#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/split/variants.hpp"

#include <algorithm>
#include <cstring>

namespace hetero {
namespace {
const std::vector<Slot>& slots() { return Device::instance()->slots(); }
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
    k->variants_ = createKernelVariants(program->variants(), k->name_);
    k->readLaunchLimits();
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
    k->variants_ = createKernelVariants(k->program_->variants(), k->name_);
    k->readLaunchLimits();
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
        if (Mem* m = fromHandle<Mem>(static_cast<cl_mem>(h))) {
            require(m->context() == context(), CL_INVALID_MEM_OBJECT);
            arg.mem = WeakRef<Mem>(m);
        } else if (Sampler* s = fromHandle<Sampler>(static_cast<cl_sampler>(h))) {
            require(s->context() == context(), CL_INVALID_SAMPLER);
            arg.sampler = WeakRef<Sampler>(s);
        }
    }
    if (!arg.mem && !arg.sampler) {
        if (value) arg.value.assign(static_cast<const unsigned char*>(value), static_cast<const unsigned char*>(value) + size);
        int ref = referenceSlot();
        // A global/constant pointer takes one of our memory objects or NULL; any other handle-sized
        // value must not reach the backend, which would take it for one of its own objects.
        if (value && size == sizeof(cl_mem) && *static_cast<void* const*>(value) != nullptr) {
            cl_kernel_arg_address_qualifier q = 0;
            if (BACKEND(backend_[ref], clGetKernelArgInfo)(backend_[ref], index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q,
                                                           &q, nullptr) == CL_SUCCESS)
                require(q != CL_KERNEL_ARG_ADDRESS_GLOBAL && q != CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_INVALID_MEM_OBJECT);
        }
        // Let the backends judge sizes and kinds they know (local size 0, wrong value size, ...):
        // every one of them, since the launch may run on any (NVIDIA accepts what PoCL refuses).
        for (cl_kernel b : backend_) {
            if (!b) continue;
            cl_int err = BACKEND(b, clSetKernelArg)(b, index, size, value);
            if (err != CL_SUCCESS) fail(err);
        }
    } else {
        // A memory object for an argument: check it really is a pointer/image/sampler argument.
        cl_kernel_arg_address_qualifier q = 0;
        int ref = referenceSlot();
        bool known = BACKEND(backend_[ref], clGetKernelArgInfo)(backend_[ref], index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                                                sizeof q, &q, nullptr) == CL_SUCCESS;
        bool pointer = q == CL_KERNEL_ARG_ADDRESS_GLOBAL || q == CL_KERNEL_ARG_ADDRESS_CONSTANT;
        if (arg.mem && known) require(pointer, CL_INVALID_ARG_VALUE);
        // A sampler for a buffer argument: the backend would take its sampler for a memory object.
        if (arg.sampler && known) require(!pointer, CL_INVALID_MEM_OBJECT);
    }
    std::lock_guard lock(argsMutex_);
    args_[index] = std::move(arg);
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

void Kernel::applyArgs(cl_kernel k, unsigned slot, const std::vector<KernelArg>& args) {
    for (cl_uint i = 0; i < args.size(); ++i) {
        const KernelArg& a = args[i];
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
    // The backends always have it (Program::build); the application gets it when it asked.
    if (!program_->argInfoRequested()) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
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
