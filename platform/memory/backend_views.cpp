// The release order of backend views: see backend_views.hpp.
#include "platform/memory/backend_views.hpp"

#include <algorithm>

namespace hetero {

void BackendViews::add(cl_mem view, size_t begin, size_t end) {
    std::lock_guard lock(mutex_);
    views_.push_back({view, begin, end, false});
}

std::vector<cl_mem> BackendViews::retire(cl_mem view) {
    std::lock_guard lock(mutex_);
    for (auto& v : views_)
        if (v.mem == view) v.retired = true;
    // Newest first: a view that goes lets the older ones it overlapped go in the same pass.
    std::vector<cl_mem> released;
    for (size_t i = views_.size(); i-- > 0;) {
        if (!views_[i].retired) continue;
        bool overlapsLater = std::any_of(views_.begin() + static_cast<std::ptrdiff_t>(i) + 1, views_.end(), [&](const View& later) {
            return later.begin < views_[i].end && views_[i].begin < later.end;
        });
        if (overlapsLater) continue;
        released.push_back(views_[i].mem);
        views_.erase(views_.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return released;
}

std::vector<cl_mem> BackendViews::takeAll() {
    std::lock_guard lock(mutex_);
    std::vector<cl_mem> all;
    for (auto it = views_.rbegin(); it != views_.rend(); ++it) all.push_back(it->mem);
    views_.clear();
    return all;
}

}  // namespace hetero
