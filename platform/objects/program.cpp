// Program objects: creation from source/binary, build/compile/link on every slot, info queries.
#include "platform/objects/program.hpp"

#include "devices/backend_objects.hpp"
#include "platform/objects/kept_binaries.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include "platform/split/variants.hpp"

#include <cstring>

namespace hetero {
namespace {

const char kBinaryMagic[] = "HETEROBIN1";  // our container: one backend binary per slot

const std::vector<Slot>& slots() { return Device::instance()->slots(); }

}  // namespace

Program* Program::fromSource(Context* context, std::string source) {
    auto* p = new Program;
    Ref<Program> guard(p, true);
    p->context_ = Ref<Context>(context);
    p->source_ = std::move(source);
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_int err = CL_SUCCESS;
        backend::Program bp = backend::programFromSource(context->backend(s), p->source_, &err);
        if (!bp) fail(err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES);
        p->backend_.push_back(std::move(bp));
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
        pos += length;
        backend::Program bp = backend::programFromBinary(context->backend(s), slots()[s].device, bytes, length);
        require(bool(bp), CL_INVALID_BINARY);
        p->backend_.push_back(std::move(bp));
        p->status_.push_back(CL_BUILD_NONE);
    }
    return guard.detach();
}

namespace {
constexpr const char* kArgInfoOption = "-cl-kernel-arg-info";
bool asksArgInfo(const char* options) { return options && std::strstr(options, kArgInfoOption); }
// The options a backend builds with: the application's, plus argument information, without which
// a backend cannot say which arguments are memory objects (PoCL then answers
// CL_KERNEL_ARG_INFO_NOT_AVAILABLE and Kernel::setArg could not refuse a handle that is no memory
// object for a __global argument, which the backend would then take for one of its own).
std::string backendOptions(const char* options) {
    std::string o = options ? options : "";
    if (!asksArgInfo(options)) o += std::string(o.empty() ? "" : " ") + kArgInfoOption;
    return o;
}
}  // namespace

Program* Program::link(Context* context, const std::vector<Program*>& inputs, const char* options) {
    auto* p = new Program;
    Ref<Program> guard(p, true);
    p->context_ = Ref<Context>(context);
    p->options_ = options ? options : "";
    bool asked = asksArgInfo(options);
    for (Program* i : inputs) asked = asked || i->argInfoRequested();
    p->argInfoRequested_ = asked;
    bool any = false;
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        std::vector<cl_program> in;
        for (Program* i : inputs) in.push_back(i->backend(s));
        cl_int err = CL_SUCCESS;
        backend::Program bp = backend::link(context->backend(s), slots()[s].device, options, in, &err);
        // Errors about the request itself (options; inputs that are no compiled objects or
        // libraries) are the same on every slot: the application's answer.
        if (err == CL_INVALID_LINKER_OPTIONS || err == CL_INVALID_OPERATION) fail(err);
        const bool linked = bp && err == CL_SUCCESS;
        p->backend_.push_back(std::move(bp));
        p->status_.push_back(linked ? CL_BUILD_SUCCESS : CL_BUILD_ERROR);
        any = any || linked;
        if (!linked) HETERO_LOG(Info, "link failed on slot %u: %s", s, errorName(err));
    }
    if (!any) {
        // The specification returns a program object on link failure only when it could make one.
        fail(CL_LINK_PROGRAM_FAILURE);
    }
    return guard.detach();
}

Program::~Program() {
    // Split variants built with the program (history) may be compiling still: nothing of a program
    // the application let go of compiles on unseen (event_tail.hpp says why).
    if (variants_) variants_->waitForBuild();
    // Before the split variants' programs (variants_): the order the backends were tested with.
    fromKept_.clear();
    superseded_.clear();
    backend_.clear();
}

cl_program Program::backend(unsigned slot) const {
    std::lock_guard lock(mutex_);
    return slot < fromKept_.size() && fromKept_[slot] ? fromKept_[slot].get() : backend_[slot].get();
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
    if (backend::programBuildInfo(backend(ref), slots()[ref].device, CL_PROGRAM_BINARY_TYPE, type) != CL_SUCCESS)
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
    std::vector<backend::Program> fromKept(backend_.size());
    std::vector<std::string> keptLogs(backend_.size());
    bool any = false, badOptions = false, refused = true;
    const std::string forBackend = backendOptions(options);
    for (unsigned s = 0; s < backend_.size(); ++s) {
        cl_program bp = backend_[s].get();  // as made: a build starts from the source again
        const Slot& slot = slots()[s];
        const bool keep = !compileOnly && !source_.empty() && kept_binaries::keepable(slot, source_, forBackend);
        if (keep) {
            auto kept = kept_binaries::fromKept(slot, context_->backend(s), source_, forBackend);
            if (kept.program) {
                fromKept[s] = std::move(kept.program);
                keptLogs[s] = std::move(kept.log);
                status[s] = CL_BUILD_SUCCESS;
                any = true;
                refused = false;
                continue;
            }
        }
        cl_int err;
        if (compileOnly) {
            std::vector<cl_program> hs;
            std::vector<const char*> names;
            for (size_t i = 0; i < headers.size(); ++i) {
                hs.push_back(headers[i]->backend_[s].get());  // a header is its source
                names.push_back(headerNames[i].c_str());
            }
            err = backend::compile(bp, slot.device, forBackend.c_str(), hs, names);
        } else {
            err = backend::build(bp, slot.device, forBackend.c_str());
        }
        // Options one backend rejects are invalid for the device: a launch may run on that backend.
        if (err == CL_INVALID_BUILD_OPTIONS || err == CL_INVALID_COMPILER_OPTIONS) badOptions = true;
        if (err != CL_INVALID_OPERATION) refused = false;
        if (err == CL_SUCCESS) {
            status[s] = CL_BUILD_SUCCESS;
            any = true;
            if (keep) kept_binaries::keep(slot, bp, source_, forBackend);
        } else {
            HETERO_LOG(Info, "%s failed on %s: %s", compileOnly ? "compile" : "build", slot.describe().c_str(),
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
        for (auto& p : fromKept_)
            if (p) superseded_.push_back(std::move(p));
        fromKept_ = std::move(fromKept);
        keptLogs_ = std::move(keptLogs);
        options_ = options ? options : "";
        variants_ = variants;
        argInfoRequested_ = asksArgInfo(options);
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
        std::vector<unsigned char> bytes = backend::programBinary(backend(s));
        uint64_t length = bytes.size();
        put(&length, sizeof length);
        put(bytes.data(), bytes.size());
    }
    return out;
}

std::string Program::log() const {
    std::string all;
    for (unsigned s = 0; s < backend_.size(); ++s) {
        std::string l;
        bool kept = false;
        {
            std::lock_guard lock(mutex_);
            kept = s < fromKept_.size() && fromKept_[s];
            if (kept) l = keptLogs_[s];  // the log of the build that was kept
        }
        if (!kept) l = backend::programBuildLog(backend_[s].get(), slots()[s].device);
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
        backend::programInfo(backend(ref), CL_PROGRAM_NUM_KERNELS, n);
        return out.scalar<size_t>(n);
    }
    case CL_PROGRAM_KERNEL_NAMES:
        require(ref >= 0 && hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
        return out.string(backend::programInfoString(backend(ref), CL_PROGRAM_KERNEL_NAMES));
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
        backend::programBuildInfo(backend(s), slots()[s].device, CL_PROGRAM_BINARY_TYPE, t);
        return out.scalar(t);
    }
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
        size_t most = 0;
        for (unsigned s = 0; s < backend_.size(); ++s) {
            size_t v = 0;
            backend::programBuildInfo(backend(s), slots()[s].device, param, v);
            most = std::max(most, v);
        }
        return out.scalar<size_t>(most);
    }
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
