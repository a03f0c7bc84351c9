// The operations of backend_objects.hpp that are not worth inlining (none is on a launch's path).
#include "devices/backend_objects.hpp"

namespace hetero::backend {
namespace {

void setErr(cl_int* err, cl_int value) {
    if (err) *err = value;
}

// A variable-size answer: `query(size, value, sizeRet)` asked for the size, then the value. The
// query's error; `out` empty on one.
template <class Bytes, class Query>
cl_int asked(Bytes& out, Query query) {
    out.clear();
    size_t n = 0;
    cl_int err = query(0, nullptr, &n);
    if (err != CL_SUCCESS || n == 0) return err;
    out.resize(n);
    err = query(n, out.data(), nullptr);
    if (err != CL_SUCCESS) out.clear();
    return err;
}

// A string answer without its terminating NULs; empty when there is none.
template <class Query>
std::string askedString(Query query) {
    std::string s;
    asked(s, query);
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

}  // namespace

Context context(cl_platform_id platform, cl_device_id device, cl_int* err) {
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
    cl_int e = CL_SUCCESS;
    Context c(BACKEND(platform, clCreateContext)(props, 1, &device, nullptr, nullptr, &e));
    setErr(err, e);
    return c;
}

Queue queue(cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Queue q(BACKEND(context, clCreateCommandQueue)(context, device, properties, &e));
    setErr(err, e);
    return q;
}

Buffer buffer(cl_context context, cl_mem_flags flags, size_t bytes, void* hostPtr, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Buffer b(BACKEND(context, clCreateBuffer)(context, flags, bytes, hostPtr, &e));
    setErr(err, e);
    return b;
}

Buffer image(cl_context context, cl_mem_flags flags, const cl_image_format& format, const cl_image_desc& desc,
             void* hostPtr, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Buffer b(BACKEND(context, clCreateImage)(context, flags, &format, &desc, hostPtr, &e));
    setErr(err, e);
    return b;
}

cl_mem subBuffer(cl_mem root, cl_mem_flags flags, const cl_buffer_region& region, cl_int* err) {
    ViewChange alone;  // not BACKEND() while held
    return root->dispatch->clCreateSubBuffer(root, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
}

cl_mem imageView(cl_context context, cl_mem_flags flags, const cl_image_format& format, const cl_image_desc& desc,
                 cl_int* err) {
    ViewChange alone;  // not BACKEND() while held
    return context->dispatch->clCreateImage(context, flags, &format, &desc, nullptr, err);
}

cl_int supportedImageFormats(cl_context context, cl_mem_flags flags, cl_mem_object_type type,
                             std::vector<cl_image_format>& out) {
    cl_uint n = 0;
    cl_int err = BACKEND(context, clGetSupportedImageFormats)(context, flags, type, 0, nullptr, &n);
    if (err != CL_SUCCESS) return err;
    out.assign(n, cl_image_format{});
    if (n) BACKEND(context, clGetSupportedImageFormats)(context, flags, type, n, out.data(), nullptr);
    return CL_SUCCESS;
}

Sampler sampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Sampler s(BACKEND(context, clCreateSampler)(context, normalized, addressing, filter, &e));
    setErr(err, e);
    return s;
}

Program programFromSource(cl_context context, const char* source, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Program p(BACKEND(context, clCreateProgramWithSource)(context, 1, &source, nullptr, &e));
    setErr(err, e);
    return p;
}

Program programFromBinary(cl_context context, cl_device_id device, const unsigned char* binary, size_t size, cl_int* err) {
    cl_int e = CL_SUCCESS, status = CL_SUCCESS;
    Program p(BACKEND(context, clCreateProgramWithBinary)(context, 1, &device, &size, &binary, &status, &e));
    setErr(err, e);
    return p;
}

cl_int build(cl_program program, cl_device_id device, const char* options) {
    return BACKEND(program, clBuildProgram)(program, 1, &device, options, nullptr, nullptr);
}

cl_int compile(cl_program program, cl_device_id device, const char* options, const std::vector<cl_program>& headers,
               const std::vector<const char*>& headerNames) {
    // const_cast: the backend only reads the names (its parameter lacks the const).
    return BACKEND(program, clCompileProgram)(program, 1, &device, options, static_cast<cl_uint>(headers.size()),
                                              headers.empty() ? nullptr : headers.data(),
                                              headerNames.empty() ? nullptr : const_cast<const char**>(headerNames.data()),
                                              nullptr, nullptr);
}

Program link(cl_context context, cl_device_id device, const char* options, const std::vector<cl_program>& inputs,
             cl_int* err) {
    cl_int e = CL_SUCCESS;
    Program p(BACKEND(context, clLinkProgram)(context, 1, &device, options, static_cast<cl_uint>(inputs.size()),
                                              inputs.data(), nullptr, nullptr, &e));
    setErr(err, e);
    return p;
}

std::string programInfoString(cl_program program, cl_program_info param) {
    return askedString([&](size_t n, void* v, size_t* ret) { return BACKEND(program, clGetProgramInfo)(program, param, n, v, ret); });
}

std::string programBuildInfoString(cl_program program, cl_device_id device, cl_program_build_info param) {
    return askedString([&](size_t n, void* v, size_t* ret) {
        return BACKEND(program, clGetProgramBuildInfo)(program, device, param, n, v, ret);
    });
}

std::vector<unsigned char> programBinary(cl_program program) {
    size_t n = 0;
    programInfo(program, CL_PROGRAM_BINARY_SIZES, n);
    std::vector<unsigned char> bytes(n);
    unsigned char* ptr = bytes.data();
    if (n) programInfo(program, CL_PROGRAM_BINARIES, ptr);
    return bytes;
}

Kernel kernel(cl_program program, const char* name, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Kernel k(BACKEND(program, clCreateKernel)(program, name, &e));
    setErr(err, e);
    return k;
}

Kernel cloneKernel(cl_kernel source, cl_int* err) {
    cl_int e = CL_SUCCESS;
    Kernel k(BACKEND(source, clCloneKernel)(source, &e));
    setErr(err, e);
    return k;
}

std::string kernelInfoString(cl_kernel kernel, cl_kernel_info param) {
    return askedString([&](size_t n, void* v, size_t* ret) { return BACKEND(kernel, clGetKernelInfo)(kernel, param, n, v, ret); });
}

cl_int kernelArgInfoBytes(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param, std::vector<unsigned char>& out) {
    return asked(out, [&](size_t n, void* v, size_t* ret) {
        return BACKEND(kernel, clGetKernelArgInfo)(kernel, index, param, n, v, ret);
    });
}

std::vector<unsigned char> deviceInfoBytes(cl_device_id device, cl_device_info param) {
    std::vector<unsigned char> v;
    asked(v, [&](size_t n, void* value, size_t* ret) { return BACKEND(device, clGetDeviceInfo)(device, param, n, value, ret); });
    return v;
}

std::string deviceInfoString(cl_device_id device, cl_device_info param) {
    return askedString([&](size_t n, void* v, size_t* ret) { return BACKEND(device, clGetDeviceInfo)(device, param, n, v, ret); });
}

std::string platformInfoString(cl_platform_id platform, cl_platform_info param) {
    return askedString(
        [&](size_t n, void* v, size_t* ret) { return BACKEND(platform, clGetPlatformInfo)(platform, param, n, v, ret); });
}

}  // namespace hetero::backend
