// PolyBench mvt: x1 = x1 + A * y1,  x2 = x2 + A^T * y2   (A: N x N)
//   kernel 1, one work-item per row i:    x1[i] += sum_j A[i][j] * y1[j]
//   kernel 2, one work-item per column i: x2[i] += sum_j A[j][i] * y2[j]
// Accumulating in global memory as PolyBench/GPU does.
// Sizes: PolyBench 4 (MINI 40, SMALL 120, LARGE 2000, EXTRALARGE 4000), STANDARD = PolyBench/GPU's 4096.
// Check: x1 and x2, max relative error below 0.05 % (PolyBench/GPU's threshold for mvt).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void mvt_x1(__global const float* A, __global float* x1, __global const float* y1, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; ++j)
      x1[i] += A[i * n + j] * y1[j];
  }
}

__kernel void mvt_x2(__global const float* A, __global float* x2, __global const float* y2, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; ++j)
      x2[i] += A[j * n + i] * y2[j];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void reference(int n, const std::vector<float>& A, std::vector<float>& x1, std::vector<float>& x2,
               const std::vector<float>& y1, const std::vector<float>& y2) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) x1[i] += A[i * n + j] * y1[j];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) x2[i] += A[j * n + i] * y2[j];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int n = bySize(options, 40, 120, 4096, 2000, 4000);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(n) * n), x1(n), x2(n), y1(n), y2(n);
  for (int i = 0; i < n; ++i) {
    x1[i] = float(i % n) / n;
    x2[i] = float((i + 1) % n) / n;
    y1[i] = float((i + 3) % n) / n;
    y2[i] = float((i + 4) % n) / n;
    for (int j = 0; j < n; ++j) A[size_t(i) * n + j] = float(size_t(i) * j % n) / n;
  }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel first = createKernel(program, "mvt_x1");
  cl_kernel second = createKernel(program, "mvt_x2");

  std::vector<float> result1(n), result2(n);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem bx1 = upload(cl, x1);
    cl_mem bx2 = upload(cl, x2);
    cl_mem by1 = upload(cl, y1, CL_MEM_READ_ONLY);
    cl_mem by2 = upload(cl, y2, CL_MEM_READ_ONLY);
    setArgs(first, a, bx1, by1, n);
    setArgs(second, a, bx2, by2, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, first, {size_t(n)}, {256});
    launch(cl, second, {size_t(n)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, bx1, result1);
    download(cl, bx2, result2);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, bx1, bx2, by1, by2});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(n, A, x1, x2, y1, y2);
    error = std::max(maxRelativeError(x1.data(), result1.data(), n),
                     maxRelativeError(x2.data(), result2.data(), n));
    pass = error <= kThreshold;
  }
  report("mvt", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(first));
  CL_CHECK(clReleaseKernel(second));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
