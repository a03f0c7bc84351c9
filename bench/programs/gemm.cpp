// PolyBench gemm: C = alpha * A * B + beta * C  (A: NI x NK, B: NK x NJ, C: NI x NJ).
// One work-item per element of C, accumulating into C in global memory as PolyBench/GPU does.
// Check: max relative error below 0.05 % (PolyBench/GPU's percent-difference threshold for gemm).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void gemm(__global const float* A, __global const float* B, __global float* C,
                   float alpha, float beta, int ni, int nj, int nk) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < ni && j < nj) {
    C[i * nj + j] *= beta;
    for (int k = 0; k < nk; ++k)
      C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int ni, int nj, int nk, float alpha, float beta, const std::vector<float>& A,
               const std::vector<float>& B, std::vector<float>& C) {
  // Loops in i, k, j order for the cache; each element still sums over k in ascending order.
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nj; ++j) C[i * nj + j] *= beta;
    for (int k = 0; k < nk; ++k)
      for (int j = 0; j < nj; ++j) C[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int ni = bySize(options, 20, 60, 512, 1000, 2000);
  const int nj = bySize(options, 25, 70, 512, 1100, 2300);
  const int nk = bySize(options, 30, 80, 512, 1200, 2600);

  // PolyBench 4 initialisation.
  const float alpha = 1.5f, beta = 1.2f;
  std::vector<float> A(size_t(ni) * nk), B(size_t(nk) * nj), C(size_t(ni) * nj);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j) C[i * nj + j] = float((i * j + 1) % ni) / ni;
  for (int i = 0; i < ni; ++i)
    for (int k = 0; k < nk; ++k) A[i * nk + k] = float(i * (k + 1) % nk) / nk;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < nj; ++j) B[k * nj + j] = float(k * (j + 2) % nj) / nj;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "gemm");

  std::vector<float> result(C.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = createBuffer(cl, CL_MEM_READ_ONLY, A.size() * sizeof(float));
    cl_mem b = createBuffer(cl, CL_MEM_READ_ONLY, B.size() * sizeof(float));
    cl_mem c = createBuffer(cl, CL_MEM_READ_WRITE, C.size() * sizeof(float));
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, a, CL_FALSE, 0, A.size() * sizeof(float), A.data(), 0, nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, b, CL_FALSE, 0, B.size() * sizeof(float), B.data(), 0, nullptr, nullptr));
    CL_CHECK(clEnqueueWriteBuffer(cl.queue, c, CL_FALSE, 0, C.size() * sizeof(float), C.data(), 0, nullptr, nullptr));
    setArgs(kernel, a, b, c, alpha, beta, ni, nj, nk);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, kernel, {size_t(nj), size_t(ni)}, {32, 8});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    CL_CHECK(clEnqueueReadBuffer(cl.queue, c, CL_TRUE, 0, result.size() * sizeof(float), result.data(), 0, nullptr, nullptr));
    timing.add(kernelEnd - kernelStart, seconds() - start);
    CL_CHECK(clReleaseMemObject(a));
    CL_CHECK(clReleaseMemObject(b));
    CL_CHECK(clReleaseMemObject(c));
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(ni, nj, nk, alpha, beta, A, B, C);
    error = maxRelativeError(C.data(), result.data(), C.size());
    pass = error <= kThreshold;
  }
  report("gemm", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
