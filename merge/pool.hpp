// Buffers reused across split launches: backend buffers for snapshots and receive buffers, host
// buffers for what a launch last sent.
#pragma once

#include "devices/backend_call.hpp"

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace hetero::merge {

// Backend buffers reused across launches, per backend context and size. Buffers idle for longer
// than `idleLimit` releases are dropped, so the pool shrinks when launches stop needing them.
// A buffer taken is the caller's reference, raw: split launches pass it between their steps and
// give it back here.
class BufferPool {
public:
    cl_mem take(cl_context context, size_t bytes);  // throws Error
    void give(cl_context context, cl_mem buffer, size_t bytes);

private:
    struct Entry {
        backend::Buffer buffer;
        unsigned idle;  // how many give() calls it has waited through
    };
    std::mutex mutex_;
    std::map<std::pair<cl_context, size_t>, std::vector<Entry>> free_;
};

// Host buffers (what a split launch last sent to the GPU), reused across launches: the page faults
// of a fresh allocation cost more than the copies they serve. At most `idleBytesLimit` stay idle.
class HostBufferPool {
public:
    std::vector<unsigned char> take(size_t bytes);
    void give(std::vector<unsigned char> buffer);

private:
    static constexpr size_t idleBytesLimit = size_t{1} << 30;
    std::mutex mutex_;
    std::vector<std::vector<unsigned char>> free_;  // oldest first
    size_t idleBytes_ = 0;
};

}  // namespace hetero::merge
