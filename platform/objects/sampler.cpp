#include "platform/objects/sampler.hpp"

#include "devices/backend_objects.hpp"

#include "platform/support/error.hpp"
#include "platform/support/info.hpp"

namespace hetero {

Sampler* Sampler::create(Context* context, const cl_sampler_properties* properties, bool reportProperties) {
    require(Device::instance()->limits().imageSupport, CL_INVALID_OPERATION);
    auto* s = new Sampler;
    Ref<Sampler> guard(s, true);
    s->context_ = Ref<Context>(context);
    if (properties) {
        for (const cl_sampler_properties* p = properties; *p; p += 2) {
            switch (p[0]) {
            case CL_SAMPLER_NORMALIZED_COORDS: s->normalized_ = static_cast<cl_bool>(p[1]); break;
            case CL_SAMPLER_ADDRESSING_MODE: s->addressing_ = static_cast<cl_addressing_mode>(p[1]); break;
            case CL_SAMPLER_FILTER_MODE: s->filter_ = static_cast<cl_filter_mode>(p[1]); break;
            default: fail(CL_INVALID_VALUE);
            }
            s->properties_.push_back(p[0]);
            s->properties_.push_back(p[1]);
        }
        s->properties_.push_back(0);
    }
    if (!reportProperties) s->properties_.clear();
    require(s->normalized_ == CL_TRUE || s->normalized_ == CL_FALSE, CL_INVALID_VALUE);
    require(s->addressing_ >= CL_ADDRESS_NONE && s->addressing_ <= CL_ADDRESS_MIRRORED_REPEAT, CL_INVALID_VALUE);
    require(s->filter_ == CL_FILTER_NEAREST || s->filter_ == CL_FILTER_LINEAR, CL_INVALID_VALUE);
    for (unsigned slot = 0; slot < context->slotCount(); ++slot) {
        cl_int err = CL_SUCCESS;
        backend::Sampler b = backend::sampler(context->backend(slot), s->normalized_, s->addressing_, s->filter_, &err);
        if (!b) fail(err == CL_INVALID_VALUE ? err : CL_OUT_OF_RESOURCES);
        s->backend_.push_back(std::move(b));
    }
    return guard.detach();
}

Sampler::~Sampler() = default;

cl_int Sampler::info(cl_sampler_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_SAMPLER_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_SAMPLER_NORMALIZED_COORDS: return out.scalar<cl_bool>(normalized_);
    case CL_SAMPLER_ADDRESSING_MODE: return out.scalar<cl_addressing_mode>(addressing_);
    case CL_SAMPLER_FILTER_MODE: return out.scalar<cl_filter_mode>(filter_);
    case CL_SAMPLER_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
