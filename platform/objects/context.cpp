// clCreateContext*, context info, retain/release and destructor callbacks.
#include "platform/objects/context.hpp"

#include "devices/backend_objects.hpp"
#include "platform/memory/pinned_pool.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"

#include <CL/cl_ext_hetero.h>

namespace hetero {

Context* Context::create(const cl_context_properties* properties, Notify notify, void* userData) {
    require(notify != nullptr || userData == nullptr, CL_INVALID_VALUE);
    std::vector<cl_context_properties> props;
    cl_context_properties memoryModel = CL_MEMORY_MODEL_AUTO_HETERO;
    if (properties) {
        for (const cl_context_properties* p = properties; *p; p += 2) {
            switch (p[0]) {
            case CL_CONTEXT_PLATFORM:
                require(reinterpret_cast<cl_platform_id>(p[1]) == Platform::instance().handle(), CL_INVALID_PLATFORM);
                break;
            case CL_CONTEXT_INTEROP_USER_SYNC: break;
            case CL_CONTEXT_MEMORY_MODEL_HETERO: memoryModel = p[1]; break;
            default: fail(CL_INVALID_PROPERTY);
            }
            for (const auto* q = properties; q != p; q += 2) require(q[0] != p[0], CL_INVALID_PROPERTY);
            props.push_back(p[0]);
            props.push_back(p[1]);
        }
        props.push_back(0);
    }
    Device* device = Device::instance();
    require(device != nullptr, CL_DEVICE_NOT_AVAILABLE);
    MemoryModelChoice memory = chooseMemoryModel(memoryModel);  // CL_INVALID_PROPERTY for a bad value

    auto* ctx = new Context;
    Ref<Context> guard(ctx, /*adopt=*/true);  // released if a backend context fails
    ctx->properties_ = std::move(props);
    ctx->notify_ = notify;
    ctx->notifyData_ = userData;
    const Backends& backends = Backends::instance();
    for (const auto& slot : device->slots()) {
        if (unsigned owner = backends.contextSlot(slot.index); owner != slot.index) {
            ctx->backend_.push_back(backend::Context::retained(ctx->backend_[owner].get()));
            continue;
        }
        cl_int err = CL_SUCCESS;
        backend::Context c = backend::context(slot.platform, slot.device, &err);
        if (!c) {
            HETERO_LOG(Error, "creating a context on %s failed: %s", slot.describe().c_str(), errorName(err));
            fail(err == CL_OUT_OF_HOST_MEMORY ? err : CL_OUT_OF_RESOURCES);
        }
        ctx->backend_.push_back(std::move(c));
    }
    ctx->memory_ = memory;
    if (memory.unsafe)
        HETERO_LOG(Warn, "context %p: unified memory %s: results are only right if the devices really share memory",
                   static_cast<void*>(ctx->handle()), memory.why.c_str());
    else
        HETERO_LOG(Info, "context %p: %s memory (%s)", static_cast<void*>(ctx->handle()), memoryModelName(memory.model),
                   memory.why.c_str());
    return guard.detach();
}

Held<Context> contextOf(cl_context context) {
    auto c = fromHandle<Context>(context);
    require(c != nullptr, CL_INVALID_CONTEXT);
    return c;
}

Context::~Context() {
    {
        std::lock_guard lock(destructorMutex_);
        // Called in reverse order of registration, before the context goes away.
        for (auto it = destructors_.rbegin(); it != destructors_.rend(); ++it) it->first(handle(), it->second);
    }
    pinned_.reset();  // kept blocks go with the pool once the buffers on the others are gone
    split_.reset();  // its queues and buffers hold their backend contexts as long as they live
    unified_.reset();
    backend_.clear();  // last: everything above held its backend context
}

std::shared_ptr<PinnedPool> Context::pinnedPool() {
    std::call_once(pinnedOnce_, [this] {
        if (PinnedPool::budget() == 0) return;
        unsigned slot = Backends::instance().primarySlot();
        pinned_ = std::make_shared<PinnedPool>(backend(slot), Device::instance()->slots()[slot].device);
    });
    return pinned_;
}

void Context::addDestructor(Destructor fn, void* userData) {
    std::lock_guard lock(destructorMutex_);
    destructors_.emplace_back(fn, userData);
}

void Context::notify(const std::string& message) const {
    if (notify_) notify_(message.c_str(), nullptr, 0, notifyData_);
}

cl_int Context::info(cl_context_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_CONTEXT_NUM_DEVICES: return out.scalar<cl_uint>(1);
    case CL_CONTEXT_DEVICES: return out.scalar<cl_device_id>(Device::instance()->handle());
    case CL_CONTEXT_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
