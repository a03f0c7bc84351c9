// Programs and kernels: creation from source and binary, build/compile/link with options and logs,
// program/build/kernel/work-group/argument info, argument errors, and launch validation.
#include "cl_test.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// One program for most tests (PoCL caches its compilation, so each test building it again is cheap).
const char* kSource = R"CLC(
#ifndef VALUE
#define VALUE 0
#endif
__kernel void add_one(__global int* data, int amount) {
    size_t i = get_global_id(0);
    data[i] += amount;
}
__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed_group(__global int* out) {
    out[get_global_id(0)] = (int)get_local_size(0);
}
__kernel void reverse_in_group(__global int* out, __local int* scratch) {
    size_t l = get_local_id(0);
    scratch[l] = (int)get_global_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[get_local_size(0) - 1 - l];
}
__kernel void put_value(__global int* out) { out[0] = VALUE; }
)CLC";

std::string programString(cl_program p, cl_program_info param) {
    size_t n = 0;
    REQUIRE(clGetProgramInfo(p, param, 0, nullptr, &n) == CL_SUCCESS);
    std::string s(n, '\0');
    REQUIRE(clGetProgramInfo(p, param, n, s.data(), nullptr) == CL_SUCCESS);
    if (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

std::string buildString(cl_program p, cl_device_id d, cl_program_build_info param) {
    size_t n = 0;
    REQUIRE(clGetProgramBuildInfo(p, d, param, 0, nullptr, &n) == CL_SUCCESS);
    std::string s(n, '\0');
    REQUIRE(clGetProgramBuildInfo(p, d, param, n, s.data(), nullptr) == CL_SUCCESS);
    if (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

cl_build_status buildStatus(cl_program p, cl_device_id d) {
    cl_build_status s = 99;
    REQUIRE(clGetProgramBuildInfo(p, d, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr) == CL_SUCCESS);
    return s;
}

std::set<std::string> splitNames(const std::string& s) {
    std::set<std::string> out;
    std::stringstream in(s);
    for (std::string w; std::getline(in, w, ';');)
        if (!w.empty()) out.insert(w);
    return out;
}

cl_program fromSource(cl_context c, const char* source) {
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(c, 1, &source, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    return p;
}

template <class T>
T kernelGroupValue(cl_kernel k, cl_device_id d, cl_kernel_work_group_info param) {
    T v{};
    REQUIRE(clGetKernelWorkGroupInfo(k, d, param, sizeof v, &v, nullptr) == CL_SUCCESS);
    return v;
}

// Runs add_one over `data` with `amount` and returns the result.
std::vector<cl_int> runAddOne(cltest::Env& env, cl_kernel k, std::vector<cl_int> data, cl_int amount) {
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
    cltest::setArg(k, 0, m);
    cltest::setArg(k, 1, amount);
    size_t global = data.size();
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    auto out = env.read<cl_int>(m, data.size());
    clReleaseMemObject(m);
    return out;
}

}  // namespace

TEST_CASE("api: clCreateProgramWithSource checks its arguments and keeps the source", "[api][program]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    CHECK(clCreateProgramWithSource(env.context, 0, &kSource, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clCreateProgramWithSource(env.context, 1, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    const char* withNull[] = {"__kernel void a() {}", nullptr};
    CHECK(clCreateProgramWithSource(env.context, 2, withNull, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    // Pieces with explicit lengths and a zero length (meaning: NUL-terminated) are concatenated.
    const char* pieces[] = {"__kernel void a() {}XXXX", "\n__kernel void b() {}"};
    size_t lengths[] = {20, 0};
    cl_program p = clCreateProgramWithSource(env.context, 2, pieces, lengths, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(programString(p, CL_PROGRAM_SOURCE) == "__kernel void a() {}\n__kernel void b() {}");
    clReleaseProgram(p);
}

TEST_CASE("api: program info before and after a build", "[api][program]") {
    cltest::Env env;
    cl_program p = fromSource(env.context, kSource);
    cl_context context = nullptr;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_CONTEXT, sizeof context, &context, nullptr) == CL_SUCCESS);
    CHECK(context == env.context);
    cl_uint devices = 0;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, nullptr) == CL_SUCCESS);
    CHECK(devices == 1);
    cl_device_id device = nullptr;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof device, &device, nullptr) == CL_SUCCESS);
    CHECK(device == env.device);
    CHECK(buildStatus(p, env.device) == CL_BUILD_NONE);
    size_t kernels = 0;
    CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_INVALID_PROGRAM_EXECUTABLE);
    cl_int err = CL_SUCCESS;
    CHECK(clCreateKernel(p, "add_one", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);

    REQUIRE(clBuildProgram(p, 1, &env.device, "-cl-mad-enable -DVALUE=3", nullptr, nullptr) == CL_SUCCESS);
    CHECK(buildStatus(p, env.device) == CL_BUILD_SUCCESS);
    CHECK(buildString(p, env.device, CL_PROGRAM_BUILD_OPTIONS) == "-cl-mad-enable -DVALUE=3");
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) == CL_SUCCESS);
    CHECK(kernels == 4);
    CHECK(splitNames(programString(p, CL_PROGRAM_KERNEL_NAMES)) ==
          std::set<std::string>{"add_one", "fixed_group", "reverse_in_group", "put_value"});
    cl_program_binary_type type = 0;
    REQUIRE(clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

    cl_uint refs = 0;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 1);
    CHECK(clGetProgramInfo(p, 0x7777, sizeof refs, &refs, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetProgramBuildInfo(p, env.device, 0x7777, sizeof refs, &refs, nullptr) == CL_INVALID_VALUE);

    // The options really reached the compiler.
    cl_kernel k = env.kernel(p, "put_value");
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    cltest::setArg(k, 0, out);
    REQUIRE(clEnqueueTask(env.queue, k, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(out, 1)[0] == 3);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a failing build reports CL_BUILD_PROGRAM_FAILURE with a log", "[api][program]") {
    cltest::Env env;
    cl_program p = fromSource(env.context, "__kernel void broken(__global int* x) { x[0] = undeclared_thing; }");
    CHECK(clBuildProgram(p, 1, &env.device, nullptr, nullptr, nullptr) == CL_BUILD_PROGRAM_FAILURE);
    CHECK(buildStatus(p, env.device) == CL_BUILD_ERROR);
    std::string log = buildString(p, env.device, CL_PROGRAM_BUILD_LOG);
    INFO(log);
    CHECK(log.find("undeclared_thing") != std::string::npos);
    cl_int err = CL_SUCCESS;
    CHECK(clCreateKernel(p, "broken", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    cl_uint n = 0;
    CHECK(clCreateKernelsInProgram(p, 0, nullptr, &n) == CL_INVALID_PROGRAM_EXECUTABLE);
    clReleaseProgram(p);
}

TEST_CASE("api: build arguments are checked", "[api][program]") {
    cltest::Env env;
    cl_program p = fromSource(env.context, kSource);
    int data = 0;
    CHECK(clBuildProgram(p, 1, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clBuildProgram(p, 0, &env.device, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, &data) == CL_INVALID_VALUE);
    CHECK(clBuildProgram(p, 0, nullptr, "-cl-no-such-option", nullptr, nullptr) == CL_INVALID_BUILD_OPTIONS);

    // The notification runs once the build is done; NULL device list means all devices.
    struct Seen {
        int calls = 0;
        cl_build_status status = CL_BUILD_NONE;
        cl_device_id device = nullptr;
    } seen;
    seen.device = env.device;
    auto notify = [](cl_program program, void* user) {
        auto* s = static_cast<Seen*>(user);
        ++s->calls;
        clGetProgramBuildInfo(program, s->device, CL_PROGRAM_BUILD_STATUS, sizeof s->status, &s->status, nullptr);
    };
    REQUIRE(clBuildProgram(p, 0, nullptr, "", notify, &seen) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(seen.calls == 1);
    CHECK(seen.status == CL_BUILD_SUCCESS);

    // A program with kernels attached may not be rebuilt.
    cl_kernel k = env.kernel(p, "add_one");
    CHECK(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr) == CL_INVALID_OPERATION);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a program binary round trip builds and runs", "[api][program]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    size_t size = 0;
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
    REQUIRE(size > 0);
    std::vector<unsigned char> binary(size);
    unsigned char* where = binary.data();
    REQUIRE(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr) == CL_SUCCESS);
    clReleaseProgram(p);

    // Into another context of the same device.
    cltest::Env other;
    const unsigned char* bytes = binary.data();
    cl_int status = -1, err = CL_SUCCESS;
    cl_program fromBinary = clCreateProgramWithBinary(other.context, 1, &other.device, &size, &bytes, &status, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(status == CL_SUCCESS);
    REQUIRE(clBuildProgram(fromBinary, 1, &other.device, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_kernel k = other.kernel(fromBinary, "add_one");
    CHECK(runAddOne(other, k, {1, 2, 3, 4}, 10) == std::vector<cl_int>{11, 12, 13, 14});
    clReleaseKernel(k);
    clReleaseProgram(fromBinary);
}

TEST_CASE("api: an invalid binary is refused with per-device status", "[api][program]") {
    cltest::Env env;
    std::vector<unsigned char> junk(64, 0xab);
    const unsigned char* bytes = junk.data();
    size_t size = junk.size();
    cl_int status = CL_SUCCESS, err = CL_SUCCESS;
    CHECK(clCreateProgramWithBinary(env.context, 1, &env.device, &size, &bytes, &status, &err) == nullptr);
    CHECK(err == CL_INVALID_BINARY);
    CHECK(status == CL_INVALID_BINARY);
    CHECK(clCreateProgramWithBinary(env.context, 1, &env.device, nullptr, &bytes, &status, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    size_t zero = 0;
    CHECK(clCreateProgramWithBinary(env.context, 1, &env.device, &zero, &bytes, &status, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clCreateProgramWithBinary(env.context, 0, &env.device, &size, &bytes, &status, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
}

TEST_CASE("api: separate compilation with headers, a library and a link", "[api][program]") {
    cltest::Env env;
    const char* header = "int scale(int x);\n";
    const char* library = "#include \"scale.h\"\nint scale(int x) { return x * FACTOR; }\n";
    const char* main = "#include \"scale.h\"\n__kernel void apply(__global int* d) { d[get_global_id(0)] = scale(d[get_global_id(0)]); }\n";
    cl_program h = fromSource(env.context, header);
    cl_program lib = fromSource(env.context, library);
    cl_program app = fromSource(env.context, main);
    const char* names[] = {"scale.h"};
    REQUIRE(clCompileProgram(lib, 1, &env.device, "-DFACTOR=3", 1, &h, names, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clCompileProgram(app, 1, &env.device, nullptr, 1, &h, names, nullptr, nullptr) == CL_SUCCESS);
    cl_program_binary_type type = 0;
    REQUIRE(clGetProgramBuildInfo(app, env.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

    cl_int err = CL_SUCCESS;
    cl_program archive = clLinkProgram(env.context, 1, &env.device, "-create-library", 1, &lib, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program inputs[] = {app, archive};
    cl_program linked = clLinkProgram(env.context, 1, &env.device, nullptr, 2, inputs, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(buildStatus(linked, env.device) == CL_BUILD_SUCCESS);

    cl_kernel k = env.kernel(linked, "apply");
    std::vector<cl_int> data{1, -2, 5, 7};
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
    cltest::setArg(k, 0, m);
    size_t global = data.size();
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(m, 4) == std::vector<cl_int>{3, -6, 15, 21});
    clReleaseMemObject(m);
    clReleaseKernel(k);
    for (cl_program p : {linked, archive, app, lib, h}) clReleaseProgram(p);
}

TEST_CASE("api: compile and link errors", "[api][program]") {
    cltest::Env env;
    cl_program bad = fromSource(env.context, "int f( { return 1; }\n");
    CHECK(clCompileProgram(bad, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_COMPILE_PROGRAM_FAILURE);
    CHECK(buildStatus(bad, env.device) == CL_BUILD_ERROR);
    CHECK_FALSE(buildString(bad, env.device, CL_PROGRAM_BUILD_LOG).empty());

    cl_program h = fromSource(env.context, "int x;\n");
    const char* names[] = {"x.h"};
    // Headers and their names go together.
    CHECK(clCompileProgram(bad, 1, &env.device, nullptr, 1, &h, nullptr, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clCompileProgram(bad, 1, &env.device, nullptr, 0, nullptr, names, nullptr, nullptr) == CL_INVALID_VALUE);

    cl_int err = CL_SUCCESS;
    CHECK(clLinkProgram(env.context, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    cl_program object = fromSource(env.context, "int f(int x) { return x + 1; }\n");
    REQUIRE(clCompileProgram(object, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clLinkProgram(env.context, 1, &env.device, "-no-such-linker-option", 1, &object, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_LINKER_OPTIONS);
    clReleaseProgram(object);

    // A kernel calling a function no input defines.
    cl_program caller = fromSource(env.context, "int missing(int);\n__kernel void k(__global int* d) { d[0] = missing(d[0]); }\n");
    REQUIRE(clCompileProgram(caller, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    cl_program linked = clLinkProgram(env.context, 1, &env.device, nullptr, 1, &caller, nullptr, nullptr, &err);
    CHECK(err == CL_LINK_PROGRAM_FAILURE);
    if (linked) clReleaseProgram(linked);
    for (cl_program p : {caller, h, bad}) clReleaseProgram(p);
}

TEST_CASE("api: compiled objects and libraries are no executables", "[api][program]") {
    cltest::Env env;
    cl_program object = fromSource(env.context, kSource);
    cl_int err = CL_SUCCESS;
    // Linking needs compiled objects or libraries as inputs.
    CHECK(clLinkProgram(env.context, 1, &env.device, nullptr, 1, &object, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);

    REQUIRE(clCompileProgram(object, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clCreateKernel(object, "add_one", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);
    cl_uint count = 0;
    CHECK(clCreateKernelsInProgram(object, 0, nullptr, &count) == CL_INVALID_PROGRAM_EXECUTABLE);
    size_t kernels = 0;
    CHECK(clGetProgramInfo(object, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr) ==
          CL_INVALID_PROGRAM_EXECUTABLE);

    cl_program library = clLinkProgram(env.context, 1, &env.device, "-create-library", 1, &object, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program_binary_type type = 0;
    REQUIRE(clGetProgramBuildInfo(library, env.device, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    CHECK(clCreateKernel(library, "add_one", &err) == nullptr);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE);

    // A program made from a binary has no source to compile.
    cl_program built = env.build(kSource);
    size_t size = 0;
    REQUIRE(clGetProgramInfo(built, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> binary(size);
    unsigned char* where = binary.data();
    REQUIRE(clGetProgramInfo(built, CL_PROGRAM_BINARIES, sizeof where, &where, nullptr) == CL_SUCCESS);
    const unsigned char* bytes = binary.data();
    cl_program fromBinary = clCreateProgramWithBinary(env.context, 1, &env.device, &size, &bytes, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(clCompileProgram(fromBinary, 1, &env.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr) ==
          CL_INVALID_OPERATION);
    for (cl_program p : {fromBinary, built, library, object}) clReleaseProgram(p);
}

TEST_CASE("api: kernel creation and kernel info", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_int err = CL_SUCCESS;
    CHECK(clCreateKernel(p, "no_such_kernel", &err) == nullptr);
    CHECK(err == CL_INVALID_KERNEL_NAME);
    CHECK(clCreateKernel(p, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    cl_uint count = 0;
    REQUIRE(clCreateKernelsInProgram(p, 0, nullptr, &count) == CL_SUCCESS);
    CHECK(count == 4);
    std::vector<cl_kernel> all(count);
    CHECK(clCreateKernelsInProgram(p, count - 1, all.data(), nullptr) == CL_INVALID_VALUE);
    REQUIRE(clCreateKernelsInProgram(p, count, all.data(), nullptr) == CL_SUCCESS);
    std::set<std::string> names;
    for (cl_kernel k : all) {
        char name[64] = {};
        REQUIRE(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
        names.insert(name);
        clReleaseKernel(k);
    }
    CHECK(names == std::set<std::string>{"add_one", "fixed_group", "reverse_in_group", "put_value"});

    cl_kernel k = env.kernel(p, "add_one");
    cl_uint args = 0;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr) == CL_SUCCESS);
    CHECK(args == 2);
    cl_program owner = nullptr;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, nullptr) == CL_SUCCESS);
    CHECK(owner == p);
    cl_context context = nullptr;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_CONTEXT, sizeof context, &context, nullptr) == CL_SUCCESS);
    CHECK(context == env.context);
    cl_uint refs = 0;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 1);
    char tiny[2];
    CHECK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof tiny, tiny, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelInfo(k, 0x7777, sizeof refs, &refs, nullptr) == CL_INVALID_VALUE);

    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: kernel work-group info", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    cl_kernel fixed = env.kernel(p, "fixed_group");
    size_t deviceMax = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof deviceMax, &deviceMax, nullptr) == CL_SUCCESS);
    size_t group = kernelGroupValue<size_t>(k, env.device, CL_KERNEL_WORK_GROUP_SIZE);
    CHECK(group >= 1);
    CHECK(group <= deviceMax);
    CHECK(kernelGroupValue<size_t>(k, env.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE) >= 1);
    kernelGroupValue<cl_ulong>(k, env.device, CL_KERNEL_LOCAL_MEM_SIZE);
    kernelGroupValue<cl_ulong>(k, env.device, CL_KERNEL_PRIVATE_MEM_SIZE);
    // With a single device, device may be NULL.
    size_t viaNull = 0;
    REQUIRE(clGetKernelWorkGroupInfo(k, nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof viaNull, &viaNull, nullptr) == CL_SUCCESS);
    CHECK(viaNull == group);

    size_t compiled[3] = {9, 9, 9};
    REQUIRE(clGetKernelWorkGroupInfo(fixed, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled,
                                     nullptr) == CL_SUCCESS);
    CHECK(compiled[0] == 4);
    CHECK(compiled[1] == 1);
    CHECK(compiled[2] == 1);
    REQUIRE(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof compiled, compiled,
                                     nullptr) == CL_SUCCESS);
    CHECK(compiled[0] == 0);

    // Only custom devices and built-in kernels answer CL_KERNEL_GLOBAL_WORK_SIZE.
    size_t global[3];
    CHECK(clGetKernelWorkGroupInfo(k, env.device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof global, global, nullptr) ==
          CL_INVALID_VALUE);
    clReleaseKernel(fixed);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: kernel argument info when built with -cl-kernel-arg-info", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource, "-cl-kernel-arg-info");
    cl_kernel k = env.kernel(p, "reverse_in_group");
    char name[64] = {};
    REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
    CHECK(std::string(name) == "out");
    REQUIRE(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
    CHECK(std::string(name) == "scratch");
    cl_kernel_arg_address_qualifier q = 0;
    REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) == CL_SUCCESS);
    CHECK(q == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    REQUIRE(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof q, &q, nullptr) == CL_SUCCESS);
    CHECK(q == CL_KERNEL_ARG_ADDRESS_LOCAL);
    REQUIRE(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr) == CL_SUCCESS);
    CHECK(std::string(name) == "int*");
    CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_INVALID_ARG_INDEX);

    // Knowing the argument is a global pointer, a value that is no memory object of ours is refused
    // (the backend must never see it: it would take it for one of its own objects).
    struct {
        const void* dispatch;
        char pad[64];
    } notAMem{};
    cl_mem fake = reinterpret_cast<cl_mem>(&notAMem);
    CHECK(clSetKernelArg(k, 0, sizeof fake, &fake) == CL_INVALID_MEM_OBJECT);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: kernel argument info needs -cl-kernel-arg-info", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    char name[64] = {};
    CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr) == CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

// Found by the API fuzzer (test/fuzz): without -cl-kernel-arg-info PoCL cannot say which arguments
// are pointers, and a handle of another kind (or one Hetero never made) given for a __global
// argument went to PoCL, which took it for one of its own memory objects.
TEST_CASE("api: a handle that is no memory object is refused for a __global argument without -cl-kernel-arg-info",
          "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    cl_mem queueAsMem = reinterpret_cast<cl_mem>(env.queue);
    CHECK(clSetKernelArg(k, 0, sizeof queueAsMem, &queueAsMem) == CL_INVALID_MEM_OBJECT);
    struct {
        const void* dispatch;
        char pad[64];
    } notAMem{};
    notAMem.dispatch = *reinterpret_cast<const void* const*>(env.context);  // routed like Hetero's own
    cl_mem fake = reinterpret_cast<cl_mem>(&notAMem);
    CHECK(clSetKernelArg(k, 0, sizeof fake, &fake) == CL_INVALID_MEM_OBJECT);
    // A sampler is no memory object either (found by the fuzzer with two slots).
    cl_int err = CL_SUCCESS;
    cl_sampler sampler = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    if (err == CL_SUCCESS) {
        CHECK(clSetKernelArg(k, 0, sizeof sampler, &sampler) == CL_INVALID_MEM_OBJECT);
        clReleaseSampler(sampler);
    }
    // NULL stays a valid value for a buffer argument; an int argument still takes any int.
    cl_mem none = nullptr;
    CHECK(clSetKernelArg(k, 0, sizeof none, &none) == CL_SUCCESS);
    cl_int amount = 3;
    CHECK(clSetKernelArg(k, 1, sizeof amount, &amount) == CL_SUCCESS);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: clSetKernelArg rejects bad indices, sizes and values", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    cl_kernel local = env.kernel(p, "reverse_in_group");
    cl_int amount = 1;
    CHECK(clSetKernelArg(k, 2, sizeof amount, &amount) == CL_INVALID_ARG_INDEX);
    CHECK(clSetKernelArg(k, 1, sizeof(cl_long), &amount) == CL_INVALID_ARG_SIZE);
    CHECK(clSetKernelArg(k, 1, sizeof amount, nullptr) == CL_INVALID_ARG_VALUE);
    CHECK(clSetKernelArg(local, 1, 0, nullptr) == CL_INVALID_ARG_SIZE);        // local memory needs a size
    CHECK(clSetKernelArg(local, 1, 16, &amount) == CL_INVALID_ARG_VALUE);      // ... and no value
    CHECK(clSetKernelArg(local, 1, 16, nullptr) == CL_SUCCESS);
    CHECK(clSetKernelArg(k, 0, 3, nullptr) == CL_INVALID_ARG_SIZE);            // a buffer argument is a handle

    // A memory object of another context.
    cltest::Env other;
    cl_mem foreignContext = other.buffer(CL_MEM_READ_WRITE, 16);
    CHECK(clSetKernelArg(k, 0, sizeof foreignContext, &foreignContext) == CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(foreignContext);

    // A NULL buffer is a valid value for a global pointer.
    cl_mem none = nullptr;
    CHECK(clSetKernelArg(k, 0, sizeof none, &none) == CL_SUCCESS);
    CHECK(clSetKernelArg(k, 0, sizeof none, nullptr) == CL_SUCCESS);
    clReleaseKernel(local);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a launch with unset arguments fails with CL_INVALID_KERNEL_ARGS", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    size_t global = 4;
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
    cl_int amount = 1;
    cltest::setArg(k, 1, amount);
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
    CHECK(clEnqueueTask(env.queue, k, 0, nullptr, nullptr) == CL_INVALID_KERNEL_ARGS);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: work sizes are validated at enqueue", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    cl_kernel fixed = env.kernel(p, "fixed_group");
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 4096 * sizeof(cl_int));
    cltest::setArg(k, 0, m);
    cltest::setArg(k, 1, cl_int{1});
    cltest::setArg(fixed, 0, m);

    size_t global[3] = {64, 1, 1};
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 0, nullptr, global, nullptr, 0, nullptr, nullptr) == CL_INVALID_WORK_DIMENSION);
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 4, nullptr, global, nullptr, 0, nullptr, nullptr) == CL_INVALID_WORK_DIMENSION);

    size_t itemSizes[3] = {0, 0, 0};
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof itemSizes, itemSizes, nullptr) == CL_SUCCESS);
    size_t tooWide[1] = {itemSizes[0] + 1};
    size_t bigGlobal[1] = {(itemSizes[0] + 1) * 2};
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, bigGlobal, tooWide, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_ITEM_SIZE);

    size_t group = kernelGroupValue<size_t>(k, env.device, CL_KERNEL_WORK_GROUP_SIZE);
    if (group < itemSizes[0] && group < 4096) {
        size_t overGroup[1] = {group + 1};
        size_t g[1] = {(group + 1) * 2};
        CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, g, overGroup, 0, nullptr, nullptr) ==
              CL_INVALID_WORK_GROUP_SIZE);
    }
    size_t zeroLocal[1] = {0};
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, global, zeroLocal, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_GROUP_SIZE);

    cl_bool nonUniform = CL_TRUE;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform,
                            nullptr) == CL_SUCCESS);
    size_t local3[1] = {3};
    if (!nonUniform)
        CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, global, local3, 0, nullptr, nullptr) ==
              CL_INVALID_WORK_GROUP_SIZE);

    // A kernel with reqd_work_group_size takes that local size and no other.
    size_t local8[1] = {8};
    size_t local4[1] = {4};
    CHECK(clEnqueueNDRangeKernel(env.queue, fixed, 1, nullptr, global, local8, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_GROUP_SIZE);
    CHECK(clEnqueueNDRangeKernel(env.queue, fixed, 1, nullptr, global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_WORK_GROUP_SIZE);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, fixed, 1, nullptr, global, local4, 0, nullptr, nullptr) == CL_SUCCESS);
    auto sizes = env.read<cl_int>(m, 64);
    CHECK(sizes == std::vector<cl_int>(64, 4));

    // An offset that makes global IDs overflow size_t.
    size_t hugeOffset[1] = {SIZE_MAX - 10};
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, hugeOffset, global, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_GLOBAL_OFFSET);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(m);
    clReleaseKernel(fixed);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: offsets, local memory and an empty range launch as specified", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    std::vector<cl_int> data(16, 0);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
    cltest::setArg(k, 0, m);
    cltest::setArg(k, 1, cl_int{5});
    size_t offset = 4, global = 8;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, &offset, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    size_t none = 0;  // OpenCL 2.1+: a zero global size is a valid launch that runs nothing
    cl_event empty = nullptr;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &none, nullptr, 0, nullptr, &empty) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &empty) == CL_SUCCESS);
    clReleaseEvent(empty);
    std::vector<cl_int> expect(16, 0);
    for (int i = 4; i < 12; ++i) expect[i] = 5;
    CHECK(env.read<cl_int>(m, 16) == expect);

    cl_kernel reverse = env.kernel(p, "reverse_in_group");
    cltest::setArg(reverse, 0, m);
    REQUIRE(clSetKernelArg(reverse, 1, 4 * sizeof(cl_int), nullptr) == CL_SUCCESS);
    size_t g = 16, l = 4;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, reverse, 1, nullptr, &g, &l, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(m, 8) == std::vector<cl_int>{3, 2, 1, 0, 7, 6, 5, 4});
    clReleaseMemObject(m);
    clReleaseKernel(reverse);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a NULL or zero global size launches nothing after its wait list", "[api][kernel]") {
    // OpenCL 2.1 on: such a launch succeeds, runs nothing, and completes once its wait list has;
    // before 2.1 it is CL_INVALID_GLOBAL_WORK_SIZE.
    cltest::Env env;
    cl_version version = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_NUMERIC_VERSION, sizeof version, &version, nullptr) == CL_SUCCESS);
    const bool empty21 = CL_VERSION_MAJOR(version) * 10 + CL_VERSION_MINOR(version) >= 21;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    std::vector<cl_int> data(16, 3);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(cl_int), data.data());
    cltest::setArg(k, 0, m);
    cltest::setArg(k, 1, cl_int{5});
    size_t zeroInSecond[2] = {16, 0};
    if (!empty21) {
        CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr) ==
              CL_INVALID_GLOBAL_WORK_SIZE);
        CHECK(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, zeroInSecond, nullptr, 0, nullptr, nullptr) ==
              CL_INVALID_GLOBAL_WORK_SIZE);
    } else {
        cl_int err = CL_SUCCESS;
        cl_event gate = clCreateUserEvent(env.context, &err);
        REQUIRE(err == CL_SUCCESS);
        cl_event none = nullptr, zero = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, nullptr, nullptr, 1, &gate, &none) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, zeroInSecond, nullptr, 1, &gate, &zero) == CL_SUCCESS);
        REQUIRE(none != nullptr);
        REQUIRE(zero != nullptr);
        cl_int status = CL_COMPLETE;
        REQUIRE(clGetEventInfo(none, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        CHECK(status > CL_COMPLETE);  // held back by the gate
        REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
        cl_event both[] = {none, zero};
        REQUIRE(clWaitForEvents(2, both) == CL_SUCCESS);
        clReleaseEvent(none), clReleaseEvent(zero), clReleaseEvent(gate);
    }
    CHECK(env.read<cl_int>(m, 16) == data);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a cloned kernel keeps the arguments set so far and runs on its own", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    cltest::setArg(k, 1, cl_int{100});
    cl_int err = CL_SUCCESS;
    cl_kernel clone = clCloneKernel(k, &err);
    REQUIRE(err == CL_SUCCESS);
    cltest::setArg(k, 1, cl_int{1});  // changes the original only
    std::vector<cl_int> zeros(8, 0);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 8 * sizeof(cl_int), zeros.data());
    cltest::setArg(clone, 0, m);
    size_t global = 8;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, clone, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(m, 8) == std::vector<cl_int>(8, 100));
    clReleaseMemObject(m);
    clReleaseKernel(clone);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: a kernel keeps its program alive and arguments are captured at enqueue", "[api][kernel]") {
    cltest::Env env;
    cl_program p = env.build(kSource);
    cl_kernel k = env.kernel(p, "add_one");
    REQUIRE(clReleaseProgram(p) == CL_SUCCESS);  // the kernel still holds it
    cl_program owner = nullptr;
    REQUIRE(clGetKernelInfo(k, CL_KERNEL_PROGRAM, sizeof owner, &owner, nullptr) == CL_SUCCESS);
    CHECK(owner == p);
    cl_uint refs = 0;
    REQUIRE(clGetProgramInfo(owner, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs >= 1);

    std::vector<cl_int> zeros(4, 0);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * sizeof(cl_int), zeros.data());
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cltest::setArg(k, 0, m);
    cltest::setArg(k, 1, cl_int{2});
    size_t global = 4;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 1, &gate, nullptr) == CL_SUCCESS);
    cltest::setArg(k, 1, cl_int{40});  // after the enqueue: must not change the launch above
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    CHECK(env.read<cl_int>(m, 4) == std::vector<cl_int>(4, 42));
    clReleaseEvent(gate);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

TEST_CASE("api: program features the device does not offer", "[api][program]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    unsigned char il[16] = {0x03, 0x02, 0x23, 0x07};
    CHECK(clCreateProgramWithIL(env.context, il, sizeof il, &err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);
    CHECK(clCreateProgramWithBuiltInKernels(env.context, 1, &env.device, "no_such_builtin", &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    cl_program p = env.build(kSource);
    auto notify = [](cl_program, void*) {};
    CHECK(clSetProgramReleaseCallback(p, notify, nullptr) == CL_INVALID_OPERATION);
    // A hint only: the compiler stays usable afterwards.
    CHECK(clUnloadPlatformCompiler(env.platform) == CL_SUCCESS);
    cl_program rebuilt = env.build(kSource);
    cl_kernel k = env.kernel(rebuilt, "put_value");
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_int));
    cltest::setArg(k, 0, out);
    cl_event task = nullptr;
    REQUIRE(clEnqueueTask(env.queue, k, 0, nullptr, &task) == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &task) == CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(task, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_TASK);
    clReleaseEvent(task);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    auto native = [](void*) {};
    CHECK(clEnqueueNativeKernel(env.queue, native, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_OPERATION);
    clReleaseProgram(rebuilt);
    clReleaseProgram(p);
}
