// Setting a merge-module kernel's arguments (merge.cpp, changed_span.cpp): one call per kernel.
#pragma once

#include "devices/backend_call.hpp"
#include "devices/backend_objects.hpp"

namespace hetero::merge {

// Sets `kernel`'s arguments 0, 1, ... to `values` (throws Error).
template <typename... T>
void setArgs(cl_kernel kernel, const T&... values) {
    cl_uint index = 0;
    (check(backend::setArg(kernel, index++, sizeof values, &values)), ...);
}

}  // namespace hetero::merge
