// The one generic helper behind every clGet*Info: copies a value into the caller's buffer with the
// specification's size rules (CL_INVALID_VALUE when param_value is too small).
#pragma once

#include "platform/support/error.hpp"

#include <CL/cl.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace hetero {

class InfoWriter {
public:
    // A NULL param_value is ignored whatever the size (a size query); a non-NULL one smaller than
    // the answer is refused in bytes().
    InfoWriter(size_t size, void* value, size_t* sizeRet) : size_(size), value_(value), sizeRet_(sizeRet) {}

    cl_int bytes(const void* data, size_t n) {
        if (value_) {
            require(size_ >= n, CL_INVALID_VALUE);
            if (n) std::memcpy(value_, data, n);
        }
        if (sizeRet_) *sizeRet_ = n;
        return CL_SUCCESS;
    }
    template <class T>
    cl_int scalar(const T& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        return bytes(&v, sizeof v);
    }
    cl_int string(const std::string& s) { return bytes(s.c_str(), s.size() + 1); }
    template <class T>
    cl_int array(const std::vector<T>& v) {
        return bytes(v.data(), v.size() * sizeof(T));
    }

private:
    size_t size_;
    void* value_;
    size_t* sizeRet_;
};

}  // namespace hetero
