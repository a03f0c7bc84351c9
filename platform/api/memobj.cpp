// OpenCL entry points for memory objects (buffers, sub-buffers, images, pipes): validate, translate handles, hand off to objects/memobj.hpp.
#include "platform/objects/memobj.hpp"

#include "platform/api/api.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include <algorithm>
#include <cstring>

using namespace hetero;

namespace {

std::vector<cl_mem_properties> validateProperties(const cl_mem_properties* properties) {
    std::vector<cl_mem_properties> out;
    if (!properties) return out;
    // No memory properties are defined by the core API for Hetero's device; any key is unknown.
    require(properties[0] == 0, CL_INVALID_PROPERTY);
    out.push_back(0);
    return out;
}

}  // namespace


cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        return Mem::createBuffer(contextOf(context).get(), flags, size, host_ptr, {})->handle();
    });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        auto c = contextOf(context);
        return Mem::createBuffer(c, flags, size, host_ptr, validateProperties(properties))->handle();
    });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        auto parent = fromHandle<Mem>(buffer);
        require(parent != nullptr, CL_INVALID_MEM_OBJECT);
        require(buffer_create_type == CL_BUFFER_CREATE_TYPE_REGION, CL_INVALID_VALUE);
        require(buffer_create_info != nullptr, CL_INVALID_VALUE);
        auto* region = static_cast<const cl_buffer_region*>(buffer_create_info);
        return Mem::createSubBuffer(parent, flags, region->origin, region->size)->handle();
    });
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                 const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        return Mem::createImage(contextOf(context).get(), flags, image_format, image_desc, host_ptr, {})->handle();
    });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                               cl_mem_flags flags, const cl_image_format* image_format,
                                               const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        auto c = contextOf(context);
        return Mem::createImage(c, flags, image_format, image_desc, host_ptr, validateProperties(properties))->handle();
    });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                   size_t image_width, size_t image_height, size_t image_row_pitch, void* host_ptr,
                                   cl_int* errcode_ret) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_row_pitch = image_row_pitch;
    return clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                                   size_t image_width, size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = image_width;
    desc.image_height = image_height;
    desc.image_depth = image_depth;
    desc.image_row_pitch = image_row_pitch;
    desc.image_slice_pitch = image_slice_pitch;
    return clCreateImage(context, flags, image_format, &desc, host_ptr, errcode_ret);
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type image_type,
                                              cl_uint num_entries, cl_image_format* image_formats,
                                              cl_uint* num_image_formats) {
    return guarded([&] {
        auto c = contextOf(context);
        require(!(num_entries == 0 && image_formats), CL_INVALID_VALUE);
        switch (image_type) {
        case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D:
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D: case CL_MEM_OBJECT_IMAGE1D_BUFFER: break;
        default: return CL_INVALID_VALUE;
        }
        auto formats = supportedFormats(c, flags, image_type);
        if (image_formats)
            for (cl_uint i = 0; i < num_entries && i < formats.size(); ++i) image_formats[i] = formats[i];
        if (num_image_formats) *num_image_formats = static_cast<cl_uint>(formats.size());
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
    auto m = fromHandle<Mem>(memobj);
    if (!m) return CL_INVALID_MEM_OBJECT;
    m->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    auto m = fromHandle<Mem>(memobj);
    if (!m) return CL_INVALID_MEM_OBJECT;
    return m->releaseReference() ? CL_SUCCESS : CL_INVALID_MEM_OBJECT;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                      void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto m = fromHandle<Mem>(memobj);
        require(m != nullptr, CL_INVALID_MEM_OBJECT);
        return m->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
    return guarded([&] {
        auto m = fromHandle<Mem>(image);
        require(m != nullptr && m->isImage(), CL_INVALID_MEM_OBJECT);
        return m->imageInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                    void* user_data) {
    return guarded([&] {
        auto m = fromHandle<Mem>(memobj);
        require(m != nullptr, CL_INVALID_MEM_OBJECT);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        m->addDestructor(pfn_notify, user_data);
        return CL_SUCCESS;
    });
}
