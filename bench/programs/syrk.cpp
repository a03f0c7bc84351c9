// PolyBench syrk: C = alpha * A * A^T + beta * C   (A: N x M, C: N x N)
// One work-item per element of C over the whole matrix (PolyBench/GPU computes both triangles;
// PolyBench 4 only the lower one), accumulating into C in global memory as PolyBench/GPU does.
// Sizes (M, N): PolyBench 4 (MINI 20x30, SMALL 60x80, LARGE 1000x1200, EXTRALARGE 2000x2600),
// STANDARD = PolyBench/GPU's 1024x1024. Initialisation and alpha, beta: PolyBench 4.
// Check: C, max relative error below 0.05 % (PolyBench/GPU's threshold for syrk).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void syrk(__global const float* A, __global float* C, float alpha, float beta, int m, int n) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < n && j < n) {
    C[i * n + j] *= beta;
    for (int k = 0; k < m; ++k)
      C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int m, int n, float alpha, float beta, const std::vector<float>& A,
               std::vector<float>& C) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      C[i * n + j] *= beta;
      for (int k = 0; k < m; ++k) C[i * n + j] += alpha * A[i * m + k] * A[j * m + k];
    }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int m = bySize(options, 20, 60, 1024, 1000, 2000);
  const int n = bySize(options, 30, 80, 1024, 1200, 2600);

  // PolyBench 4 initialisation.
  const float alpha = 1.5f, beta = 1.2f;
  std::vector<float> A(size_t(n) * m), C(size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) A[i * m + j] = float((i * j + 1) % n) / n;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) C[i * n + j] = float((i * j + 2) % m) / m;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "syrk");

  std::vector<float> result(C.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem c = upload(cl, C);
    setArgs(kernel, a, c, alpha, beta, m, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, kernel, {size_t(n), size_t(n)}, {32, 8});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, c, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, c});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(m, n, alpha, beta, A, C);
    error = maxRelativeError(C.data(), result.data(), C.size());
    pass = error <= kThreshold;
  }
  report("syrk", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
