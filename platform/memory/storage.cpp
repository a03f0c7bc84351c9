// What both storage implementations share, and the choice between them (storage.hpp).
#include "platform/memory/storage.hpp"

#include "devices/backend_commands.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/memory/unified_storage.hpp"
#include "platform/support/error.hpp"

#include <algorithm>

namespace hetero {
namespace {

void CL_CALLBACK completeBridge(cl_event, cl_int status, void* user) {
    backend::InBackendCallback inside;  // completing the bridge may run completions (view_lock.hpp)
    cl_event bridge = static_cast<cl_event>(user);
    backend::complete(bridge, status < 0 ? status : CL_COMPLETE);
    backend::releaseEvent(bridge);
}

}  // namespace

cl_event completesWith(cl_context target, cl_event source) {
    backend::Event made = backend::userEvent(target);
    if (!made) fail(CL_OUT_OF_RESOURCES);
    cl_event user = made.release();
    backend::retainEvent(user);  // the callback's reference, released there
    if (backend::onComplete(source, completeBridge, user) != CL_SUCCESS) {
        cl_int st = backend::waitFor(source);  // cannot be told: wait here (rare)
        completeBridge(source, st == CL_SUCCESS ? CL_COMPLETE : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, user);
    }
    return user;
}

std::shared_ptr<Storage> Storage::create(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image) {
    if (UnifiedStorage::canHold(context, useHostPtr, image))
        return std::make_shared<UnifiedStorage>(context, bytes, useHostPtr);
    return std::make_shared<DiscreteStorage>(context, bytes, useHostPtr, image);
}

Storage::Storage(Context* context, size_t bytes, void* useHostPtr, const ImageLayout* image)
    : context_(context), bytes_(bytes), isImage_(image != nullptr), copies_(context->slotCount()) {
    if (image) image_ = *image;
    if (useHostPtr) host_ = static_cast<unsigned char*>(useHostPtr);
}

void Storage::releaseCopies() {
    for (auto& c : copies_)
        for (cl_mem v : c.views.takeAll()) backend::releaseView(v);
    for (auto& c : copies_) {
        c.ready.reset();
        if (c.mem) backend::releaseRoot(c.mem);  // after its views (devices/view_lock.hpp)
    }
}

void Storage::bringFailed(unsigned slot, uint64_t version) {
    std::lock_guard lock(failedBringsMutex_);
    failedBrings_.emplace_back(slot, version);
    failedBringsPending_.store(true, std::memory_order_release);
}

void Storage::forgetFailedBrings() {
    std::vector<std::pair<unsigned, uint64_t>> failed;
    {
        std::lock_guard lock(failedBringsMutex_);
        failed.swap(failedBrings_);
        failedBringsPending_.store(false, std::memory_order_relaxed);
    }
    for (auto [slot, version] : failed) forgetFailedTransfer(slot, version);
}

void Storage::forgetFailedTransfer(unsigned slot, uint64_t version) {
    Copy& c = copies_[slot];
    if (c.version == version) c.version = kNoVersion;
    // Nothing need wait for it any more, and a wait list holding it would fail.
    if (c.ready && backend::done(c.ready.get()) && backend::status(c.ready.get()) < 0) {
        c.ready.reset();
        c.readyQueue = nullptr;
    }
}

void Storage::checkMirrors() {
    auto over = std::remove_if(mirrors_.begin(), mirrors_.end(), [this](const Mirror& m) {
        if (!backend::done(m.sent.get())) return false;
        if (backend::status(m.sent.get()) < 0) forgetFailedTransfer(m.slot, m.version);
        return true;
    });
    mirrors_.erase(over, mirrors_.end());
}

void Storage::addView(unsigned slot, cl_mem view, size_t begin, size_t end) { copies_[slot].views.add(view, begin, end); }

std::vector<cl_mem> Storage::retireView(unsigned slot, cl_mem view) { return copies_[slot].views.retire(view); }

int Storage::freshSlot(unsigned preferred) {
    dropFailedBrings();
    if (preferred < copies_.size() && copies_[preferred].version == version_) return static_cast<int>(preferred);
    for (size_t s = 0; s < copies_.size(); ++s)
        if (copies_[s].version == version_) return static_cast<int>(s);
    return -1;
}

}  // namespace hetero
