// Samplers: one backend sampler per slot, created up front (they are small).
#pragma once

#include "platform/objects/context.hpp"

#include <vector>

namespace hetero {

class Sampler : public ApiObject<_cl_sampler, Kind::Sampler> {
public:
    // `reportProperties`: CL_SAMPLER_PROPERTIES answers `properties` (clCreateSamplerWithProperties);
    // otherwise nothing.
    static Sampler* create(Context* context, const cl_sampler_properties* properties, bool reportProperties);
    Context* context() const { return context_.get(); }
    cl_sampler backend(unsigned slot) const { return backend_[slot].get(); }
    cl_int info(cl_sampler_info param, size_t size, void* value, size_t* sizeRet);

protected:
    ~Sampler() override;

private:
    Sampler() = default;
    Ref<Context> context_;
    std::vector<cl_sampler_properties> properties_;
    cl_bool normalized_ = CL_TRUE;
    cl_addressing_mode addressing_ = CL_ADDRESS_CLAMP;
    cl_filter_mode filter_ = CL_FILTER_NEAREST;
    std::vector<backend::Sampler> backend_;  // per slot
};

}  // namespace hetero
