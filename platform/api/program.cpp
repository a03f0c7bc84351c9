// OpenCL entry points for programs: validate, translate handles, hand off to objects/program.hpp.
#include "platform/objects/program.hpp"

#include "platform/api/api.hpp"
#include "platform/split/thread_end.hpp"
#include "platform/split/variants.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/support/log.hpp"
#include <cstring>

using namespace hetero;

namespace {

Held<Program> programOf(cl_program program) {
    auto p = fromHandle<Program>(program);
    require(p != nullptr, CL_INVALID_PROGRAM);
    return p;
}

void checkDeviceList(cl_uint num_devices, const cl_device_id* device_list) {
    require((num_devices == 0) == (device_list == nullptr), CL_INVALID_VALUE);
    for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
}

using BuildNotify = void(CL_CALLBACK*)(cl_program, void*);
}  // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                 const size_t* lengths, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        auto c = contextOf(context);
        require(count > 0 && strings != nullptr, CL_INVALID_VALUE);
        std::string source;
        for (cl_uint i = 0; i < count; ++i) {
            require(strings[i] != nullptr, CL_INVALID_VALUE);
            if (lengths && lengths[i])
                source.append(strings[i], lengths[i]);
            else
                source.append(strings[i]);
        }
        return Program::fromSource(c, std::move(source))->handle();
    });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                                 const size_t* lengths, const unsigned char** binaries,
                                                 cl_int* binary_status, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        auto c = contextOf(context);
        require(num_devices > 0 && device_list != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
        require(lengths != nullptr && binaries != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(lengths[i] > 0 && binaries[i] != nullptr, CL_INVALID_VALUE);
        try {
            Program* p = Program::fromBinary(c, binaries[0], lengths[0]);
            if (binary_status)
                for (cl_uint i = 0; i < num_devices; ++i) binary_status[i] = CL_SUCCESS;
            return p->handle();
        } catch (const Error& e) {
            if (binary_status)
                for (cl_uint i = 0; i < num_devices; ++i) binary_status[i] = CL_INVALID_BINARY;
            throw;
        }
    });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* device_list, const char* kernel_names,
                                                         cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        contextOf(context);
        require(num_devices > 0 && device_list != nullptr && kernel_names != nullptr, CL_INVALID_VALUE);
        for (cl_uint i = 0; i < num_devices; ++i) require(isOurDevice(device_list[i]), CL_INVALID_DEVICE);
        fail(CL_INVALID_VALUE);  // the device has no built-in kernels
    });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        contextOf(context);
        require(il != nullptr && length > 0, CL_INVALID_VALUE);
        fail(CL_INVALID_OPERATION);  // CL_DEVICE_IL_VERSION is empty: no intermediate language
    });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
    auto p = fromHandle<Program>(program);
    if (!p) return CL_INVALID_PROGRAM;
    p->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
    auto p = fromHandle<Program>(program);
    if (!p) return CL_INVALID_PROGRAM;
    return p->releaseReference() ? CL_SUCCESS : CL_INVALID_PROGRAM;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                  const char* options, BuildNotify pfn_notify, void* user_data) {
    holdThreadEnd();
    return guarded([&] {
        auto p = programOf(program);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        cl_int err = p->build(options, false, {}, {});
        if (pfn_notify) pfn_notify(program, user_data);  // the build is done when we get here
        return err;
    });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                    const char* options, cl_uint num_input_headers, const cl_program* input_headers,
                                    const char** header_include_names, BuildNotify pfn_notify, void* user_data) {
    holdThreadEnd();
    return guarded([&] {
        auto p = programOf(program);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        require((num_input_headers == 0) == (input_headers == nullptr), CL_INVALID_VALUE);
        require((num_input_headers == 0) == (header_include_names == nullptr), CL_INVALID_VALUE);
        std::vector<Held<Program>> held;  // for the call, as `headers` names them
        std::vector<Program*> headers;
        std::vector<std::string> names;
        for (cl_uint i = 0; i < num_input_headers; ++i) {
            auto h = programOf(input_headers[i]);
            require(h->context() == p->context(), CL_INVALID_CONTEXT);
            require(header_include_names[i] != nullptr, CL_INVALID_VALUE);
            headers.push_back(h);
            held.push_back(std::move(h));
            names.emplace_back(header_include_names[i]);
        }
        cl_int err = p->build(options, true, headers, names);
        if (pfn_notify) pfn_notify(program, user_data);
        return err;
    });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                                     const char* options, cl_uint num_input_programs, const cl_program* input_programs,
                                     BuildNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
    holdThreadEnd();
    return guardedCreate(errcode_ret, [&]() -> cl_program {
        auto c = contextOf(context);
        checkDeviceList(num_devices, device_list);
        require(pfn_notify != nullptr || user_data == nullptr, CL_INVALID_VALUE);
        require(num_input_programs > 0 && input_programs != nullptr, CL_INVALID_VALUE);
        std::vector<Held<Program>> held;  // for the call, as `inputs` names them
        std::vector<Program*> inputs;
        for (cl_uint i = 0; i < num_input_programs; ++i) {
            auto in = programOf(input_programs[i]);
            require(in->context() == c, CL_INVALID_CONTEXT);
            inputs.push_back(in);
            held.push_back(std::move(in));
        }
        Program* p = Program::link(c, inputs, options);
        if (pfn_notify) pfn_notify(p->handle(), user_data);
        return p->handle();
    });
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
    return fromHandle<Platform>(platform) ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                                    void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        return programOf(program)->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device, cl_program_build_info param_name,
                                         size_t param_value_size, void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto p = programOf(program);
        require(isOurDevice(device), CL_INVALID_DEVICE);
        return p->buildInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program, BuildNotify pfn_notify, void* user_data) {
    return guarded([&] {
        programOf(program);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        return CL_INVALID_OPERATION;  // no program-scope global destructors
    });
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                                      const void* spec_value) {
    return guarded([&] {
        programOf(program);
        return CL_INVALID_OPERATION;  // programs are never created from IL
    });
}
