#include "devices/backend_commands.hpp"

#include <memory>

namespace hetero::backend {

namespace {
using Completion = std::function<void(cl_int)>;
void CL_CALLBACK runCompletion(cl_event, cl_int status, void* data) {
    InBackendCallback inside;
    std::unique_ptr<Completion> fn(static_cast<Completion*>(data));
    (*fn)(status);
}
}  // namespace

bool whenComplete(cl_event e, std::function<void(cl_int)> fn) {
    auto* held = new Completion(std::move(fn));
    if (onComplete(e, runCompletion, held) == CL_SUCCESS) return true;
    delete held;
    return false;
}

}  // namespace hetero::backend
