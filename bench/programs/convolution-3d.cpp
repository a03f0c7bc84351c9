// PolyBench/GPU 3DCONV: B = a 15-tap 3-D stencil of A with fixed coefficients, interior points only
// (A, B: NI x NJ x NK; the tap list, repeated corners included, is PolyBench/GPU's). As in
// PolyBench/GPU, one 2-D launch per plane i = 1..NI-2, one work-item per (j, k).
// Sizes (NI = NJ = NK): not in PolyBench 4, so MINI 32, SMALL 64, STANDARD = PolyBench/GPU's 256,
// LARGE 384, EXTRALARGE 512 (chosen here). Initialisation: PolyBench/GPU's; B starts zeroed.
// Check: B, max relative error below 1.05 % (PolyBench/GPU's threshold for 3DCONV).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void convolution_3d(__global const float* A, __global float* B, int ni, int nj, int nk, int i) {
  const float c11 = +2, c21 = +5, c31 = -8;
  const float c12 = -3, c22 = +6, c32 = -9;
  const float c13 = +4, c23 = +7, c33 = +10;
  const int k = get_global_id(0);
  const int j = get_global_id(1);
  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1 && k > 0 && k < nk - 1) {
    const int plane = nj * nk;               // offset of (i + 1, j, k) from (i, j, k)
    const int c = (i * nj + j) * nk + k;     // (i, j, k)
    B[c] = c11 * A[c - plane - nk - 1] + c13 * A[c + plane - nk - 1] +
           c21 * A[c - plane - nk - 1] + c23 * A[c + plane - nk - 1] +
           c31 * A[c - plane - nk - 1] + c33 * A[c + plane - nk - 1] +
           c12 * A[c - nk] + c22 * A[c] + c32 * A[c + nk] +
           c11 * A[c - plane - nk + 1] + c13 * A[c + plane - nk + 1] +
           c21 * A[c - plane + 1] + c23 * A[c + plane + 1] +
           c31 * A[c - plane + nk + 1] + c33 * A[c + plane + nk + 1];
  }
}
)CLC";

constexpr double kThreshold = 1.05 / 100;

void reference(int ni, int nj, int nk, const std::vector<float>& A, std::vector<float>& B) {
  const float c11 = +2, c21 = +5, c31 = -8;
  const float c12 = -3, c22 = +6, c32 = -9;
  const float c13 = +4, c23 = +7, c33 = +10;
  auto at = [&](int x, int y, int z) { return A[(size_t(x) * nj + y) * nk + z]; };
  for (int i = 1; i < ni - 1; ++i)
    for (int j = 1; j < nj - 1; ++j)
      for (int k = 1; k < nk - 1; ++k)
        B[(size_t(i) * nj + j) * nk + k] =
            c11 * at(i - 1, j - 1, k - 1) + c13 * at(i + 1, j - 1, k - 1) +
            c21 * at(i - 1, j - 1, k - 1) + c23 * at(i + 1, j - 1, k - 1) +
            c31 * at(i - 1, j - 1, k - 1) + c33 * at(i + 1, j - 1, k - 1) +
            c12 * at(i, j - 1, k) + c22 * at(i, j, k) + c32 * at(i, j + 1, k) +
            c11 * at(i - 1, j - 1, k + 1) + c13 * at(i + 1, j - 1, k + 1) +
            c21 * at(i - 1, j, k + 1) + c23 * at(i + 1, j, k + 1) +
            c31 * at(i - 1, j + 1, k + 1) + c33 * at(i + 1, j + 1, k + 1);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int n = bySize(options, 32, 64, 256, 384, 512);
  const int ni = n, nj = n, nk = n;

  // PolyBench/GPU initialisation.
  std::vector<float> A(size_t(ni) * nj * nk), B(A.size(), 0.0f);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nj; ++j)
      for (int k = 0; k < nk; ++k)
        A[(size_t(i) * nj + j) * nk + k] = float(i % 12 + 2 * (j % 7) + 3 * (k % 13));

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "convolution_3d");

  std::vector<float> result(B.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem b = upload(cl, B);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    for (int i = 1; i < ni - 1; ++i) {
      setArgs(kernel, a, b, ni, nj, nk, i);
      launch(cl, kernel, {size_t(nk), size_t(nj)}, {32, 8});
    }
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, b, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, b});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(ni, nj, nk, A, B);
    error = maxRelativeError(B.data(), result.data(), B.size());
    pass = error <= kThreshold;
  }
  report("convolution-3d", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
