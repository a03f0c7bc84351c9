// PolyBench doitgen (multi-resolution analysis kernel, MADNESS):
//   for every r, q:  A[r][q][p] = sum_s A[r][q][s] * C4[s][p]   (A: NR x NQ x NP, C4: NP x NP)
// As in PolyBench/GPU, two launches per r over (p, q): the first computes sum[r][q][p] (reading
// A[r] only), the second copies sum[r] back into A[r]; so a run makes 2 * NR kernel launches.
// Check: A, max relative error below 0.05 % (PolyBench/GPU's threshold for doitgen).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void doitgen_sum(__global const float* A, __global const float* C4, __global float* sum,
                          int nq, int np, int r) {
  const int p = get_global_id(0);
  const int q = get_global_id(1);
  if (q < nq && p < np) {
    const int row = (r * nq + q) * np;
    sum[row + p] = 0.0f;
    for (int s = 0; s < np; ++s)
      sum[row + p] += A[row + s] * C4[s * np + p];
  }
}

__kernel void doitgen_copy(__global float* A, __global const float* sum, int nq, int np, int r) {
  const int p = get_global_id(0);
  const int q = get_global_id(1);
  if (q < nq && p < np) {
    const int row = (r * nq + q) * np;
    A[row + p] = sum[row + p];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int nr, int nq, int np, std::vector<float>& A, const std::vector<float>& C4) {
  std::vector<float> sum(np);
  for (int r = 0; r < nr; ++r)
    for (int q = 0; q < nq; ++q) {
      const size_t row = (size_t(r) * nq + q) * np;
      for (int p = 0; p < np; ++p) {
        sum[p] = 0.0f;
        for (int s = 0; s < np; ++s) sum[p] += A[row + s] * C4[s * np + p];
      }
      for (int p = 0; p < np; ++p) A[row + p] = sum[p];
    }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int nq = bySize(options, 8, 20, 128, 140, 220);
  const int nr = bySize(options, 10, 25, 128, 150, 250);
  const int np = bySize(options, 12, 30, 128, 160, 270);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(nr) * nq * np), C4(size_t(np) * np);
  for (int i = 0; i < nr; ++i)
    for (int j = 0; j < nq; ++j)
      for (int k = 0; k < np; ++k) A[(size_t(i) * nq + j) * np + k] = float((i * j + k) % np) / np;
  for (int i = 0; i < np; ++i)
    for (int j = 0; j < np; ++j) C4[i * np + j] = float(i * j % np) / np;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel sumKernel = createKernel(program, "doitgen_sum");
  cl_kernel copyKernel = createKernel(program, "doitgen_copy");

  std::vector<float> result(A.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A);
    cl_mem c4 = upload(cl, C4, CL_MEM_READ_ONLY);
    cl_mem sum = createBuffer(cl, CL_MEM_READ_WRITE, A.size() * sizeof(float));
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    for (int r = 0; r < nr; ++r) {
      setArgs(sumKernel, a, c4, sum, nq, np, r);
      launch(cl, sumKernel, {size_t(np), size_t(nq)}, {32, 8});
      setArgs(copyKernel, a, sum, nq, np, r);
      launch(cl, copyKernel, {size_t(np), size_t(nq)}, {32, 8});
    }
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, a, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, c4, sum});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(nr, nq, np, A, C4);
    error = maxRelativeError(A.data(), result.data(), A.size());
    pass = error <= kThreshold;
  }
  report("doitgen", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(sumKernel));
  CL_CHECK(clReleaseKernel(copyKernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
