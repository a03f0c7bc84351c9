#include "cl_env.hpp"

#include <stdexcept>

namespace cltest {

void check(cl_int err, const char* what)
{
    if (err != CL_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed with OpenCL error " + std::to_string(err));
}

namespace {

std::string platformName(cl_platform_id platform)
{
    size_t size = 0;
    check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size), "clGetPlatformInfo");
    std::string name(size, '\0');
    check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, &name[0], nullptr), "clGetPlatformInfo");
    name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
    return name;
}

Device findPocl()
{
    cl_uint count = 0;
    check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs");
    if (!count)
        throw std::runtime_error("no OpenCL platform");
    std::vector<cl_platform_id> platforms(count);
    check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
    Device found;
    found.platform = platforms[0];
    for (cl_platform_id platform : platforms) {
        if (platformName(platform).find("Portable") != std::string::npos) {
            found.platform = platform;
            break;
        }
    }
    found.platformName = platformName(found.platform);
    check(clGetDeviceIDs(found.platform, CL_DEVICE_TYPE_ALL, 1, &found.device, nullptr), "clGetDeviceIDs");
    cl_bool nonUniform = CL_FALSE;
    if (clGetDeviceInfo(found.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nonUniform, &nonUniform,
                        nullptr) == CL_SUCCESS)
        found.nonUniformWorkGroups = nonUniform == CL_TRUE;
    ContextAndQueue probe = makeContext(found);
    found.acceptsCl20 = buildProgram(probe.context.get(), found.device, {"__kernel void probe(void) {}"},
                                     "-cl-std=CL2.0").status == CL_SUCCESS;
    return found;
}

}  // namespace

const Device& poclDevice()
{
    static const Device device = findPocl();
    return device;
}

ContextAndQueue makeContext(const Device& device)
{
    cl_int err = CL_SUCCESS;
    cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                          reinterpret_cast<cl_context_properties>(device.platform), 0};
    ContextAndQueue result;
    result.context = Context(clCreateContext(properties, 1, &device.device, nullptr, nullptr, &err));
    check(err, "clCreateContext");
    result.queue = Queue(clCreateCommandQueueWithProperties(result.context.get(), device.device, nullptr, &err));
    check(err, "clCreateCommandQueueWithProperties");
    return result;
}

BuildResult buildProgram(cl_context context, cl_device_id device, const std::vector<std::string>& sources,
                         const std::string& options)
{
    std::vector<const char*> strings;
    std::vector<size_t> lengths;
    for (const std::string& source : sources) {
        strings.push_back(source.c_str());
        lengths.push_back(source.size());
    }
    cl_int err = CL_SUCCESS;
    BuildResult result;
    result.program = Program(clCreateProgramWithSource(context, static_cast<cl_uint>(strings.size()),
                                                       strings.data(), lengths.data(), &err));
    check(err, "clCreateProgramWithSource");
    result.status = clBuildProgram(result.program.get(), 1, &device, options.c_str(), nullptr, nullptr);
    size_t size = 0;
    clGetProgramBuildInfo(result.program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    if (size) {
        result.log.resize(size);
        clGetProgramBuildInfo(result.program.get(), device, CL_PROGRAM_BUILD_LOG, size, &result.log[0], nullptr);
    }
    return result;
}

Kernel makeKernel(cl_program program, const std::string& name)
{
    cl_int err = CL_SUCCESS;
    Kernel kernel(clCreateKernel(program, name.c_str(), &err));
    check(err, ("clCreateKernel(" + name + ")").c_str());
    return kernel;
}

cl_uint kernelNumArgs(cl_kernel kernel)
{
    cl_uint count = 0;
    check(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof count, &count, nullptr), "clGetKernelInfo");
    return count;
}

}  // namespace cltest
