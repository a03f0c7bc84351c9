// Memory objects: buffers, sub-buffers and images. Contents live in a Storage shared by a buffer
// and its sub-buffers (coherence is tracked per root object).
#pragma once

#include "platform/objects/context.hpp"
#include "platform/memory/storage.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class Mem : public ApiObject<_cl_mem, Kind::Mem> {
public:
    using Destructor = void(CL_CALLBACK*)(cl_mem, void*);

    static Mem* createBuffer(Context* context, cl_mem_flags flags, size_t size, void* hostPtr,
                             std::vector<cl_mem_properties> properties);
    static Mem* createSubBuffer(Mem* parent, cl_mem_flags flags, size_t origin, size_t size);
    static Mem* createImage(Context* context, cl_mem_flags flags, const cl_image_format* format,
                            const cl_image_desc* desc, void* hostPtr, std::vector<cl_mem_properties> properties);

    Context* context() const { return context_.get(); }
    cl_mem_object_type type() const { return type_; }
    bool isImage() const { return type_ != CL_MEM_OBJECT_BUFFER; }
    // An image made from a buffer (1-D image buffer, 2-D image from a buffer): it shares the
    // buffer's storage, at origin() within the root, and keeps its own geometry.
    bool viewsBuffer() const { return isImage() && parent_; }
    // An image's geometry (its storage's, or its own when it views a buffer).
    const ImageLayout& image() const { return viewsBuffer() ? layout_ : storage_->image(); }
    cl_mem_flags flags() const { return flags_; }
    size_t size() const { return size_; }
    size_t origin() const { return origin_; }  // within the root (sub-buffers)
    Storage& storage() const { return *storage_; }
    const std::shared_ptr<Storage>& sharedStorage() const { return storage_; }

    // This object as a backend object of `slot` (a sub-buffer of the root's copy for sub-buffers).
    // Caller holds storage().mutex.
    cl_mem backendMem(unsigned slot);

    // Mapping bookkeeping: the pointer handed out, and how it was mapped.
    struct Mapping {
        cl_map_flags flags;
        size_t offset;  // bytes from the start of the host copy
        size_t size;
    };
    void addMapping(void* ptr, const Mapping& m);
    bool takeMapping(void* ptr, Mapping& out);  // false: ptr was not mapped from this object

    void addDestructor(Destructor fn, void* userData);
    cl_int info(cl_mem_info param, size_t size, void* value, size_t* sizeRet);
    cl_int imageInfo(cl_image_info param, size_t size, void* value, size_t* sizeRet);

protected:
    ~Mem() override;

private:
    Mem() = default;
    Ref<Context> context_;
    cl_mem_object_type type_ = CL_MEM_OBJECT_BUFFER;
    cl_mem_flags flags_ = 0;
    size_t size_ = 0;
    void* hostPtr_ = nullptr;  // CL_MEM_HOST_PTR: what the application passed
    Ref<Mem> parent_;  // a sub-buffer's buffer, or the buffer an image views
    size_t origin_ = 0;
    ImageLayout layout_;  // images that view a buffer
    std::shared_ptr<Storage> storage_;
    // Sub-buffers and images viewing a buffer: per slot, created on first use. Raw: they go through
    // the storage's BackendViews and backend::releaseView(), in the order views must go.
    std::vector<cl_mem> subBackend_;
    std::vector<cl_mem_properties> properties_;
    std::mutex mapMutex_;
    std::multimap<void*, Mapping> mappings_;
    std::vector<std::pair<Destructor, void*>> destructors_;
};

// The image formats every slot supports for these flags and image type (their intersection).
std::vector<cl_image_format> supportedFormats(Context* context, cl_mem_flags flags, cl_mem_object_type type);
// Bytes per element of an image format; 0 if the format is not valid.
size_t imageElementSize(const cl_image_format& format);

}  // namespace hetero
