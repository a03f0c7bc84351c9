// Programs: one backend program per slot, built with the application's options. A program is usable
// on the slots where it built; the build succeeds if it built on at least one.
#pragma once

#include "platform/objects/context.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hetero {

struct ProgramVariants;  // platform/split/variants.hpp

class Program : public ApiObject<_cl_program, Kind::Program> {
public:
    static Program* fromSource(Context* context, std::string source);
    // binary: Hetero's container (see binaryContainer()); throws CL_INVALID_BINARY if it does not fit.
    static Program* fromBinary(Context* context, const unsigned char* binary, size_t size);
    static Program* link(Context* context, const std::vector<Program*>& inputs, const char* options);

    Context* context() const { return context_.get(); }
    // What the slot runs: the program built from a kept binary where the last build took one
    // (kept_binaries.hpp), else the one made at creation.
    cl_program backend(unsigned slot) const;
    bool builtOn(unsigned slot) const { return status_[slot] == CL_BUILD_SUCCESS; }
    bool builtAnywhere() const;
    // Built into an executable (not only compiled or linked into a library) somewhere: kernels
    // can be made from it.
    bool hasExecutable() const;
    // The slot whose answers stand for the program (kernel names, attributes): primary if built there.
    int referenceSlot() const;

    cl_int build(const char* options, bool compileOnly, const std::vector<Program*>& headers,
                 const std::vector<std::string>& headerNames);
    cl_int info(cl_program_info param, size_t size, void* value, size_t* sizeRet);
    cl_int buildInfo(cl_program_build_info param, size_t size, void* value, size_t* sizeRet);

    // The split variants of the last successful build, or nullptr (not splittable, not from source).
    std::shared_ptr<ProgramVariants> variants() const;

    // Whether the application built (or compiled, or linked) with -cl-kernel-arg-info: only then
    // does clGetKernelArgInfo answer. The backends always build with it (Kernel::setArg needs to
    // know which arguments are memory objects).
    bool argInfoRequested() const { return argInfoRequested_.load(); }

    void kernelCreated() { ++kernels_; }
    void kernelReleased() { --kernels_; }

protected:
    ~Program() override;

private:
    Program() = default;
    std::vector<unsigned char> binaryContainer() const;
    std::string log() const;

    Ref<Context> context_;
    std::string source_;
    std::vector<backend::Program> backend_;  // per slot, as made (from source, a binary, a link)
    // Per slot of a program from source: built from a kept binary by the last build (else empty),
    // and that build's log. backend() hands them out under mutex_; a later build moves them to
    // superseded_, so that a handle read before stays valid while the program lives.
    std::vector<backend::Program> fromKept_;
    std::vector<std::string> keptLogs_;
    std::vector<backend::Program> superseded_;
    std::vector<cl_build_status> status_;
    std::string options_;
    mutable std::mutex mutex_;
    std::atomic<int> kernels_{0};
    std::atomic<bool> building_{false};
    std::atomic<bool> argInfoRequested_{false};
    std::shared_ptr<ProgramVariants> variants_;
};

}  // namespace hetero
