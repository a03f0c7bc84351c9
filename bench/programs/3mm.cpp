// PolyBench 3mm: G = (A * B) * (C * D), as three matrix products
//   E = A * B   (A: NI x NK, B: NK x NJ)
//   F = C * D   (C: NJ x NM, D: NM x NL)
//   G = E * F   (G: NI x NL)
// One work-item per output element, accumulating in global memory as PolyBench/GPU does.
// Check: G, max relative error below 0.05 % (PolyBench/GPU's percent-difference threshold).
#include "polybench.hpp"

namespace {

// out (rows x cols) = left (rows x inner) * right (inner x cols); one kernel serves all three.
const char* kSource = R"CLC(
__kernel void mm3_product(__global const float* left, __global const float* right,
                          __global float* out, int rows, int cols, int inner) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < rows && j < cols) {
    out[i * cols + j] = 0.0f;
    for (int k = 0; k < inner; ++k)
      out[i * cols + j] += left[i * inner + k] * right[k * cols + j];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

void product(int rows, int cols, int inner, const std::vector<float>& left,
             const std::vector<float>& right, std::vector<float>& out) {
  // Loops in i, k, j order for the cache; each element still sums over k in ascending order.
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) out[i * cols + j] = 0.0f;
    for (int k = 0; k < inner; ++k)
      for (int j = 0; j < cols; ++j) out[i * cols + j] += left[i * inner + k] * right[k * cols + j];
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int ni = bySize(options, 16, 40, 512, 800, 1600);
  const int nj = bySize(options, 18, 50, 512, 900, 1800);
  const int nk = bySize(options, 20, 60, 512, 1000, 2000);
  const int nl = bySize(options, 22, 70, 512, 1100, 2200);
  const int nm = bySize(options, 24, 80, 512, 1200, 2400);

  // PolyBench 4 initialisation.
  std::vector<float> A(size_t(ni) * nk), B(size_t(nk) * nj), C(size_t(nj) * nm), D(size_t(nm) * nl);
  for (int i = 0; i < ni; ++i)
    for (int j = 0; j < nk; ++j) A[i * nk + j] = float((i * j + 1) % ni) / (5 * ni);
  for (int i = 0; i < nk; ++i)
    for (int j = 0; j < nj; ++j) B[i * nj + j] = float((i * (j + 1) + 2) % nj) / (5 * nj);
  for (int i = 0; i < nj; ++i)
    for (int j = 0; j < nm; ++j) C[i * nm + j] = float(i * (j + 3) % nl) / (5 * nl);
  for (int i = 0; i < nm; ++i)
    for (int j = 0; j < nl; ++j) D[i * nl + j] = float((i * (j + 2) + 2) % nk) / (5 * nk);

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  // One kernel object per product: each keeps its own arguments.
  cl_kernel productE = createKernel(program, "mm3_product");
  cl_kernel productF = createKernel(program, "mm3_product");
  cl_kernel productG = createKernel(program, "mm3_product");

  std::vector<float> result(size_t(ni) * nl);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY);
    cl_mem b = upload(cl, B, CL_MEM_READ_ONLY);
    cl_mem c = upload(cl, C, CL_MEM_READ_ONLY);
    cl_mem d = upload(cl, D, CL_MEM_READ_ONLY);
    cl_mem e = createBuffer(cl, CL_MEM_READ_WRITE, size_t(ni) * nj * sizeof(float));
    cl_mem f = createBuffer(cl, CL_MEM_READ_WRITE, size_t(nj) * nl * sizeof(float));
    cl_mem g = createBuffer(cl, CL_MEM_READ_WRITE, result.size() * sizeof(float));
    setArgs(productE, a, b, e, ni, nj, nk);
    setArgs(productF, c, d, f, nj, nl, nm);
    setArgs(productG, e, f, g, ni, nl, nj);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, productE, {size_t(nj), size_t(ni)}, {32, 8});
    launch(cl, productF, {size_t(nl), size_t(nj)}, {32, 8});
    launch(cl, productG, {size_t(nl), size_t(ni)}, {32, 8});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, g, result);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, b, c, d, e, f, g});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    std::vector<float> E(size_t(ni) * nj), F(size_t(nj) * nl), G(size_t(ni) * nl);
    product(ni, nj, nk, A, B, E);
    product(nj, nl, nm, C, D, F);
    product(ni, nl, nj, E, F, G);
    error = maxRelativeError(G.data(), result.data(), G.size());
    pass = error <= kThreshold;
  }
  report("3mm", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(productE));
  CL_CHECK(clReleaseKernel(productF));
  CL_CHECK(clReleaseKernel(productG));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
