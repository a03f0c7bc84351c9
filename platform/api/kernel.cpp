// OpenCL entry points for kernels and their arguments: validate, translate handles, hand off to objects/kernel.hpp.
#include "platform/objects/kernel.hpp"

#include "platform/api/api.hpp"
#include "platform/split/variants.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include <algorithm>
#include <cstring>

using namespace hetero;

namespace {

// The names in a ';'-separated list (CL_PROGRAM_KERNEL_NAMES).
std::vector<std::string> splitNames(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < s.size()) {
        size_t end = s.find(';', start);
        if (end == std::string::npos) end = s.size();
        if (end > start) out.push_back(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

namespace {
Held<Kernel> kernelOf(cl_kernel kernel) {
    auto k = fromHandle<Kernel>(kernel);
    require(k != nullptr, CL_INVALID_KERNEL);
    return k;
}
}  // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_kernel {
        auto p = fromHandle<Program>(program);
        require(p != nullptr, CL_INVALID_PROGRAM);
        return Kernel::create(p, kernel_name)->handle();
    });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                            cl_uint* num_kernels_ret) {
    return guarded([&] {
        auto p = fromHandle<Program>(program);
        require(p != nullptr, CL_INVALID_PROGRAM);
        require(p->hasExecutable(), CL_INVALID_PROGRAM_EXECUTABLE);
        size_t n = 0;
        cl_int err = p->info(CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n);
        if (err != CL_SUCCESS) return err;
        std::string names(n, '\0');
        p->info(CL_PROGRAM_KERNEL_NAMES, n, names.data(), nullptr);
        names.resize(std::strlen(names.c_str()));
        auto list = splitNames(names);
        require(!kernels || num_kernels >= list.size(), CL_INVALID_VALUE);
        if (kernels) {
            std::vector<cl_kernel> made;
            try {
                for (const auto& name : list) made.push_back(Kernel::create(p, name.c_str())->handle());
            } catch (...) {
                for (cl_kernel k : made) fromHandle<Kernel>(k)->release();
                throw;
            }
            std::copy(made.begin(), made.end(), kernels);
        }
        if (num_kernels_ret) *num_kernels_ret = static_cast<cl_uint>(list.size());
        return CL_SUCCESS;
    });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_kernel { return Kernel::clone(kernelOf(source_kernel).get())->handle(); });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
    auto k = fromHandle<Kernel>(kernel);
    if (!k) return CL_INVALID_KERNEL;
    k->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    auto k = fromHandle<Kernel>(kernel);
    if (!k) return CL_INVALID_KERNEL;
    return k->releaseReference() ? CL_SUCCESS : CL_INVALID_KERNEL;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value) {
    return guarded([&] {
        kernelOf(kernel)->setArg(arg_index, arg_size, arg_value);
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                   void* param_value, size_t* param_value_size_ret) {
    return guarded([&] { return kernelOf(kernel)->info(param_name, param_value_size, param_value, param_value_size_ret); });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto k = kernelOf(kernel);
        require(device == nullptr || isOurDevice(device), CL_INVALID_DEVICE);
        return k->workGroupInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index, cl_kernel_arg_info param_name,
                                      size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        return kernelOf(kernel)->argInfo(arg_index, param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void* input_value, size_t param_value_size,
                                           void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        kernelOf(kernel);
        require(device == nullptr || isOurDevice(device), CL_INVALID_DEVICE);
        return CL_INVALID_OPERATION;  // the device reports no sub-groups
    });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
    return guarded([&] {
        kernelOf(kernel);
        return CL_INVALID_OPERATION;  // no SVM
    });
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name, size_t param_value_size,
                                       const void* param_value) {
    return guarded([&] {
        kernelOf(kernel);
        return CL_INVALID_OPERATION;  // the only defined parameters concern SVM
    });
}
