// Shared harness of the PolyBench/GPU programs (header-only).
//
// Every program is an ordinary OpenCL application: it picks a platform by name, builds its kernels
// from OpenCL C source, times the kernel phase, checks the result against a sequential host
// reference and prints ONE parsable line:
//
//   polybench benchmark=gemm size=MINI platform="Portable Computing Language" device="cpu-..."
//             kernel_ms=1.234 total_ms=2.345 max_rel_err=1.2e-07 result=PASS
//
// (one line in reality). result is PASS or FAIL; with --no-check it is UNCHECKED and
// max_rel_err=nan. Exit code: 0 PASS (or UNCHECKED), 1 FAIL, 2 error (bad arguments, OpenCL error).
// With --digest a second line `polybench digest=<16 hex digits>` follows: a hash of the bits of every
// result array the check compared, so that two runs can be shown bit-identical (bench/same_bits.cmake).
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace polybench {

struct Options {
  std::string size = "STANDARD";  // MINI | SMALL | STANDARD | LARGE | EXTRALARGE
  std::string platform;           // substring of the platform name; empty = the first platform
  cl_device_type deviceType = CL_DEVICE_TYPE_DEFAULT;
  int repeat = 1;                 // the timed phase runs this often; the minimum is reported
  bool check = true;              // compare against the host reference
  bool digest = false;            // print the digest of the compared results (resultDigest)
  bool profile = false;           // a profiling queue; report the launches' device times (report)
};

inline const char* errorName(cl_int code) {
  switch (code) {
#define POLYBENCH_ERROR_CASE(name) \
  case name:                       \
    return #name;
    POLYBENCH_ERROR_CASE(CL_SUCCESS)
    POLYBENCH_ERROR_CASE(CL_DEVICE_NOT_FOUND)
    POLYBENCH_ERROR_CASE(CL_DEVICE_NOT_AVAILABLE)
    POLYBENCH_ERROR_CASE(CL_COMPILER_NOT_AVAILABLE)
    POLYBENCH_ERROR_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    POLYBENCH_ERROR_CASE(CL_OUT_OF_RESOURCES)
    POLYBENCH_ERROR_CASE(CL_OUT_OF_HOST_MEMORY)
    POLYBENCH_ERROR_CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    POLYBENCH_ERROR_CASE(CL_MEM_COPY_OVERLAP)
    POLYBENCH_ERROR_CASE(CL_IMAGE_FORMAT_MISMATCH)
    POLYBENCH_ERROR_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    POLYBENCH_ERROR_CASE(CL_BUILD_PROGRAM_FAILURE)
    POLYBENCH_ERROR_CASE(CL_MAP_FAILURE)
    POLYBENCH_ERROR_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    POLYBENCH_ERROR_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    POLYBENCH_ERROR_CASE(CL_COMPILE_PROGRAM_FAILURE)
    POLYBENCH_ERROR_CASE(CL_LINKER_NOT_AVAILABLE)
    POLYBENCH_ERROR_CASE(CL_LINK_PROGRAM_FAILURE)
    POLYBENCH_ERROR_CASE(CL_DEVICE_PARTITION_FAILED)
    POLYBENCH_ERROR_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    POLYBENCH_ERROR_CASE(CL_INVALID_VALUE)
    POLYBENCH_ERROR_CASE(CL_INVALID_DEVICE_TYPE)
    POLYBENCH_ERROR_CASE(CL_INVALID_PLATFORM)
    POLYBENCH_ERROR_CASE(CL_INVALID_DEVICE)
    POLYBENCH_ERROR_CASE(CL_INVALID_CONTEXT)
    POLYBENCH_ERROR_CASE(CL_INVALID_QUEUE_PROPERTIES)
    POLYBENCH_ERROR_CASE(CL_INVALID_COMMAND_QUEUE)
    POLYBENCH_ERROR_CASE(CL_INVALID_HOST_PTR)
    POLYBENCH_ERROR_CASE(CL_INVALID_MEM_OBJECT)
    POLYBENCH_ERROR_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    POLYBENCH_ERROR_CASE(CL_INVALID_IMAGE_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_SAMPLER)
    POLYBENCH_ERROR_CASE(CL_INVALID_BINARY)
    POLYBENCH_ERROR_CASE(CL_INVALID_BUILD_OPTIONS)
    POLYBENCH_ERROR_CASE(CL_INVALID_PROGRAM)
    POLYBENCH_ERROR_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    POLYBENCH_ERROR_CASE(CL_INVALID_KERNEL_NAME)
    POLYBENCH_ERROR_CASE(CL_INVALID_KERNEL_DEFINITION)
    POLYBENCH_ERROR_CASE(CL_INVALID_KERNEL)
    POLYBENCH_ERROR_CASE(CL_INVALID_ARG_INDEX)
    POLYBENCH_ERROR_CASE(CL_INVALID_ARG_VALUE)
    POLYBENCH_ERROR_CASE(CL_INVALID_ARG_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_KERNEL_ARGS)
    POLYBENCH_ERROR_CASE(CL_INVALID_WORK_DIMENSION)
    POLYBENCH_ERROR_CASE(CL_INVALID_WORK_GROUP_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_WORK_ITEM_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_GLOBAL_OFFSET)
    POLYBENCH_ERROR_CASE(CL_INVALID_EVENT_WAIT_LIST)
    POLYBENCH_ERROR_CASE(CL_INVALID_EVENT)
    POLYBENCH_ERROR_CASE(CL_INVALID_OPERATION)
    POLYBENCH_ERROR_CASE(CL_INVALID_GL_OBJECT)
    POLYBENCH_ERROR_CASE(CL_INVALID_BUFFER_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_MIP_LEVEL)
    POLYBENCH_ERROR_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    POLYBENCH_ERROR_CASE(CL_INVALID_PROPERTY)
    POLYBENCH_ERROR_CASE(CL_INVALID_IMAGE_DESCRIPTOR)
    POLYBENCH_ERROR_CASE(CL_INVALID_COMPILER_OPTIONS)
    POLYBENCH_ERROR_CASE(CL_INVALID_LINKER_OPTIONS)
    POLYBENCH_ERROR_CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef POLYBENCH_ERROR_CASE
    default:
      return "unknown OpenCL error";
  }
}

[[noreturn]] inline void fail(const char* file, int line, const char* call, cl_int code) {
  std::fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, call, errorName(code), code);
  std::exit(2);
}

// Checks an expression yielding a cl_int (a call, or the error code a clCreate* reported).
#define CL_CHECK(call)                                                 \
  do {                                                                 \
    cl_int polybench_status_ = (call);                                 \
    if (polybench_status_ != CL_SUCCESS)                               \
      ::polybench::fail(__FILE__, __LINE__, #call, polybench_status_); \
  } while (0)

inline void printUsage(const char* program) {
  std::printf(
      "usage: %s [--size MINI|SMALL|STANDARD|LARGE|EXTRALARGE] [--platform NAME]\n"
      "          [--device gpu|cpu|accelerator|all|default] [--repeat N] [--no-check] [--digest]\n"
      "          [--profile] [--each-run] [--help]\n"
      "  --size      dataset size (default STANDARD = the PolyBench/GPU default size)\n"
      "  --platform  use the first platform whose name contains NAME (default: the first platform)\n"
      "  --device    device type to ask the platform for (default: default)\n"
      "  --repeat    run the timed phase N times and report the fastest (default 1)\n"
      "  --no-check  skip the comparison with the sequential host reference\n"
      "  --digest    also print a hash of the bits of the compared results\n"
      "  --profile   use a profiling queue and also print the launches' device times: whether a\n"
      "              platform's kernels run slower on the device or wait between launches\n"
      "  --each-run  also print every run's times (a platform that learns shows it run by run) and\n"
      "              the time spent inside the launches' clEnqueueNDRangeKernel calls\n",
      program);
}

[[noreturn]] inline void usageError(const char* program, const std::string& message) {
  std::fprintf(stderr, "%s: %s\n", program, message.c_str());
  std::fprintf(stderr, "try '%s --help'\n", program);
  std::exit(2);
}

// --each-run: Timing::add prints every run (set by parseArgs).
inline bool& printEachRun() {
  static bool each = false;
  return each;
}

inline Options parseArgs(int argc, char** argv) {
  Options options;
  const char* program = argc > 0 ? argv[0] : "polybench";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usageError(program, arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      printUsage(program);
      std::exit(0);
    } else if (arg == "--size") {
      options.size = value();
      std::transform(options.size.begin(), options.size.end(), options.size.begin(),
                     [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
      if (options.size != "MINI" && options.size != "SMALL" && options.size != "STANDARD" &&
          options.size != "LARGE" && options.size != "EXTRALARGE")
        usageError(program, "unknown size '" + options.size + "'");
    } else if (arg == "--platform") {
      options.platform = value();
    } else if (arg == "--device") {
      const std::string type = value();
      if (type == "gpu") options.deviceType = CL_DEVICE_TYPE_GPU;
      else if (type == "cpu") options.deviceType = CL_DEVICE_TYPE_CPU;
      else if (type == "accelerator") options.deviceType = CL_DEVICE_TYPE_ACCELERATOR;
      else if (type == "all") options.deviceType = CL_DEVICE_TYPE_ALL;
      else if (type == "default") options.deviceType = CL_DEVICE_TYPE_DEFAULT;
      else usageError(program, "unknown device type '" + type + "'");
    } else if (arg == "--repeat") {
      const std::string text = value();
      char* end = nullptr;
      const long n = std::strtol(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || n < 1 || n > 1000000)
        usageError(program, "--repeat needs a positive integer, got '" + text + "'");
      options.repeat = static_cast<int>(n);
    } else if (arg == "--no-check") {
      options.check = false;
    } else if (arg == "--digest") {
      options.digest = true;
    } else if (arg == "--profile") {
      options.profile = true;
    } else if (arg == "--each-run") {
      printEachRun() = true;
    } else {
      usageError(program, "unknown argument '" + arg + "'");
    }
  }
  return options;
}

// Picks the value for the selected dataset size.
template <class T>
T bySize(const Options& options, T mini, T small, T standard, T large, T extraLarge) {
  if (options.size == "MINI") return mini;
  if (options.size == "SMALL") return small;
  if (options.size == "LARGE") return large;
  if (options.size == "EXTRALARGE") return extraLarge;
  return standard;
}

struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  std::string platformName, deviceName;
  // --profile: every launch()'s event, in order, with the run it belongs to (runsTimed()).
  bool profiling = false;
  std::vector<std::pair<cl_event, int>> launched;

  Cl() = default;
  Cl(const Cl&) = delete;
  Cl& operator=(const Cl&) = delete;
  ~Cl() {
    for (auto& launch : launched) clReleaseEvent(launch.first);
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);
    // device: a root device needs no release.
  }
};

inline std::string platformInfo(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  CL_CHECK(clGetPlatformInfo(platform, what, 0, nullptr, &size));
  std::string text(size, '\0');
  CL_CHECK(clGetPlatformInfo(platform, what, size, &text[0], nullptr));
  text.resize(std::strlen(text.c_str()));
  return text;
}

inline std::string deviceInfo(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  CL_CHECK(clGetDeviceInfo(device, what, 0, nullptr, &size));
  std::string text(size, '\0');
  CL_CHECK(clGetDeviceInfo(device, what, size, &text[0], nullptr));
  text.resize(std::strlen(text.c_str()));
  return text;
}

inline std::string lowerCase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Picks the first platform whose name contains options.platform (case-insensitive), then the first
// device of options.deviceType on it, and makes a context and an in-order queue.
inline void setup(Cl& cl, const Options& options) {
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != CL_SUCCESS || count == 0) {
    std::fprintf(stderr, "error: no OpenCL platform found (clGetPlatformIDs: %s)\n",
                 status == CL_SUCCESS ? "0 platforms" : errorName(status));
    std::exit(2);
  }
  std::vector<cl_platform_id> platforms(count);
  CL_CHECK(clGetPlatformIDs(count, platforms.data(), nullptr));

  const std::string wanted = lowerCase(options.platform);
  for (cl_platform_id platform : platforms) {
    const std::string name = platformInfo(platform, CL_PLATFORM_NAME);
    if (lowerCase(name).find(wanted) != std::string::npos) {
      cl.platform = platform;
      cl.platformName = name;
      break;
    }
  }
  if (!cl.platform) {
    std::fprintf(stderr, "error: no OpenCL platform's name contains '%s'; available:\n",
                 options.platform.c_str());
    for (cl_platform_id platform : platforms)
      std::fprintf(stderr, "  %s\n", platformInfo(platform, CL_PLATFORM_NAME).c_str());
    std::exit(2);
  }

  status = clGetDeviceIDs(cl.platform, options.deviceType, 1, &cl.device, nullptr);
  if (status != CL_SUCCESS) {
    std::fprintf(stderr, "error: platform '%s' has no device of the requested type (%s)\n",
                 cl.platformName.c_str(), errorName(status));
    std::exit(2);
  }
  cl.deviceName = deviceInfo(cl.device, CL_DEVICE_NAME);

  cl_int error = CL_SUCCESS;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(cl.platform), 0};
  cl.context = clCreateContext(properties, 1, &cl.device, nullptr, nullptr, &error);
  CL_CHECK(error);
  // The OpenCL 1.x call, as most applications (and PolyBench/GPU) still make it.
  cl.profiling = options.profile;
  cl.queue = clCreateCommandQueue(cl.context, cl.device,
                                  options.profile ? CL_QUEUE_PROFILING_ENABLE : 0, &error);
  CL_CHECK(error);
}

// POLYBENCH_EXTRA_BUILD_OPTIONS (measuring only) is added to every build's options: how an option
// that Hetero adds for its backends (-cl-kernel-arg-info) changes a native run.
inline cl_program buildProgram(Cl& cl, const char* source, const char* options = "") {
  cl_int error = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(cl.context, 1, &source, nullptr, &error);
  CL_CHECK(error);
  std::string allOptions = options;
  if (const char* extra = std::getenv("POLYBENCH_EXTRA_BUILD_OPTIONS"))
    allOptions += std::string(allOptions.empty() ? "" : " ") + extra;
  const cl_int status = clBuildProgram(program, 1, &cl.device, allOptions.c_str(), nullptr, nullptr);
  if (status != CL_SUCCESS) {
    size_t size = 0;
    clGetProgramBuildInfo(program, cl.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    if (size)
      clGetProgramBuildInfo(program, cl.device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
    std::fprintf(stderr, "error: clBuildProgram failed: %s (%d)\nbuild log:\n%s\n",
                 errorName(status), status, log.c_str());
    std::exit(2);
  }
  return program;
}

inline cl_kernel createKernel(cl_program program, const char* name) {
  cl_int error = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &error);
  if (error != CL_SUCCESS) {
    std::fprintf(stderr, "error: clCreateKernel(\"%s\") failed: %s (%d)\n", name,
                 errorName(error), error);
    std::exit(2);
  }
  return kernel;
}

// Convenience for the programs: a buffer, optionally filled from host memory when created.
inline cl_mem createBuffer(Cl& cl, cl_mem_flags flags, size_t bytes, void* hostData = nullptr) {
  cl_int error = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(cl.context, flags, bytes, hostData, &error);
  CL_CHECK(error);
  return buffer;
}

// Sets kernel arguments in order: setArgs(kernel, bufferA, n, alpha, ...).
template <class... Args>
void setArgs(cl_kernel kernel, const Args&... args) {
  cl_uint index = 0;
  auto set = [&](size_t size, const void* value) {
    const cl_int status = clSetKernelArg(kernel, index, size, value);
    if (status != CL_SUCCESS) {
      std::fprintf(stderr, "error: clSetKernelArg(argument %u) failed: %s (%d)\n", index,
                   errorName(status), status);
      std::exit(2);
    }
    ++index;
  };
  (set(sizeof(Args), &args), ...);
}

// Global sizes are rounded up to a multiple of the work-group size (kernels guard their bounds).
inline size_t roundUp(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// A buffer sized for `host`, with a non-blocking write of its contents queued (the caller keeps
// `host` alive until the queue is finished).
template <class T>
cl_mem upload(Cl& cl, const std::vector<T>& host, cl_mem_flags flags = CL_MEM_READ_WRITE) {
  const size_t bytes = host.size() * sizeof(T);
  cl_mem buffer = createBuffer(cl, flags, bytes);
  CL_CHECK(clEnqueueWriteBuffer(cl.queue, buffer, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr));
  return buffer;
}

// Blocking read of the whole of `host` from `buffer`.
template <class T>
void download(Cl& cl, cl_mem buffer, std::vector<T>& host) {
  CL_CHECK(clEnqueueReadBuffer(cl.queue, buffer, CL_TRUE, 0, host.size() * sizeof(T), host.data(), 0,
                               nullptr, nullptr));
}

// How many runs of the timed phase Timing::add has seen (--profile tells the runs' launches apart).
inline int& runsTimed() {
  static int runs = 0;
  return runs;
}

inline double seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Seconds spent inside launch()'s clEnqueueNDRangeKernel calls since the last run (--each-run).
inline double& enqueueSeconds() {
  static double spent = 0;
  return spent;
}

// Enqueues `kernel` over at least `items` work-items per dimension, in work-groups of `local`
// (the global size is rounded up to whole work-groups).
inline void launch(Cl& cl, cl_kernel kernel, std::initializer_list<size_t> items,
                   std::initializer_list<size_t> local) {
  if (items.size() != local.size() || items.size() < 1 || items.size() > 3) {
    std::fprintf(stderr, "error: launch() needs 1 to 3 dimensions, the same for items and local\n");
    std::exit(2);
  }
  size_t global[3], group[3];
  cl_uint dims = 0;
  for (auto n = items.begin(), l = local.begin(); n != items.end(); ++n, ++l, ++dims) {
    group[dims] = *l;
    global[dims] = roundUp(*n, *l);
  }
  cl_event event = nullptr;
  const double start = printEachRun() ? seconds() : 0;
  CL_CHECK(clEnqueueNDRangeKernel(cl.queue, kernel, dims, nullptr, global, group, 0, nullptr,
                                  cl.profiling ? &event : nullptr));
  if (printEachRun()) enqueueSeconds() += seconds() - start;
  if (event) cl.launched.emplace_back(event, runsTimed());
}

inline void release(std::initializer_list<cl_mem> buffers) {
  for (cl_mem buffer : buffers) CL_CHECK(clReleaseMemObject(buffer));
}

// The digest of the result arrays compared so far (--digest): the sum of each array's FNV-1a hash of
// its bytes, a sum so that the order in which a program's check compares its arrays does not count.
inline uint64_t& resultDigest() {
  static uint64_t digest = 0;
  return digest;
}
inline void addToDigest(const float* actual, size_t n) {
  uint64_t hash = 14695981039346656037ull;
  const auto* bytes = reinterpret_cast<const unsigned char*>(actual);
  for (size_t i = 0; i < n * sizeof(float); ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
  resultDigest() += hash;
}

// The largest relative difference |expected - actual| / |expected| over n elements, in the manner of
// The largest |expected - actual| over the array, relative to the array's largest |expected|: for
// programs where rounding alone (FMA contraction or not) moves small elements past an element-wise
// threshold, the error against the data's scale is what tells a wrong result from a right one.
// A NaN or an infinity on either side gives +infinity.
inline double normwiseRelativeError(const float* expected, const float* actual, size_t n) {
  addToDigest(actual, n);
    double difference = 0, scale = 0;
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(expected[i]) || !std::isfinite(actual[i])) return std::numeric_limits<double>::infinity();
        difference = std::max(difference, std::fabs(double(expected[i]) - actual[i]));
        scale = std::max(scale, std::fabs(double(expected[i])));
    }
    return scale > 0 ? difference / scale : difference;
}

// PolyBench/GPU's percentDiff: pairs where both values are below 0.01 in magnitude count as equal
// (their relative error would be noise), and a small term keeps the division finite. NaN or an
// infinity on only one side gives +infinity.
inline double maxRelativeError(const float* expected, const float* actual, size_t n) {
  addToDigest(actual, n);
  constexpr double smallValue = 0.01;
  double worst = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double e = expected[i], a = actual[i];
    if (std::isnan(e) || std::isnan(a) || std::isinf(e) || std::isinf(a)) {
      if (!(e == a)) return std::numeric_limits<double>::infinity();
      continue;
    }
    if (std::fabs(e) < smallValue && std::fabs(a) < smallValue) continue;
    worst = std::max(worst, std::fabs(e - a) / (std::fabs(e) + 1e-8));
  }
  return worst;
}

inline double median(std::vector<double> values) {
  if (values.empty()) return std::nan("");
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// --profile's line, over the launches made through launch() (their events' START and END): their
// device time per run, a launch's median, and the median gap from one launch's END to the next
// one's START in the same run, where the device waited for the host (nan with one launch a run):
//   polybench profile launches=382 device_ms_per_run=1.234 launch_us_median=3.21 gap_us_median=1.05
inline void reportProfile(const Options& options, const Cl& cl) {
  std::vector<double> durations, gaps;
  double total = 0, previousEnd = 0;
  int previousRun = -1;
  for (const auto& [event, run] : cl.launched) {
    cl_ulong start = 0, end = 0;
    CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr));
    CL_CHECK(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr));
    const double startUs = start * 1e-3, endUs = end * 1e-3;
    durations.push_back(endUs - startUs);
    total += endUs - startUs;
    if (run == previousRun) gaps.push_back(startUs - previousEnd);
    previousEnd = endUs;
    previousRun = run;
  }
  std::printf("polybench profile launches=%zu device_ms_per_run=%.3f launch_us_median=%.2f gap_us_median=%.2f\n",
              cl.launched.size() / options.repeat, total * 1e-3 / options.repeat, median(durations),
              median(gaps));
}

// Prints the one result line. Without a check, result=UNCHECKED and max_rel_err=nan.
inline void report(const char* benchmark, const Options& options, const Cl& cl, double kernelSeconds,
                   double totalSeconds, double maxRelErr, bool pass) {
  const char* result = !options.check ? "UNCHECKED" : pass ? "PASS" : "FAIL";
  char error[32];
  if (options.check)
    std::snprintf(error, sizeof error, "%.1e", maxRelErr);
  else
    std::snprintf(error, sizeof error, "nan");
  std::printf(
      "polybench benchmark=%s size=%s platform=\"%s\" device=\"%s\" kernel_ms=%.3f total_ms=%.3f "
      "max_rel_err=%s result=%s\n",
      benchmark, options.size.c_str(), cl.platformName.c_str(), cl.deviceName.c_str(),
      kernelSeconds * 1e3, totalSeconds * 1e3, error, result);
  if (options.digest) std::printf("polybench digest=%016llx\n", static_cast<unsigned long long>(resultDigest()));
  if (options.profile) reportProfile(options, cl);
  std::fflush(stdout);
}

// The process exit code that goes with a result: 0 PASS or UNCHECKED, 1 FAIL.
inline int exitCode(const Options& options, bool pass) { return !options.check || pass ? 0 : 1; }

// Times one run of the timed phase and keeps the minimum over --repeat runs.
struct Timing {
  double kernel = std::numeric_limits<double>::infinity();
  double total = std::numeric_limits<double>::infinity();
  void add(double kernelSeconds, double totalSeconds) {
    ++runsTimed();
    if (printEachRun())
      std::printf("polybench run=%d kernel_ms=%.3f total_ms=%.3f enqueue_ms=%.3f\n", runsTimed(), kernelSeconds * 1e3,
                  totalSeconds * 1e3, enqueueSeconds() * 1e3);
    enqueueSeconds() = 0;
    kernel = std::min(kernel, kernelSeconds);
    total = std::min(total, totalSeconds);
  }
};

}  // namespace polybench
