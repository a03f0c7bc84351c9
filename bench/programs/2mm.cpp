// PolyBench 2mm: D = alpha * A * B * C + beta * D, as two matrix products
//   tmp = alpha * A * B   (A: NI x NK, B: NK x NJ, tmp: NI x NJ)
//   D   = tmp * C + beta * D   (C: NJ x NL, D: NI x NL)
// One work-item per output element, accumulating in global memory as PolyBench/GPU does.
// Check: D, max relative error below 0.05 % (PolyBench/GPU's percent-difference threshold).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void mm2_tmp(__global const float* A, __global const float* B, __global float* tmp,
                      float alpha, int ni, int nj, int nk) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; ++k)
      tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

__kernel void mm2_d(__global const float* tmp, __global const float* C, __global float* D,
                    float beta, int ni, int nj, int nl) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < ni && j < nl) {
    D[i * nl + j] *= beta;
    for (int k = 0; k < nj; ++k)
      D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int ni, int nj, int nk, int nl, float alpha, float beta, const std::vector<float>& A,
               const std::vector<float>& B, const std::vector<float>& C, std::vector<float>& D) {
  std::vector<float> tmp(size_t(ni) * nj);
  // Loops in i, k, j order for the cache; each element still sums over k in ascending order.
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nj; ++j) tmp[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; ++k)
      for (int j = 0; j < nj; ++j) tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
  for (int i = 0; i < ni; ++i) {
    for (int j = 0; j < nl; ++j) D[i * nl + j] *= beta;
    for (int k = 0; k < nj; ++k)
      for (int j = 0; j < nl; ++j) D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int ni = bySize(options, 16, 40, 2048, 800, 1600);
  const int nj = bySize(options, 18, 50, 2048, 900, 1800);
  const int nk = bySize(options, 22, 70, 2048, 1100, 2200);
  const int nl = bySize(options, 24, 80, 2048, 1200, 2400);

  // PolyBench 4 initialisation.
  const float alpha = 1.5f, beta = 1.2f;
  std::vector<float> A(size_t(ni) * nk), B(size_t(nk) * nj), C(size_t(nj) * nl), D(size_t(ni) * nl);
  for (int i = 0; i < ni; ++i)
    for (int k = 0; k < nk; ++k) A[i * nk + k] = float((i * k + 1) % ni) / ni;
  for (int k = 0; k < nk; ++k)
    for (int j = 0; j < nj; ++j) B[k * nj + j] = float(k * (j + 1) % nj) / nj;
  for (int j = 0; j < nj; ++j)
    for (int l = 0; l < nl; ++l) C[j * nl + l] = float((j * (l + 3) + 1) % nl) / nl;
  for (int i = 0; i < ni; ++i)
    for (int l = 0; l < nl; ++l) D[i * nl + l] = float(i * (l + 2) % nk) / nk;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel first = createKernel(program, "mm2_tmp");
  cl_kernel second = createKernel(program, "mm2_d");

  std::vector<float> result(D.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem b = upload(cl, B, CL_MEM_READ_ONLY);
    cl_mem c = upload(cl, C, CL_MEM_READ_ONLY);
    cl_mem d = upload(cl, D);
    cl_mem tmp = createBuffer(cl, CL_MEM_READ_WRITE, size_t(ni) * nj * sizeof(float));
    setArgs(first, a, b, tmp, alpha, ni, nj, nk);
    setArgs(second, tmp, c, d, beta, ni, nj, nl);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, first, {size_t(nj), size_t(ni)}, {32, 8});
    launch(cl, second, {size_t(nl), size_t(ni)}, {32, 8});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, d, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, b, c, d, tmp});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(ni, nj, nk, nl, alpha, beta, A, B, C, D);
    error = maxRelativeError(D.data(), result.data(), D.size());
    pass = error <= kThreshold;
  }
  report("2mm", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(first));
  CL_CHECK(clReleaseKernel(second));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
