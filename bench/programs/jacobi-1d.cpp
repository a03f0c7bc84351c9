// PolyBench jacobi-1d: TSTEPS times, B = 3-point average of A, then A = 3-point average of B
// (interior points 1..N-2). One work-item per point, one launch per sweep (2 per time step).
// Sizes (TSTEPS, N): PolyBench 4 (MINI 20/30, SMALL 40/120, LARGE 500/2000, EXTRALARGE 1000/4000),
// STANDARD = PolyBench/GPU's 10000/4096. Initialisation: PolyBench 4.
// Check: A and B, max relative error below 0.05 % (PolyBench/GPU's threshold for jacobi-1d).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void jacobi_1d(__global const float* in, __global float* out, int n) {
  const int i = get_global_id(0);
  if (i > 0 && i < n - 1)
    out[i] = 0.33333f * (in[i - 1] + in[i] + in[i + 1]);
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int tsteps, int n, std::vector<float>& A, std::vector<float>& B) {
  for (int t = 0; t < tsteps; ++t) {
    for (int i = 1; i < n - 1; ++i) B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; ++i) A[i] = 0.33333f * (B[i - 1] + B[i] + B[i + 1]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int tsteps = bySize(options, 20, 40, 10000, 500, 1000);
  const int n = bySize(options, 30, 120, 4096, 2000, 4000);

  // PolyBench 4 initialisation.
  std::vector<float> A(n), B(n);
  for (int i = 0; i < n; ++i) {
    A[i] = (float(i) + 2) / n;
    B[i] = (float(i) + 3) / n;
  }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kernel = createKernel(program, "jacobi_1d");

  std::vector<float> resultA(n), resultB(n);
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
      launch(cl, kernel, {size_t(n)}, {256});
      setArgs(kernel, b, a, n);
      launch(cl, kernel, {size_t(n)}, {256});
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
    error = std::max(maxRelativeError(A.data(), resultA.data(), n),
                     maxRelativeError(B.data(), resultB.data(), n));
    pass = error <= kThreshold;
  }
  report("jacobi-1d", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
