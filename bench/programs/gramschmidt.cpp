// PolyBench/GPU gramschmidt: QR decomposition of A (M x N) by modified Gram-Schmidt; Q: M x N,
// R: N x N. For each column k, three launches as in PolyBench/GPU:
//   kernel 1 (a single work-item): R[k][k] = sqrt(sum_i A[i][k]^2)
//   kernel 2 (one work-item per row i): Q[i][k] = A[i][k] / R[k][k]
//   kernel 3 (one work-item per column j > k): R[k][j] = sum_i Q[i][k] A[i][j];
//                                              A[i][j] -= Q[i][k] R[k][j] for every i
// Sizes (M, N): PolyBench 4's dimensions with M and N swapped so that A is tall (MINI 30x20,
// SMALL 80x60, LARGE 1200x1000, EXTRALARGE 2600x2000), STANDARD = PolyBench/GPU's 2048x2048.
// Initialisation: PolyBench 4's pattern plus 100 on the diagonal. As PolyBench 4 defines it, A has
// more columns than rows and repeated columns: the columns beyond its rank become normalised
// rounding noise (Q differs by 100 % between two correct devices, and a residual that rounds to
// exactly 0 gives 0/0). The swap and the diagonal make A full rank and well conditioned.
// Check: A, R and Q, normwise relative error max|ref - dev| / max|ref| below 1e-4 (rounding alone,
// FMA contraction or not, gives 2e-6; element-wise, small elements of A and R differ by 1 % at
// LARGE, hence no PolyBench-style element-wise check).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void gramschmidt_norm(__global const float* A, __global float* R, int k, int m, int n) {
  if (get_global_id(0) == 0) {
    float norm = 0.0f;
    for (int i = 0; i < m; ++i)
      norm += A[i * n + k] * A[i * n + k];
    R[k * n + k] = sqrt(norm);
  }
}

__kernel void gramschmidt_q(__global const float* A, __global const float* R, __global float* Q,
                            int k, int m, int n) {
  const int i = get_global_id(0);
  if (i < m)
    Q[i * n + k] = A[i * n + k] / R[k * n + k];
}

__kernel void gramschmidt_project(__global float* A, __global float* R, __global const float* Q,
                                  int k, int m, int n) {
  const int j = get_global_id(0);
  if (j > k && j < n) {
    R[k * n + j] = 0.0f;
    for (int i = 0; i < m; ++i)
      R[k * n + j] += Q[i * n + k] * A[i * n + j];
    for (int i = 0; i < m; ++i)
      A[i * n + j] = A[i * n + j] - Q[i * n + k] * R[k * n + j];
  }
}
)CLC";

constexpr double kThreshold = 1e-4;


void reference(int m, int n, std::vector<float>& A, std::vector<float>& R, std::vector<float>& Q) {
  for (int k = 0; k < n; ++k) {
    float norm = 0.0f;
    for (int i = 0; i < m; ++i) norm += A[i * n + k] * A[i * n + k];
    R[k * n + k] = std::sqrt(norm);
    for (int i = 0; i < m; ++i) Q[i * n + k] = A[i * n + k] / R[k * n + k];
    // Row by row for the cache; each R[k][j] still sums over i in ascending order like the kernel.
    for (int j = k + 1; j < n; ++j) R[k * n + j] = 0.0f;
    for (int i = 0; i < m; ++i)
      for (int j = k + 1; j < n; ++j) R[k * n + j] += Q[i * n + k] * A[i * n + j];
    for (int i = 0; i < m; ++i)
      for (int j = k + 1; j < n; ++j) A[i * n + j] = A[i * n + j] - Q[i * n + k] * R[k * n + j];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int m = bySize(options, 30, 80, 2048, 1200, 2600);
  const int n = bySize(options, 20, 60, 2048, 1000, 2000);

  // PolyBench 4's pattern, made full rank (see the header).
  std::vector<float> A(size_t(m) * n), R(size_t(n) * n, 0.0f), Q(size_t(m) * n, 0.0f);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) A[i * n + j] = float((i * j) % m) / m * 100 + 10 + (i == j ? 100 : 0);

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel norm = createKernel(program, "gramschmidt_norm");
  cl_kernel q = createKernel(program, "gramschmidt_q");
  cl_kernel project = createKernel(program, "gramschmidt_project");

  std::vector<float> resultA(A.size()), resultR(R.size()), resultQ(Q.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A);
    cl_mem r = upload(cl, R);
    cl_mem bq = upload(cl, Q);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    for (int k = 0; k < n; ++k) {
      setArgs(norm, a, r, k, m, n);
      launch(cl, norm, {1}, {1});
      setArgs(q, a, r, bq, k, m, n);
      launch(cl, q, {size_t(m)}, {256});
      setArgs(project, a, r, bq, k, m, n);
      launch(cl, project, {size_t(n)}, {256});
    }
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, a, resultA);
    download(cl, r, resultR);
    download(cl, bq, resultQ);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, r, bq});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(m, n, A, R, Q);
    error = std::max({polybench::normwiseRelativeError(A.data(), resultA.data(), A.size()),
                      polybench::normwiseRelativeError(R.data(), resultR.data(), R.size()),
                      polybench::normwiseRelativeError(Q.data(), resultQ.data(), Q.size())});
    pass = error <= kThreshold;
  }
  report("gramschmidt", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(norm));
  CL_CHECK(clReleaseKernel(q));
  CL_CHECK(clReleaseKernel(project));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
