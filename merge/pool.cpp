#include "merge/pool.hpp"

#include "devices/backend_objects.hpp"

namespace hetero::merge {

cl_mem BufferPool::take(cl_context context, size_t bytes) {
    {
        std::lock_guard lock(mutex_);
        auto it = free_.find({context, bytes});
        if (it != free_.end() && !it->second.empty()) {
            cl_mem b = it->second.back().buffer.release();
            it->second.pop_back();
            return b;
        }
    }
    backend::Buffer b = backend::buffer(context, CL_MEM_READ_WRITE, bytes, nullptr);
    if (!b) fail(CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return b.release();
}

void BufferPool::give(cl_context context, cl_mem buffer, size_t bytes) {
    constexpr unsigned idleLimit = 64;
    std::vector<backend::Buffer> drop;  // released after the lock
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, entries] : free_)
            for (auto it = entries.begin(); it != entries.end();) {
                if (++it->idle > idleLimit) {
                    drop.push_back(std::move(it->buffer));
                    it = entries.erase(it);
                } else {
                    ++it;
                }
            }
        free_[{context, bytes}].push_back({backend::Buffer(buffer), 0});
    }
}

std::vector<unsigned char> HostBufferPool::take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (auto it = free_.rbegin(); it != free_.rend(); ++it)
        if (it->size() == bytes) {
            std::vector<unsigned char> b = std::move(*it);
            free_.erase(std::next(it).base());
            idleBytes_ -= bytes;
            return b;
        }
    return std::vector<unsigned char>(bytes);
}

void HostBufferPool::give(std::vector<unsigned char> buffer) {
    std::lock_guard lock(mutex_);
    idleBytes_ += buffer.size();
    free_.push_back(std::move(buffer));
    while (idleBytes_ > idleBytesLimit && !free_.empty()) {
        idleBytes_ -= free_.front().size();
        free_.erase(free_.begin());
    }
}

}  // namespace hetero::merge
