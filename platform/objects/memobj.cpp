// clCreateBuffer/SubBuffer/Image*, memory object info, retain/release, destructor callbacks.
#include "platform/objects/memobj.hpp"

#include "platform/api/api.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace hetero {
namespace {

const cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
const cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
const cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

bool atMostOne(cl_mem_flags f) { return (f & (f - 1)) == 0; }

void validateFlags(cl_mem_flags flags, void* hostPtr) {
    require((flags & ~(kAccessFlags | kHostPtrFlags | kHostAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE)) == 0,
            CL_INVALID_VALUE);
    require(atMostOne(flags & kAccessFlags), CL_INVALID_VALUE);
    require(atMostOne(flags & kHostAccessFlags), CL_INVALID_VALUE);
    require(!((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))), CL_INVALID_VALUE);
    bool wantsPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    require(wantsPtr == (hostPtr != nullptr), CL_INVALID_HOST_PTR);
}

std::vector<cl_mem_properties> validateProperties(const cl_mem_properties* properties) {
    std::vector<cl_mem_properties> out;
    if (!properties) return out;
    // No memory properties are defined by the core API for Hetero's device; any key is unknown.
    require(properties[0] == 0, CL_INVALID_PROPERTY);
    out.push_back(0);
    return out;
}


std::vector<cl_image_format> supportedFormats(Context* context, cl_mem_flags flags, cl_mem_object_type type) {
    std::vector<cl_image_format> common;
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_context c = context->backend(s);
        cl_uint n = 0;
        cl_mem_flags backendFlags = flags & kAccessFlags ? flags & kAccessFlags : CL_MEM_READ_WRITE;
        if (BACKEND(c, clGetSupportedImageFormats)(c, backendFlags, type, 0, nullptr, &n) != CL_SUCCESS) return {};
        std::vector<cl_image_format> formats(n);
        if (n) BACKEND(c, clGetSupportedImageFormats)(c, backendFlags, type, n, formats.data(), nullptr);
        if (s == 0) {
            common = formats;
            continue;
        }
        common.erase(std::remove_if(common.begin(), common.end(),
                                    [&](const cl_image_format& f) {
                                        return std::none_of(formats.begin(), formats.end(), [&](const cl_image_format& g) {
                                            return g.image_channel_order == f.image_channel_order &&
                                                   g.image_channel_data_type == f.image_channel_data_type;
                                        });
                                    }),
                     common.end());
    }
    return common;
}

}  // namespace

size_t imageElementSize(const cl_image_format& f) {
    size_t channel = 0;
    switch (f.image_channel_data_type) {
    case CL_SNORM_INT8: case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: channel = 1; break;
    case CL_SNORM_INT16: case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: channel = 2; break;
    case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: channel = 4; break;
    case CL_UNORM_SHORT_565: case CL_UNORM_SHORT_555: return f.image_channel_order == CL_RGB || f.image_channel_order == CL_RGBx ? 2 : 0;
    case CL_UNORM_INT_101010: return f.image_channel_order == CL_RGB || f.image_channel_order == CL_RGBx ? 4 : 0;
    default: return 0;
    }
    switch (f.image_channel_order) {
    case CL_R: case CL_A: case CL_INTENSITY: case CL_LUMINANCE: case CL_DEPTH: case CL_Rx: return channel;
    case CL_RG: case CL_RA: case CL_RGx: return 2 * channel;
    case CL_RGB: case CL_RGBx: return 0;  // only with the packed types above
    case CL_RGBA: case CL_BGRA: case CL_ARGB: case CL_ABGR: case CL_sRGBA: case CL_sBGRA: return 4 * channel;
    default: return 0;
    }
}

uint64_t Mem::newSerial() {
    static std::atomic<uint64_t> last{0};
    return ++last;
}

Mem* Mem::createBuffer(Context* context, cl_mem_flags flags, size_t size, void* hostPtr,
                       std::vector<cl_mem_properties> properties) {
    if (flags == 0) flags = CL_MEM_READ_WRITE;
    validateFlags(flags, hostPtr);
    require(size > 0 && size <= Device::instance()->limits().maxMemAllocSize, CL_INVALID_BUFFER_SIZE);
    auto* m = new Mem;
    m->context_ = Ref<Context>(context);
    m->flags_ = flags;
    m->size_ = size;
    m->properties_ = std::move(properties);
    bool useHost = flags & CL_MEM_USE_HOST_PTR;
    m->hostPtr_ = useHost ? hostPtr : nullptr;
    m->storage_ = std::make_shared<Storage>(context, size, useHost ? hostPtr : nullptr, nullptr);
    if (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) {
        std::lock_guard lock(m->storage_->mutex);
        if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(m->storage_->host(), hostPtr, size);
        m->storage_->initialContentsOnHost();
    }
    return m;
}

Mem* Mem::createSubBuffer(Mem* parent, cl_mem_flags flags, size_t origin, size_t size) {
    require(parent->type_ == CL_MEM_OBJECT_BUFFER && !parent->parent_, CL_INVALID_MEM_OBJECT);
    require((flags & kHostPtrFlags) == 0, CL_INVALID_VALUE);
    require((flags & ~(kAccessFlags | kHostAccessFlags)) == 0, CL_INVALID_VALUE);
    require(atMostOne(flags & kAccessFlags) && atMostOne(flags & kHostAccessFlags), CL_INVALID_VALUE);
    cl_mem_flags pf = parent->flags_;
    // Access may only narrow what the parent allows.
    if (flags & kAccessFlags) {
        require(!((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))), CL_INVALID_VALUE);
        require(!((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))), CL_INVALID_VALUE);
    } else {
        flags |= pf & kAccessFlags;
    }
    if (flags & kHostAccessFlags) {
        require(!((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)), CL_INVALID_VALUE);
        require(!((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)), CL_INVALID_VALUE);
        require(!((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))), CL_INVALID_VALUE);
    } else {
        flags |= pf & kHostAccessFlags;
    }
    flags |= pf & kHostPtrFlags;
    require(size > 0, CL_INVALID_BUFFER_SIZE);
    require(origin <= parent->size_ && size <= parent->size_ - origin, CL_INVALID_VALUE);
    require(origin % Device::instance()->limits().baseAddressAlignment == 0, CL_MISALIGNED_SUB_BUFFER_OFFSET);

    auto* m = new Mem;
    m->context_ = parent->context_;
    m->flags_ = flags;
    m->size_ = size;
    m->parent_ = Ref<Mem>(parent);
    m->origin_ = origin;
    m->storage_ = parent->storage_;
    m->hostPtr_ = parent->hostPtr_ ? static_cast<unsigned char*>(parent->hostPtr_) + origin : nullptr;
    m->subBackend_.assign(parent->context_->slotCount(), nullptr);
    return m;
}

Mem* Mem::createImage(Context* context, cl_mem_flags flags, const cl_image_format* format, const cl_image_desc* desc,
                      void* hostPtr, std::vector<cl_mem_properties> properties) {
    if (flags == 0) flags = CL_MEM_READ_WRITE;
    validateFlags(flags, hostPtr);
    require(format != nullptr, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    size_t element = imageElementSize(*format);
    require(element > 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    require(desc != nullptr, CL_INVALID_IMAGE_DESCRIPTOR);
    const DeviceLimits& limits = Device::instance()->limits();
    require(limits.imageSupport, CL_INVALID_OPERATION);
    require(desc->num_mip_levels == 0 && desc->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    if (desc->mem_object) {
        HETERO_LOG(Warn, "images created from buffers are not supported by Hetero");
        fail(CL_INVALID_OPERATION);
    }
    ImageLayout layout;
    layout.format = *format;
    layout.desc = *desc;
    layout.elementSize = element;
    size_t w = desc->image_width, h = desc->image_height, d = desc->image_depth, a = desc->image_array_size;
    size_t max2dW = limits.image2dMax[0], max2dH = limits.image2dMax[1];
    size_t max3dW = limits.image3dMax[0], max3dH = limits.image3dMax[1], max3dD = limits.image3dMax[2];
    size_t maxArr = limits.imageMaxArraySize;
    switch (desc->image_type) {
    case CL_MEM_OBJECT_IMAGE1D:
        require(w >= 1 && w <= max2dW, CL_INVALID_IMAGE_SIZE);
        layout.region[0] = w;
        break;
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        require(w >= 1 && w <= max2dW && a >= 1 && a <= maxArr, CL_INVALID_IMAGE_SIZE);
        layout.region[0] = w, layout.region[1] = a;
        break;
    case CL_MEM_OBJECT_IMAGE2D:
        require(w >= 1 && h >= 1 && w <= max2dW && h <= max2dH, CL_INVALID_IMAGE_SIZE);
        layout.region[0] = w, layout.region[1] = h;
        break;
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
        require(w >= 1 && h >= 1 && w <= max2dW && h <= max2dH && a >= 1 && a <= maxArr, CL_INVALID_IMAGE_SIZE);
        layout.region[0] = w, layout.region[1] = h, layout.region[2] = a;
        break;
    case CL_MEM_OBJECT_IMAGE3D:
        require(w >= 1 && h >= 1 && d >= 1 && w <= max3dW && h <= max3dH && d <= max3dD, CL_INVALID_IMAGE_SIZE);
        layout.region[0] = w, layout.region[1] = h, layout.region[2] = d;
        break;
    default: fail(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    bool hasSlices = desc->image_type == CL_MEM_OBJECT_IMAGE3D || desc->image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                     desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t tightRow = w * element;
    if (!hostPtr) require(desc->image_row_pitch == 0 && desc->image_slice_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    layout.rowPitch = desc->image_row_pitch ? desc->image_row_pitch : tightRow;
    require(layout.rowPitch >= tightRow && layout.rowPitch % element == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    size_t rowsPerSlice = desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : layout.region[1];
    size_t tightSlice = layout.rowPitch * rowsPerSlice;
    layout.slicePitch = hasSlices && desc->image_slice_pitch ? desc->image_slice_pitch : tightSlice;
    require(layout.slicePitch >= tightSlice && layout.slicePitch % layout.rowPitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    size_t slices = desc->image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? a : layout.region[2];
    size_t bytes = hasSlices ? layout.slicePitch * slices : layout.rowPitch * layout.region[1];

    auto formats = supportedFormats(context, flags, desc->image_type);
    require(std::any_of(formats.begin(), formats.end(),
                        [&](const cl_image_format& f) {
                            return f.image_channel_order == format->image_channel_order &&
                                   f.image_channel_data_type == format->image_channel_data_type;
                        }),
            CL_IMAGE_FORMAT_NOT_SUPPORTED);

    auto* m = new Mem;
    m->context_ = Ref<Context>(context);
    m->type_ = desc->image_type;
    m->flags_ = flags;
    m->size_ = bytes;
    m->properties_ = std::move(properties);
    bool useHost = flags & CL_MEM_USE_HOST_PTR;
    m->hostPtr_ = useHost ? hostPtr : nullptr;
    m->storage_ = std::make_shared<Storage>(context, bytes, useHost ? hostPtr : nullptr, &layout);
    if (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) {
        std::lock_guard lock(m->storage_->mutex);
        if (flags & CL_MEM_COPY_HOST_PTR) std::memcpy(m->storage_->host(), hostPtr, bytes);
        m->storage_->initialContentsOnHost();
    }
    return m;
}

Mem::~Mem() {
    // Destructor callbacks run in reverse order of registration, before the memory goes away. In
    // unified memory the backends use the application's memory directly and may still be running a
    // command on it: the callbacks (which may free it) wait until no backend uses it any more.
    if (!parent_ && !destructors_.empty() && storage_->unified()) {
        storage_->whenMemoryFree([handle = handle(), callbacks = std::move(destructors_)] {
            for (auto it = callbacks.rbegin(); it != callbacks.rend(); ++it) it->first(handle, it->second);
        });
        destructors_.clear();
    }
    for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it) it->first(handle(), it->second);
    for (cl_mem b : subBackend_)
        if (b) BACKEND(b, clReleaseMemObject)(b);
}

cl_mem Mem::backendMem(unsigned slot) {
    cl_mem root = storage_->backendMem(slot);
    if (!parent_) return root;
    if (!subBackend_[slot]) {
        cl_buffer_region region{origin_, size_};
        cl_int err = CL_SUCCESS;
        subBackend_[slot] = BACKEND(root, clCreateSubBuffer)(root, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                                              &region, &err);
        if (!subBackend_[slot]) {
            HETERO_LOG(Warn, "sub-buffer on slot %u failed: %s", slot, errorName(err));
            fail(err == CL_MISALIGNED_SUB_BUFFER_OFFSET ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
    }
    return subBackend_[slot];
}

void Mem::addMapping(void* ptr, const Mapping& m) {
    std::lock_guard lock(mapMutex_);
    mappings_.emplace(ptr, m);
}

bool Mem::takeMapping(void* ptr, Mapping& out) {
    std::lock_guard lock(mapMutex_);
    auto it = mappings_.find(ptr);
    if (it == mappings_.end()) return false;
    out = it->second;
    mappings_.erase(it);
    return true;
}

void Mem::addDestructor(Destructor fn, void* userData) {
    std::lock_guard lock(mapMutex_);
    destructors_.emplace_back(fn, userData);
}

cl_int Mem::info(cl_mem_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_MEM_TYPE: return out.scalar<cl_mem_object_type>(type_);
    case CL_MEM_FLAGS: return out.scalar<cl_mem_flags>(flags_);
    case CL_MEM_SIZE: return out.scalar<size_t>(size_);
    case CL_MEM_HOST_PTR: return out.scalar<void*>(hostPtr_);
    case CL_MEM_MAP_COUNT: {
        std::lock_guard lock(mapMutex_);
        return out.scalar<cl_uint>(static_cast<cl_uint>(mappings_.size()));
    }
    case CL_MEM_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_MEM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_MEM_ASSOCIATED_MEMOBJECT: return out.scalar<cl_mem>(parent_ ? parent_->handle() : nullptr);
    case CL_MEM_OFFSET: return out.scalar<size_t>(origin_);
    case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(CL_FALSE);
    case CL_MEM_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
    }
}

cl_int Mem::imageInfo(cl_image_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    const ImageLayout& l = storage_->image();
    bool arrays = type_ == CL_MEM_OBJECT_IMAGE1D_ARRAY || type_ == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    switch (param) {
    case CL_IMAGE_FORMAT: return out.scalar(l.format);
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar<size_t>(l.elementSize);
    case CL_IMAGE_ROW_PITCH: return out.scalar<size_t>(l.rowPitch);
    case CL_IMAGE_SLICE_PITCH:
        return out.scalar<size_t>(type_ == CL_MEM_OBJECT_IMAGE3D || arrays ? l.slicePitch : 0);
    case CL_IMAGE_WIDTH: return out.scalar<size_t>(l.desc.image_width);
    case CL_IMAGE_HEIGHT:
        return out.scalar<size_t>(type_ == CL_MEM_OBJECT_IMAGE2D || type_ == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                          type_ == CL_MEM_OBJECT_IMAGE3D ? l.desc.image_height : 0);
    case CL_IMAGE_DEPTH: return out.scalar<size_t>(type_ == CL_MEM_OBJECT_IMAGE3D ? l.desc.image_depth : 0);
    case CL_IMAGE_ARRAY_SIZE: return out.scalar<size_t>(arrays ? l.desc.image_array_size : 0);
    case CL_IMAGE_BUFFER: return out.scalar<cl_mem>(nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero

using namespace hetero;

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                  cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        return Mem::createBuffer(contextOf(context), flags, size, host_ptr, {})->handle();
    });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        Context* c = contextOf(context);
        return Mem::createBuffer(c, flags, size, host_ptr, validateProperties(properties))->handle();
    });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        Mem* parent = fromHandle<Mem>(buffer);
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
        return Mem::createImage(contextOf(context), flags, image_format, image_desc, host_ptr, {})->handle();
    });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                               cl_mem_flags flags, const cl_image_format* image_format,
                                               const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_mem {
        Context* c = contextOf(context);
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
        Context* c = contextOf(context);
        require(!(num_entries == 0 && image_formats), CL_INVALID_VALUE);
        switch (image_type) {
        case CL_MEM_OBJECT_IMAGE1D: case CL_MEM_OBJECT_IMAGE1D_ARRAY: case CL_MEM_OBJECT_IMAGE2D:
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: case CL_MEM_OBJECT_IMAGE3D: break;
        case CL_MEM_OBJECT_IMAGE1D_BUFFER: {  // not offered (images from buffers are unsupported)
            if (num_image_formats) *num_image_formats = 0;
            return CL_SUCCESS;
        }
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
    Mem* m = fromHandle<Mem>(memobj);
    if (!m) return CL_INVALID_MEM_OBJECT;
    m->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    Mem* m = fromHandle<Mem>(memobj);
    if (!m) return CL_INVALID_MEM_OBJECT;
    m->release();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                      void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        Mem* m = fromHandle<Mem>(memobj);
        require(m != nullptr, CL_INVALID_MEM_OBJECT);
        return m->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
    return guarded([&] {
        Mem* m = fromHandle<Mem>(image);
        require(m != nullptr && m->isImage(), CL_INVALID_MEM_OBJECT);
        return m->imageInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem, void*),
                                                    void* user_data) {
    return guarded([&] {
        Mem* m = fromHandle<Mem>(memobj);
        require(m != nullptr, CL_INVALID_MEM_OBJECT);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        m->addDestructor(pfn_notify, user_data);
        return CL_SUCCESS;
    });
}
