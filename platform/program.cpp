// Program objects: creation from source/binary, build/compile/link on every slot, info queries.
#include "platform/program.hpp"

#include "platform/api.hpp"
#include "platform/error.hpp"
#include "platform/info.hpp"
#include "platform/log.hpp"
#include "platform/split.hpp"

#include <cstring>

namespace hetero {
namespace {

const char kBinaryMagic[] = "HETEROBIN1";  // our container: one backend binary per slot

std::string backendString(cl_program p, cl_device_id d, cl_program_build_info param) {
    size_t n = 0;
    if (BACKEND(p, clGetProgramBuildInfo)(p, d, param, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
    std::string s(n, '\0');
    BACKEND(p, clGetProgramBuildInfo)(p, d, param, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

std::string programString(cl_program p, cl_program_info param) {
    size_t n = 0;
    if (BACKEND(p, clGetProgramInfo)(p, param, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
    std::string s(n, '\0');
    BACKEND(p, clGetProgramInfo)(p, param, n, s.data(), nullptr);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

const std::vector<Slot>& slots() { return Device::instance()->slots(); }

}  // namespace

Program* Program::fromSource(Context* context, std::string source) {
    auto* p = new Program;
    Ref<Program> guard(p, true);
    p->context_ = Ref<Context>(context);
    p->source_ = std::move(source);
    const char* text = p->source_.c_str();
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_int err = CL_SUCCESS;
        cl_context c = context->backend(s);
        cl_program bp = BACKEND(c, clCreateProgramWithSource)(c, 1, &text, nullptr, &err);
        if (!bp) fail(err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES);
        p->backend_.push_back(bp);
        p->status_.push_back(CL_BUILD_NONE);
    }
    return guard.detach();
}

Program* Program::fromBinary(Context* context, const unsigned char* binary, size_t size) {
    // Parse the container and check it was made for these very slots.
    size_t pos = 0;
    auto take = [&](void* out, size_t n) {
        require(pos + n <= size, CL_INVALID_BINARY);
        std::memcpy(out, binary + pos, n);
        pos += n;
    };
    char magic[sizeof kBinaryMagic];
    take(magic, sizeof magic);
    require(std::memcmp(magic, kBinaryMagic, sizeof magic) == 0, CL_INVALID_BINARY);
    uint32_t count = 0;
    take(&count, sizeof count);
    require(count == context->slotCount(), CL_INVALID_BINARY);
    auto* p = new Program;
    Ref<Program> guard(p, true);
    p->context_ = Ref<Context>(context);
    for (unsigned s = 0; s < count; ++s) {
        uint32_t nameLength = 0;
        take(&nameLength, sizeof nameLength);
        std::string name(nameLength, '\0');
        take(name.data(), nameLength);
        require(name == slots()[s].deviceName, CL_INVALID_BINARY);
        uint64_t length = 0;
        take(&length, sizeof length);
        require(pos + length <= size, CL_INVALID_BINARY);
        const unsigned char* bytes = binary + pos;
        size_t n = length;
        pos += length;
        cl_int err = CL_SUCCESS, status = CL_SUCCESS;
        cl_context c = context->backend(s);
        cl_device_id d = slots()[s].device;
        cl_program bp = BACKEND(c, clCreateProgramWithBinary)(c, 1, &d, &n, &bytes, &status, &err);
        require(bp != nullptr, CL_INVALID_BINARY);
        p->backend_.push_back(bp);
        p->status_.push_back(CL_BUILD_NONE);
    }
    return guard.detach();
}

Program* Program::link(Context* context, const std::vector<Program*>& inputs, const char* options) {
    auto* p = new Program;
    Ref<Program> guard(p, true);
    p->context_ = Ref<Context>(context);
    p->options_ = options ? options : "";
    bool any = false;
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        std::vector<cl_program> in;
        for (Program* i : inputs) in.push_back(i->backend_[s]);
        cl_int err = CL_SUCCESS;
        cl_context c = context->backend(s);
        cl_device_id d = slots()[s].device;
        cl_program bp = BACKEND(c, clLinkProgram)(c, 1, &d, options, static_cast<cl_uint>(in.size()), in.data(), nullptr,
                                                  nullptr, &err);
        // Errors about the request itself (options; inputs that are no compiled objects or
        // libraries) are the same on every slot: the application's answer.
        if (err == CL_INVALID_LINKER_OPTIONS || err == CL_INVALID_OPERATION) fail(err);
        p->backend_.push_back(bp);
        p->status_.push_back(bp && err == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR);
        any = any || (bp && err == CL_SUCCESS);
        if (!bp || err != CL_SUCCESS) HETERO_LOG(Info, "link failed on slot %u: %s", s, errorName(err));
    }
    if (!any) {
        // The specification returns a program object on link failure only when it could make one.
        fail(CL_LINK_PROGRAM_FAILURE);
    }
    return guard.detach();
}

Program::~Program() {
    for (cl_program p : backend_)
        if (p) BACKEND(p, clReleaseProgram)(p);
}

std::shared_ptr<ProgramVariants> Program::variants() const {
    std::lock_guard lock(mutex_);
    return variants_;
}

bool Program::builtAnywhere() const {
    std::lock_guard lock(mutex_);
    for (auto s : status_)
        if (s == CL_BUILD_SUCCESS) return true;
    return false;
}

bool Program::hasExecutable() const {
    int ref = referenceSlot();
    if (ref < 0) return false;
    cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_NONE;
    cl_program bp = backend_[ref];
    if (BACKEND(bp, clGetProgramBuildInfo)(bp, slots()[ref].device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) !=
        CL_SUCCESS)
        return true;  // a backend that cannot tell: let its clCreateKernel decide
    return type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

int Program::referenceSlot() const {
    std::lock_guard lock(mutex_);
    unsigned primary = Backends::instance().primarySlot();
    if (primary < status_.size() && status_[primary] == CL_BUILD_SUCCESS) return static_cast<int>(primary);
    for (size_t s = 0; s < status_.size(); ++s)
        if (status_[s] == CL_BUILD_SUCCESS) return static_cast<int>(s);
    return -1;
}

cl_int Program::build(const char* options, bool compileOnly, const std::vector<Program*>& headers,
                      const std::vector<std::string>& headerNames) {
    require(kernels_.load() == 0, CL_INVALID_OPERATION);
    bool expected = false;
    require(building_.compare_exchange_strong(expected, true), CL_INVALID_OPERATION);
    struct Done {
        std::atomic<bool>& flag;
        ~Done() { flag = false; }
    } done{building_};

    std::vector<cl_build_status> status(backend_.size(), CL_BUILD_ERROR);
    bool any = false, badOptions = false, refused = true;
    for (unsigned s = 0; s < backend_.size(); ++s) {
        cl_program bp = backend_[s];
        cl_device_id d = slots()[s].device;
        cl_int err;
        if (compileOnly) {
            std::vector<cl_program> hs;
            std::vector<const char*> names;
            for (size_t i = 0; i < headers.size(); ++i) {
                hs.push_back(headers[i]->backend_[s]);
                names.push_back(headerNames[i].c_str());
            }
            err = BACKEND(bp, clCompileProgram)(bp, 1, &d, options, static_cast<cl_uint>(hs.size()),
                                                 hs.empty() ? nullptr : hs.data(), names.empty() ? nullptr : names.data(),
                                                 nullptr, nullptr);
        } else {
            err = BACKEND(bp, clBuildProgram)(bp, 1, &d, options, nullptr, nullptr);
        }
        // Options one backend rejects are invalid for the device: a launch may run on that backend.
        if (err == CL_INVALID_BUILD_OPTIONS || err == CL_INVALID_COMPILER_OPTIONS) badOptions = true;
        if (err != CL_INVALID_OPERATION) refused = false;
        if (err == CL_SUCCESS) {
            status[s] = CL_BUILD_SUCCESS;
            any = true;
        } else {
            HETERO_LOG(Info, "%s failed on %s: %s", compileOnly ? "compile" : "build", slots()[s].describe().c_str(),
                       errorName(err));
        }
    }
    // Every backend refused the request itself (e.g. compiling a program made from a binary):
    // nothing was built, the program stays as it was.
    if (refused) return CL_INVALID_OPERATION;
    // The split variants: analysed now, built on the slots when a launch first wants to split
    // (or now, HETERO_SPLIT_BUILD=eager). Never fails the build.
    std::shared_ptr<ProgramVariants> variants;
    if (any && !compileOnly && !source_.empty() && splittingConfigured()) {
        try {
            variants = buildProgramVariants(context_.get(), source_, options ? options : "");
        } catch (const std::exception& e) {
            HETERO_LOG(Warn, "kernel transformation failed (%s); launches run unsplit", e.what());
        } catch (const Error& e) {
            HETERO_LOG(Warn, "split variants failed (%s); launches run unsplit", errorName(e.code));
        }
    }
    {
        std::lock_guard lock(mutex_);
        status_ = status;
        options_ = options ? options : "";
        variants_ = variants;
    }
    if (badOptions) return compileOnly ? CL_INVALID_COMPILER_OPTIONS : CL_INVALID_BUILD_OPTIONS;
    if (any) return CL_SUCCESS;
    return compileOnly ? CL_COMPILE_PROGRAM_FAILURE : CL_BUILD_PROGRAM_FAILURE;
}

std::vector<unsigned char> Program::binaryContainer() const {
    std::vector<unsigned char> out(kBinaryMagic, kBinaryMagic + sizeof kBinaryMagic);
    auto put = [&](const void* p, size_t n) {
        out.insert(out.end(), static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
    };
    uint32_t count = static_cast<uint32_t>(backend_.size());
    put(&count, sizeof count);
    for (unsigned s = 0; s < backend_.size(); ++s) {
        const std::string& name = slots()[s].deviceName;
        uint32_t nameLength = static_cast<uint32_t>(name.size());
        put(&nameLength, sizeof nameLength);
        put(name.data(), name.size());
        size_t n = 0;
        BACKEND(backend_[s], clGetProgramInfo)(backend_[s], CL_PROGRAM_BINARY_SIZES, sizeof n, &n, nullptr);
        std::vector<unsigned char> bytes(n);
        unsigned char* ptr = bytes.data();
        if (n) BACKEND(backend_[s], clGetProgramInfo)(backend_[s], CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr);
        uint64_t length = n;
        put(&length, sizeof length);
        put(bytes.data(), n);
    }
    return out;
}

std::string Program::log() const {
    std::string all;
    for (unsigned s = 0; s < backend_.size(); ++s) {
        std::string l = backendString(backend_[s], slots()[s].device, CL_PROGRAM_BUILD_LOG);
        if (l.empty()) continue;
        if (backend_.size() > 1) all += "--- " + slots()[s].describe() + " ---\n";
        all += l;
        if (all.back() != '\n') all += '\n';
    }
    return all;
}

cl_int Program::info(cl_program_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    int ref = referenceSlot();
    switch (param) {
    case CL_PROGRAM_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_PROGRAM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_PROGRAM_NUM_DEVICES: return out.scalar<cl_uint>(1);
    case CL_PROGRAM_DEVICES: return out.scalar<cl_device_id>(Device::instance()->handle());
    case CL_PROGRAM_SOURCE: return out.string(source_);
    case CL_PROGRAM_IL: return out.bytes(nullptr, 0);
    case CL_PROGRAM_BINARY_SIZES: return out.scalar<size_t>(binaryContainer().size());
    case CL_PROGRAM_BINARIES: {
        auto bin = binaryContainer();
        if (value) {
            require(size >= sizeof(unsigned char*), CL_INVALID_VALUE);
            unsigned char* dst = *static_cast<unsigned char**>(value);
            if (dst) std::memcpy(dst, bin.data(), bin.size());  // NULL entries are skipped, as specified
        }
        if (sizeRet) *sizeRet = sizeof(unsigned char*);
        return CL_SUCCESS;
    }
    case CL_PROGRAM_NUM_KERNELS: {
        require(ref >= 0 && hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
        size_t n = 0;
        BACKEND(backend_[ref], clGetProgramInfo)(backend_[ref], CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr);
        return out.scalar<size_t>(n);
    }
    case CL_PROGRAM_KERNEL_NAMES:
        require(ref >= 0 && hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
        return out.string(programString(backend_[ref], CL_PROGRAM_KERNEL_NAMES));
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: return out.scalar<cl_bool>(CL_FALSE);
    default: return CL_INVALID_VALUE;
    }
}

cl_int Program::buildInfo(cl_program_build_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_PROGRAM_BUILD_STATUS: {
        std::lock_guard lock(mutex_);
        if (building_) return out.scalar<cl_build_status>(CL_BUILD_IN_PROGRESS);
        cl_build_status st = CL_BUILD_NONE;
        for (auto s : status_) {
            if (s == CL_BUILD_SUCCESS) return out.scalar<cl_build_status>(CL_BUILD_SUCCESS);
            if (s == CL_BUILD_ERROR) st = CL_BUILD_ERROR;
        }
        return out.scalar<cl_build_status>(st);
    }
    case CL_PROGRAM_BUILD_OPTIONS: {
        std::lock_guard lock(mutex_);
        return out.string(options_);
    }
    case CL_PROGRAM_BUILD_LOG: return out.string(log());
    case CL_PROGRAM_BINARY_TYPE: {
        int ref = referenceSlot();
        cl_program_binary_type t = CL_PROGRAM_BINARY_TYPE_NONE;
        unsigned s = ref >= 0 ? static_cast<unsigned>(ref) : 0;
        BACKEND(backend_[s], clGetProgramBuildInfo)(backend_[s], slots()[s].device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr);
        return out.scalar(t);
    }
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t most = 0;
        for (unsigned s = 0; s < backend_.size(); ++s) {
            size_t v = 0;
            BACKEND(backend_[s], clGetProgramBuildInfo)(backend_[s], slots()[s].device, param, sizeof v, &v, nullptr);
            most = std::max(most, v);
        }
        return out.scalar<size_t>(most);
    }
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero

using namespace hetero;

namespace {

Program* programOf(cl_program program) {
    Program* p = fromHandle<Program>(program);
    require(p != nullptr, CL_INVALID_PROGRAM);
    return p;
}

void checkDeviceList(cl_uint num_devices, const cl_device_id* device_list) {
    require((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
}

using BuildNotify = void(CL_CALLBACK*)(cl_program, void*);
}  // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                 const size_t* lengths, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        Context* c = contextOf(context);
        require(count > 0 && strings != nullptr, CL_INVALID_VALUE);
        std::string source;
        for (cl_uint i = 0; i < count; ++i) {
            require(strings[i] != nullptr, CL_INVALID_VALUE);
            if (lengths && lengths[i])
                source.append(strings[i], lengths[i]);
            else
                source.append(strings[i]);
        }
        return Program::fromSource(c, std::move(source))->handle();
    });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                                 const size_t* lengths, const unsigned char** binaries,
                                                 cl_int* binary_status, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        Context* c = contextOf(context);
        require(num_devices > 0 && device_list != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
        require(lengths != nullptr && binaries != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(lengths[i] > 0 && binaries[i] != nullptr, CL_INVALID_VALUE);
        try {
            Program* p = Program::fromBinary(c, binaries[0], lengths[0]);
            if (binary_status)
                for (cl_uint i = 0; i < num_devices; ++i) binary_status[i] = CL_SUCCESS;
            return p->handle();
        } catch (const Error& e) {
            if (binary_status)
                for (cl_uint i = 0; i < num_devices; ++i) binary_status[i] = CL_INVALID_BINARY;
            throw;
        }
    });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* device_list, const char* kernel_names,
                                                         cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        contextOf(context);
        require(num_devices > 0 && device_list != nullptr && kernel_names != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
        fail(CL_INVALID_VALUE);  // the device has no built-in kernels
    });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        contextOf(context);
        require(il != nullptr && length > 0, CL_INVALID_VALUE);
        fail(CL_INVALID_OPERATION);  // CL_DEVICE_IL_VERSION is empty: no intermediate language
    });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
    Program* p = fromHandle<Program>(program);
    if (!p) return CL_INVALID_PROGRAM;
    p->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
    Program* p = fromHandle<Program>(program);
    if (!p) return CL_INVALID_PROGRAM;
    p->release();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                  const char* options, BuildNotify pfn_notify, void* user_data) {
    return guarded([&] {
        Program* p = programOf(program);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        cl_int err = p->build(options, false, {}, {});
        if (pfn_notify) pfn_notify(program, user_data);  // the build is done when we get here
        return err;
    });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                    const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                    const char** header_include_names, BuildNotify pfn_notify, void* user_data) {
    return guarded([&] {
        Program* p = programOf(program);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        require((num_input_headers == 0) == (input_headers == nullptr), CL_INVALID_VALUE);
        require((num_input_headers == 0) == (header_include_names == nullptr), CL_INVALID_VALUE);
        std::vector<Program*> headers;
        std::vector<std::string> names;
        for (cl_uint i = 0; i < num_input_headers; ++i) {
            Program* h = programOf(input_headers[i]);
            require(h->context() == p->context(), CL_INVALID_CONTEXT);
            require(header_include_names[i] != nullptr, CL_INVALID_VALUE);
            headers.push_back(h);
            names.emplace_back(header_include_names[i]);
        }
        cl_int err = p->build(options, true, headers, names);
        if (pfn_notify) pfn_notify(program, user_data);
        return err;
    });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                     const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                                     BuildNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        Context* c = contextOf(context);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        require(num_input_programs > 0 && input_programs != nullptr, CL_INVALID_VALUE);
        std::vector<Program*> inputs;
        for (cl_uint i = 0; i < num_input_programs; ++i) {
            Program* in = programOf(input_programs[i]);
            require(in->context() == c, CL_INVALID_CONTEXT);
            inputs.push_back(in);
        }
        Program* p = Program::link(c, inputs, options);
        if (pfn_notify) pfn_notify(p->handle(), user_data);
        return p->handle();
    });
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
    return fromHandle<Platform>(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        return programOf(program)->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        Program* p = programOf(program);
        require(isOurDevice(device), CL_INVALID_DEVICE);
        return p->buildInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program, BuildNotify pfn_notify, void* user_data) {
    return guarded([&] {
        programOf(program);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        return CL_INVALID_OPERATION;  // no program-scope global destructors
    });
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                      const void* spec_value) {
    return guarded([&] {
        programOf(program);
        return CL_INVALID_OPERATION;  // programs are never created from IL
    });
}
