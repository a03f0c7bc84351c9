#include "platform/split/variants.hpp"

#include "devices/backend_call.hpp"
#include "platform/objects/context.hpp"
#include "platform/split/config.hpp"
#include "platform/support/log.hpp"

namespace hetero {

ProgramVariants::~ProgramVariants() {
    for (cl_program p : programs)
        if (p) BACKEND(p, clReleaseProgram)(p);
}

KernelVariants::~KernelVariants() {
    for (cl_kernel k : chunk)
        if (k) BACKEND(k, clReleaseKernel)(k);
    for (cl_kernel k : abort)
        if (k) BACKEND(k, clReleaseKernel)(k);
}

bool splittingConfigured() {
    Device* d = Device::instance();
    return d && d->slots().size() >= 2 && splitMode() != SplitMode::Off;
}

std::shared_ptr<ProgramVariants> buildProgramVariants(Context* context, const std::string& source,
                                                      const std::string& options) {
    auto v = std::make_shared<ProgramVariants>();
    v->analysis = transform::analyze({source}, options);
    bool any = false;
    for (const auto& k : v->analysis.kernels) {
        any = any || k.splittable;
        if (!k.splittable) HETERO_LOG(Info, "kernel %s runs unsplit: %s", k.name.c_str(), k.reason.c_str());
    }
    if (!v->analysis.parsed || !any) return nullptr;
    transform::Variants variants = transform::makeVariants({source}, options, v->analysis);
    const char* text = variants.source.c_str();
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_context c = context->backend(s);
        cl_device_id d = Device::instance()->slots()[s].device;
        cl_int err = CL_SUCCESS;
        cl_program p = BACKEND(c, clCreateProgramWithSource)(c, 1, &text, nullptr, &err);
        if (p && BACKEND(p, clBuildProgram)(p, 1, &d, options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
            HETERO_LOG(Warn, "split variants did not build on slot %u; launches run unsplit", s);
            BACKEND(p, clReleaseProgram)(p);
            p = nullptr;
        }
        v->programs.push_back(p);
    }
    return v;
}

std::shared_ptr<KernelVariants> createKernelVariants(const std::shared_ptr<ProgramVariants>& program,
                                                     const std::string& name) {
    if (!program) return nullptr;
    const transform::KernelAnalysis* ka = program->analysis.find(name);
    if (!ka || !ka->splittable) return nullptr;
    auto kv = std::make_shared<KernelVariants>();
    kv->program = program;
    kv->analysis = ka;
    for (size_t slot = 0; slot < program->programs.size(); ++slot) {
        cl_program p = program->programs[slot];
        cl_kernel chunk = nullptr, abort = nullptr;
        if (p) {
            cl_int err;
            chunk = BACKEND(p, clCreateKernel)(p, (name + "__hetero_chunk").c_str(), &err);
            abort = BACKEND(p, clCreateKernel)(p, (name + "__hetero_abort").c_str(), &err);
        }
        size_t fixed[3] = {0, 0, 0};
        if (chunk &&
            BACKEND(chunk, clGetKernelWorkGroupInfo)(chunk, Device::instance()->slots()[slot].device,
                                                     CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof fixed, fixed, nullptr) == CL_SUCCESS)
            kv->fixedWorkGroupSize |= fixed[0] || fixed[1] || fixed[2];
        kv->chunk.push_back(chunk);
        kv->abort.push_back(abort);
    }
    return kv;
}

void setVariantExtraArgs(cl_kernel k, cl_uint first, const std::vector<transform::ExtraArg>& extra) {
    for (size_t i = 0; i < extra.size(); ++i)
        check(BACKEND(k, clSetKernelArg)(k, first + static_cast<cl_uint>(i), extra[i].size, extra[i].value.data()));
}

}  // namespace hetero
