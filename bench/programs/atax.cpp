// PolyBench atax: y = A^T * (A * x)   (A: M x N, x and y: N, tmp: M)
//   kernel 1, one work-item per row i:    tmp[i] = sum_j A[i][j] * x[j]
//   kernel 2, one work-item per column j: y[j]   = sum_i A[i][j] * tmp[i]
// Accumulating in global memory as PolyBench/GPU does.
// Check: y, max relative error below 0.5 % (PolyBench/GPU's percent-difference threshold for atax).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void atax_tmp(__global const float* A, __global const float* x, __global float* tmp,
                       int m, int n) {
  const int i = get_global_id(0);
  if (i < m) {
    tmp[i] = 0.0f;
    for (int j = 0; j < n; ++j)
      tmp[i] += A[i * n + j] * x[j];
  }
}

__kernel void atax_y(__global const float* A, __global const float* tmp, __global float* y,
                     int m, int n) {
  const int j = get_global_id(0);
  if (j < n) {
    y[j] = 0.0f;
    for (int i = 0; i < m; ++i)
      y[j] += A[i * n + j] * tmp[i];
  }
}
)CLC";

constexpr double kThreshold = 0.5 / 100;

void reference(int m, int n, const std::vector<float>& A, const std::vector<float>& x,
               std::vector<float>& y) {
  std::vector<float> tmp(m);
  for (int i = 0; i < m; ++i) {
    tmp[i] = 0.0f;
    for (int j = 0; j < n; ++j) tmp[i] += A[i * n + j] * x[j];
  }
  // Summed over i in the same order as the kernel (PolyBench interleaves this with the loop above).
  for (int j = 0; j < n; ++j) {
    y[j] = 0.0f;
    for (int i = 0; i < m; ++i) y[j] += A[i * n + j] * tmp[i];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int m = bySize(options, 38, 116, 4096, 1900, 1800);
  const int n = bySize(options, 42, 124, 4096, 2100, 2200);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(m) * n), x(n);
  const float fn = float(n);
  for (int i = 0; i < n; ++i) x[i] = 1 + (i / fn);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A[i * n + j] = float((i + j) % n) / (5 * m);

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel first = createKernel(program, "atax_tmp");
  cl_kernel second = createKernel(program, "atax_y");

  std::vector<float> result(n);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem xs = upload(cl, x, CL_MEM_READ_ONLY);
    cl_mem tmp = createBuffer(cl, CL_MEM_READ_WRITE, size_t(m) * sizeof(float));
    cl_mem y = createBuffer(cl, CL_MEM_READ_WRITE, size_t(n) * sizeof(float));
    setArgs(first, a, xs, tmp, m, n);
    setArgs(second, a, tmp, y, m, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, first, {size_t(m)}, {256});
    launch(cl, second, {size_t(n)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, y, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, xs, tmp, y});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    std::vector<float> y(n);
    reference(m, n, A, x, y);
    error = maxRelativeError(y.data(), result.data(), y.size());
    pass = error <= kThreshold;
  }
  report("atax", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(first));
  CL_CHECK(clReleaseKernel(second));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
