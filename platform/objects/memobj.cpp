// clCreateBuffer/SubBuffer/Image*, memory object info, retain/release, destructor callbacks.
#include "platform/objects/memobj.hpp"

#include "devices/backend_objects.hpp"

#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include "platform/support/parallel_for.hpp"

#include <algorithm>
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

// Flags of an object made from another (a sub-buffer, an image viewing a buffer): access and host
// access may only narrow the parent's; what is not given is inherited, as are the host-pointer flags.
cl_mem_flags inheritFlags(cl_mem_flags pf, cl_mem_flags flags) {
    require((flags & kHostPtrFlags) == 0, CL_INVALID_VALUE);
    require((flags & ~(kAccessFlags | kHostAccessFlags)) == 0, CL_INVALID_VALUE);
    require(atMostOne(flags & kAccessFlags) && atMostOne(flags & kHostAccessFlags), CL_INVALID_VALUE);
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
    return flags | (pf & kHostPtrFlags);
}

}  // namespace

std::vector<cl_image_format> supportedFormats(Context* context, cl_mem_flags flags, cl_mem_object_type type) {
    std::vector<cl_image_format> common;
    for (unsigned s = 0; s < context->slotCount(); ++s) {
        cl_mem_flags backendFlags = flags & kAccessFlags ? flags & kAccessFlags : CL_MEM_READ_WRITE;
        std::vector<cl_image_format> formats;
        if (backend::supportedImageFormats(context->backend(s), backendFlags, type, formats) != CL_SUCCESS) return {};
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
    m->storage_ = Storage::create(context, size, useHost ? hostPtr : nullptr, nullptr);
    if (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) {
        std::lock_guard lock(m->storage_->mutex);
        if (flags & CL_MEM_COPY_HOST_PTR) copyInParallel(m->storage_->host(), hostPtr, size);
        m->storage_->initialContentsOnHost();
    }
    return m;
}

Mem* Mem::createSubBuffer(Mem* parent, cl_mem_flags flags, size_t origin, size_t size) {
    require(parent->type_ == CL_MEM_OBJECT_BUFFER && !parent->parent_, CL_INVALID_MEM_OBJECT);
    flags = inheritFlags(parent->flags_, flags);
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
    // An image may view a buffer: a 1-D image buffer, or a 2-D image where cl_khr_image2d_from_buffer
    // is offered. It shares the buffer's storage (and so its coherence) and inherits its flags.
    Held<Mem> source;  // held for the call, as every handle the application passes
    if (desc && desc->mem_object) {
        source = fromHandle<Mem>(desc->mem_object);
        require(source != nullptr && source->context() == context, CL_INVALID_IMAGE_DESCRIPTOR);
        if (source->isImage()) {
            HETERO_LOG(Warn, "images created from other images are not supported by Hetero");
            fail(CL_INVALID_OPERATION);
        }
        require(hostPtr == nullptr, CL_INVALID_HOST_PTR);
        const cl_mem_flags kernelBoth = flags & CL_MEM_KERNEL_READ_AND_WRITE;
        flags = inheritFlags(source->flags_, flags & ~CL_MEM_KERNEL_READ_AND_WRITE) | kernelBoth;
    } else {
        if (flags == 0) flags = CL_MEM_READ_WRITE;
        validateFlags(flags, hostPtr);
    }
    require(format != nullptr, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    size_t element = imageElementSize(*format);
    require(element > 0, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    require(desc != nullptr, CL_INVALID_IMAGE_DESCRIPTOR);
    const DeviceLimits& limits = Device::instance()->limits();
    require(limits.imageSupport, CL_INVALID_OPERATION);
    require(desc->num_mip_levels == 0 && desc->num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    if (source) {
        require(desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER || desc->image_type == CL_MEM_OBJECT_IMAGE2D,
                CL_INVALID_IMAGE_DESCRIPTOR);
        require(desc->image_type != CL_MEM_OBJECT_IMAGE2D || limits.image2dFromBuffer, CL_INVALID_OPERATION);
    } else {
        require(desc->image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_INVALID_IMAGE_DESCRIPTOR);
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
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
        require(w >= 1 && w <= limits.imageMaxBufferSize, CL_INVALID_IMAGE_SIZE);
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
    const bool pitchFromBuffer = source && desc->image_type == CL_MEM_OBJECT_IMAGE2D;
    if (!hostPtr && !pitchFromBuffer)
        require(desc->image_row_pitch == 0 && desc->image_slice_pitch == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    layout.rowPitch = desc->image_row_pitch ? desc->image_row_pitch : tightRow;
    require(layout.rowPitch >= tightRow && layout.rowPitch % element == 0, CL_INVALID_IMAGE_DESCRIPTOR);
    if (pitchFromBuffer && limits.imagePitchAlignment)
        require(layout.rowPitch % (limits.imagePitchAlignment * element) == 0, CL_INVALID_IMAGE_DESCRIPTOR);
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
    if (source) {
        require(bytes <= source->size_, CL_INVALID_IMAGE_SIZE);
        m->parent_ = Ref<Mem>(source);
        m->origin_ = source->origin_;
        m->storage_ = source->storage_;
        m->hostPtr_ = source->hostPtr_;
        m->layout_ = layout;
        m->layout_.desc.mem_object = nullptr;
        m->subBackend_.assign(context->slotCount(), nullptr);
        return m;
    }
    bool useHost = flags & CL_MEM_USE_HOST_PTR;
    m->hostPtr_ = useHost ? hostPtr : nullptr;
    m->storage_ = Storage::create(context, bytes, useHost ? hostPtr : nullptr, &layout);
    if (flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) {
        std::lock_guard lock(m->storage_->mutex);
        if (flags & CL_MEM_COPY_HOST_PTR) copyInParallel(m->storage_->host(), hostPtr, bytes);
        m->storage_->initialContentsOnHost();
    }
    return m;
}

Mem::~Mem() {
    // Destructor callbacks run in reverse order of registration, before the memory goes away. In
    // unified memory the backends use the application's memory directly and may still be running a
    // command on it: the callbacks (which may free it) wait until no backend uses it any more
    // (Storage::whenMemoryFree; at once where no backend can).
    if (!parent_ && !destructors_.empty()) {
        storage_->whenMemoryFree([handle = handle(), callbacks = std::move(destructors_)] {
            for (auto it = callbacks.rbegin(); it != callbacks.rend(); ++it) it->first(handle, it->second);
        });
        destructors_.clear();
    }
    for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it) it->first(handle(), it->second);
    for (unsigned slot = 0; slot < subBackend_.size(); ++slot)
        if (cl_mem view = subBackend_[slot])
            for (cl_mem v : storage_->retireView(slot, view)) backend::releaseView(v);  // devices/view_lock.hpp
}

cl_mem Mem::backendMem(unsigned slot) {
    if (viewsBuffer()) {
        if (!subBackend_[slot]) {
            cl_image_desc desc = layout_.desc;
            desc.mem_object = parent_->backendMem(slot);
            desc.image_row_pitch = type_ == CL_MEM_OBJECT_IMAGE2D ? layout_.rowPitch : 0;
            desc.image_slice_pitch = 0;
            cl_int err = CL_SUCCESS;
            subBackend_[slot] = backend::imageView(context_->backend(slot), flags_ & (kAccessFlags | CL_MEM_KERNEL_READ_AND_WRITE),
                                                   layout_.format, desc, &err);
            if (!subBackend_[slot]) {
                HETERO_LOG(Warn, "image from a buffer on slot %u failed: %s", slot, errorName(err));
                fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
            }
            storage_->addView(slot, subBackend_[slot], origin_, origin_ + size_);
        }
        return subBackend_[slot];
    }
    cl_mem root = storage_->backendMem(slot);
    if (!parent_) return root;
    if (!subBackend_[slot]) {
        cl_buffer_region region{origin_, size_};
        cl_int err = CL_SUCCESS;
        subBackend_[slot] = backend::subBuffer(root, CL_MEM_READ_WRITE, region, &err);
        if (!subBackend_[slot]) {
            HETERO_LOG(Warn, "sub-buffer on slot %u failed: %s", slot, errorName(err));
            fail(err == CL_MISALIGNED_SUB_BUFFER_OFFSET ? err : CL_MEM_OBJECT_ALLOCATION_FAILURE);
        }
        storage_->addView(slot, subBackend_[slot], origin_, origin_ + size_);
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
    case CL_MEM_OFFSET: return out.scalar<size_t>(isImage() ? 0 : origin_);
    case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(CL_FALSE);
    case CL_MEM_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
    }
}

cl_int Mem::imageInfo(cl_image_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    const ImageLayout& l = image();
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
    case CL_IMAGE_BUFFER: return out.scalar<cl_mem>(type_ == CL_MEM_OBJECT_IMAGE1D_BUFFER ? parent_->handle() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
