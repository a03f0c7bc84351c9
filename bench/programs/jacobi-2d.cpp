// PolyBench jacobi-2d: TSTEPS times, B = 5-point average of A, then A = 5-point average of B
// (interior points 1..N-2 in both dimensions). One work-item per point, one launch per sweep.
// Sizes (TSTEPS, N): PolyBench 4 (MINI 20/30, SMALL 40/90, LARGE 500/1300, EXTRALARGE 1000/2800),
// STANDARD = PolyBench/GPU's 20/4096. Initialisation: PolyBench 4.
// Check: A and B, max relative error below 0.05 % (PolyBench/GPU's threshold for jacobi-2d).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void jacobi_2d(__global const float* in, __global float* out, int n) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i > 0 && i < n - 1 && j > 0 && j < n - 1)
    out[i * n + j] = 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1] +
                             in[(i + 1) * n + j] + in[(i - 1) * n + j]);
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void sweep(int n, const std::vector<float>& in, std::vector<float>& out) {
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      out[i * n + j] = 0.2f * (in[i * n + j] + in[i * n + j - 1] + in[i * n + j + 1] +
                               in[(i + 1) * n + j] + in[(i - 1) * n + j]);
}

void reference(int tsteps, int n, std::vector<float>& A, std::vector<float>& B) {
  for (int t = 0; t < tsteps; ++t) {
    sweep(n, A, B);
    sweep(n, B, A);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int tsteps = bySize(options, 20, 40, 20, 500, 1000);
  const int n = bySize(options, 30, 90, 4096, 1300, 2800);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      A[size_t(i) * n + j] = (float(i) * (j + 2) + 2) / n;
      B[size_t(i) * n + j] = (float(i) * (j + 3) + 3) / n;
    }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "jacobi_2d");

  std::vector<float> resultA(A.size()), resultB(B.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A);
    cl_mem b = upload(cl, B);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    for (int t = 0; t < tsteps; ++t) {
      // Arguments are captured at enqueue, so one kernel object serves both directions.
      setArgs(kernel, a, b, n);
      launch(cl, kernel, {size_t(n), size_t(n)}, {32, 8});
      setArgs(kernel, b, a, n);
      launch(cl, kernel, {size_t(n), size_t(n)}, {32, 8});
    }
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, a, resultA);
    download(cl, b, resultB);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, b});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(tsteps, n, A, B);
    error = std::max(maxRelativeError(A.data(), resultA.data(), A.size()),
                     maxRelativeError(B.data(), resultB.data(), B.size()));
    pass = error <= kThreshold;
  }
  report("jacobi-2d", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
