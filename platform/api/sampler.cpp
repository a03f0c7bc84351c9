// OpenCL entry points for samplers: validate, translate handles, hand off to objects/sampler.hpp.
#include "platform/objects/sampler.hpp"

#include "platform/api/api.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"

using namespace hetero;

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties* properties,
                                                     cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_sampler {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        return Sampler::create(c, properties, true)->handle();
    });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords, cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int* errcode_ret) {
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, normalized_coords, CL_SAMPLER_ADDRESSING_MODE,
                                     addressing_mode, CL_SAMPLER_FILTER_MODE, filter_mode, 0};
    return guardedCreate(errcode_ret, [&]() -> cl_sampler {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        // CL_SAMPLER_PROPERTIES of a sampler from clCreateSampler is empty (no properties were given).
        return Sampler::create(c, props, false)->handle();
    });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
    auto s = fromHandle<Sampler>(sampler);
    if (!s) return CL_INVALID_SAMPLER;
    s->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
    auto s = fromHandle<Sampler>(sampler);
    if (!s) return CL_INVALID_SAMPLER;
    return s->releaseReference() ? CL_SUCCESS : CL_INVALID_SAMPLER;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto s = fromHandle<Sampler>(sampler);
        require(s != nullptr, CL_INVALID_SAMPLER);
        return s->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}
