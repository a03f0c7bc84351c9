// Error handling for API entry points: internal code throws Error(code); the entry wrappers turn
// it (and allocation failure) into the return value or *errcode_ret, so nothing escapes to C.
#pragma once

#include <CL/cl.h>

#include <exception>
#include <new>
#include <string>

namespace hetero {

struct Error {
    cl_int code;
};

[[noreturn]] inline void fail(cl_int code) { throw Error{code}; }
inline void require(bool condition, cl_int code) {
    if (!condition) fail(code);
}

const char* errorName(cl_int code);

// For entry points returning cl_int.
template <class F>
cl_int guarded(F&& body) noexcept {
    try {
        return body();
    } catch (const Error& e) {
        return e.code;
    } catch (const std::bad_alloc&) {
        return CL_OUT_OF_HOST_MEMORY;
    } catch (...) {
        return CL_OUT_OF_RESOURCES;
    }
}

// For entry points returning an object and reporting through errcode_ret.
template <class F>
auto guardedCreate(cl_int* errcode_ret, F&& body) noexcept -> decltype(body()) {
    cl_int code = CL_SUCCESS;
    try {
        auto result = body();
        if (errcode_ret) *errcode_ret = CL_SUCCESS;
        return result;
    } catch (const Error& e) {
        code = e.code;
    } catch (const std::bad_alloc&) {
        code = CL_OUT_OF_HOST_MEMORY;
    } catch (...) {
        code = CL_OUT_OF_RESOURCES;
    }
    if (errcode_ret) *errcode_ret = code;
    return nullptr;
}

}  // namespace hetero
