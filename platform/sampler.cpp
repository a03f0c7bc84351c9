#include "platform/sampler.hpp"

#include "platform/api.hpp"
#include "platform/error.hpp"
#include "platform/info.hpp"

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
        cl_context c = context->backend(slot);
        cl_int err = CL_SUCCESS;
        cl_sampler b = BACKEND(c, clCreateSampler)(c, s->normalized_, s->addressing_, s->filter_, &err);
        if (!b) fail(err == CL_INVALID_VALUE ? err : CL_OUT_OF_RESOURCES);
        s->backend_.push_back(b);
    }
    return guard.detach();
}

Sampler::~Sampler() {
    for (cl_sampler b : backend_) BACKEND(b, clReleaseSampler)(b);
}

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

using namespace hetero;

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties* properties,
                                                     cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_sampler {
        Context* c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        return Sampler::create(c, properties, true)->handle();
    });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int* errcode_ret) {
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, normalized_coords, CL_SAMPLER_ADDRESSING_MODE,
                                     addressing_mode, CL_SAMPLER_FILTER_MODE, filter_mode, 0};
    return guardedCreate(errcode_ret, [&]() -> cl_sampler {
        Context* c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        // CL_SAMPLER_PROPERTIES of a sampler from clCreateSampler is empty (no properties were given).
        return Sampler::create(c, props, false)->handle();
    });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
    Sampler* s = fromHandle<Sampler>(sampler);
    if (!s) return CL_INVALID_SAMPLER;
    s->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
    Sampler* s = fromHandle<Sampler>(sampler);
    if (!s) return CL_INVALID_SAMPLER;
    s->release();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        Sampler* s = fromHandle<Sampler>(sampler);
        require(s != nullptr, CL_INVALID_SAMPLER);
        return s->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}
