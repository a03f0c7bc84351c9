// PolyBench bicg (the BiCGStab sub-kernel): s = A^T * r and q = A * p   (A: N x M)
//   kernel 1, one work-item per column j < M: s[j] = sum_i r[i] * A[i][j]
//   kernel 2, one work-item per row i < N:    q[i] = sum_j A[i][j] * p[j]
// Accumulating in global memory as PolyBench/GPU does.
// Check: s and q, max relative error below 0.5 % (PolyBench/GPU's threshold for bicg).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void bicg_s(__global const float* A, __global const float* r, __global float* s,
                     int m, int n) {
  const int j = get_global_id(0);
  if (j < m) {
    s[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      s[j] += r[i] * A[i * m + j];
  }
}

__kernel void bicg_q(__global const float* A, __global const float* p, __global float* q,
                     int m, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    q[i] = 0.0f;
    for (int j = 0; j < m; ++j)
      q[i] += A[i * m + j] * p[j];
  }
}
)CLC";

constexpr double kThreshold = 0.5 / 100;

void reference(int m, int n, const std::vector<float>& A, const std::vector<float>& r,
               const std::vector<float>& p, std::vector<float>& s, std::vector<float>& q) {
  for (int j = 0; j < m; ++j) s[j] = 0.0f;
  for (int i = 0; i < n; ++i) {
    q[i] = 0.0f;
    for (int j = 0; j < m; ++j) {
      s[j] += r[i] * A[i * m + j];
      q[i] += A[i * m + j] * p[j];
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int m = bySize(options, 38, 116, 4096, 1900, 1800);
  const int n = bySize(options, 42, 124, 4096, 2100, 2200);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(n) * m), r(n), p(m);
  for (int i = 0; i < m; ++i) p[i] = float(i % m) / m;
  for (int i = 0; i < n; ++i) {
    r[i] = float(i % n) / n;
    for (int j = 0; j < m; ++j) A[i * m + j] = float(i * (j + 1) % n) / n;
  }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernelS = createKernel(program, "bicg_s");
  cl_kernel kernelQ = createKernel(program, "bicg_q");

  std::vector<float> resultS(m), resultQ(n);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem rs = upload(cl, r, CL_MEM_READ_ONLY);
    cl_mem ps = upload(cl, p, CL_MEM_READ_ONLY);
    cl_mem s = createBuffer(cl, CL_MEM_READ_WRITE, size_t(m) * sizeof(float));
    cl_mem q = createBuffer(cl, CL_MEM_READ_WRITE, size_t(n) * sizeof(float));
    setArgs(kernelS, a, rs, s, m, n);
    setArgs(kernelQ, a, ps, q, m, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, kernelS, {size_t(m)}, {256});
    launch(cl, kernelQ, {size_t(n)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, s, resultS);
    download(cl, q, resultQ);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, rs, ps, s, q});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    std::vector<float> s(m), q(n);
    reference(m, n, A, r, p, s, q);
    error = std::max(maxRelativeError(s.data(), resultS.data(), s.size()),
                     maxRelativeError(q.data(), resultQ.data(), q.size()));
    pass = error <= kThreshold;
  }
  report("bicg", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernelS));
  CL_CHECK(clReleaseKernel(kernelQ));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
