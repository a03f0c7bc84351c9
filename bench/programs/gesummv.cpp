// PolyBench gesummv: y = alpha * A * x + beta * B * x   (A, B: N x N)
// One work-item per row i, accumulating tmp[i] and y[i] in global memory as PolyBench/GPU does.
// Check: y and tmp, max relative error below 0.05 % (PolyBench/GPU's threshold for gesummv).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void gesummv(__global const float* A, __global const float* B, __global const float* x,
                      __global float* tmp, __global float* y, float alpha, float beta, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    tmp[i] = 0.0f;
    y[i] = 0.0f;
    for (int j = 0; j < n; ++j) {
      tmp[i] += A[i * n + j] * x[j];
      y[i] += B[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int n, float alpha, float beta, const std::vector<float>& A,
               const std::vector<float>& B, const std::vector<float>& x, std::vector<float>& tmp,
               std::vector<float>& y) {
  for (int i = 0; i < n; ++i) {
    tmp[i] = 0.0f;
    y[i] = 0.0f;
    for (int j = 0; j < n; ++j) {
      tmp[i] += A[i * n + j] * x[j];
      y[i] += B[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int n = bySize(options, 30, 90, 4096, 1300, 2800);

  // PolyBench 4 initialisation.
  const float alpha = 1.5f, beta = 1.2f;
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n), x(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i % n) / n;
    for (int j = 0; j < n; ++j) {
      A[i * n + j] = float((i * j + 1) % n) / n;
      B[i * n + j] = float((i * j + 2) % n) / n;
    }
  }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "gesummv");

  std::vector<float> resultTmp(n), resultY(n);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem b = upload(cl, B, CL_MEM_READ_ONLY);
    cl_mem xs = upload(cl, x, CL_MEM_READ_ONLY);
    cl_mem tmp = createBuffer(cl, CL_MEM_READ_WRITE, size_t(n) * sizeof(float));
    cl_mem y = createBuffer(cl, CL_MEM_READ_WRITE, size_t(n) * sizeof(float));
    setArgs(kernel, a, b, xs, tmp, y, alpha, beta, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, kernel, {size_t(n)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, tmp, resultTmp);
    download(cl, y, resultY);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, b, xs, tmp, y});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    std::vector<float> tmp(n), y(n);
    reference(n, alpha, beta, A, B, x, tmp, y);
    error = std::max(maxRelativeError(y.data(), resultY.data(), y.size()),
                     maxRelativeError(tmp.data(), resultTmp.data(), tmp.size()));
    pass = error <= kThreshold;
  }
  report("gesummv", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
