// PolyBench gemver: vector multiplication and matrix addition   (A: N x N)
//   kernel 1, 2D, per element: A[i][j] += u1[i] * v1[j] + u2[i] * v2[j]
//   kernel 2, per i:           x[i] += beta * sum_j A[j][i] * y[j];  x[i] += z[i]
//   kernel 3, per i:           w[i] += alpha * sum_j A[i][j] * x[j]
// Accumulating in global memory as PolyBench/GPU does.
// Check: A, x and w, max relative error below 0.05 % (PolyBench/GPU's threshold for gemver).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void gemver_update(__global float* A, __global const float* u1, __global const float* v1,
                            __global const float* u2, __global const float* v2, int n) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < n && j < n)
    A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
}

__kernel void gemver_x(__global const float* A, __global float* x, __global const float* y,
                       __global const float* z, float beta, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; ++j)
      x[i] = x[i] + beta * A[j * n + i] * y[j];
    x[i] = x[i] + z[i];
  }
}

__kernel void gemver_w(__global const float* A, __global const float* x, __global float* w,
                       float alpha, int n) {
  const int i = get_global_id(0);
  if (i < n) {
    for (int j = 0; j < n; ++j)
      w[i] = w[i] + alpha * A[i * n + j] * x[j];
  }
}
)CLC";

constexpr double kThreshold = 0.05 / 100;

struct Vectors {
  std::vector<float> u1, v1, u2, v2, w, x, y, z;
};

void reference(int n, float alpha, float beta, std::vector<float>& A, Vectors& v) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      A[i * n + j] = A[i * n + j] + v.u1[i] * v.v1[j] + v.u2[i] * v.v2[j];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) v.x[i] = v.x[i] + beta * A[j * n + i] * v.y[j];
  for (int i = 0; i < n; ++i) v.x[i] = v.x[i] + v.z[i];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) v.w[i] = v.w[i] + alpha * A[i * n + j] * v.x[j];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int n = bySize(options, 40, 120, 4096, 2000, 4000);

  // PolyBench 4 initialisation.
  const float alpha = 1.5f, beta = 1.2f;
  std::vector<float> A(size_t(n) * n);
  Vectors v;
  for (auto* vec : {&v.u1, &v.v1, &v.u2, &v.v2, &v.w, &v.x, &v.y, &v.z}) vec->resize(n);
  const float fn = float(n);
  for (int i = 0; i < n; ++i) {
    v.u1[i] = float(i);
    v.u2[i] = ((i + 1) / fn) / 2.0f;
    v.v1[i] = ((i + 1) / fn) / 4.0f;
    v.v2[i] = ((i + 1) / fn) / 6.0f;
    v.y[i] = ((i + 1) / fn) / 8.0f;
    v.z[i] = ((i + 1) / fn) / 9.0f;
    v.x[i] = 0.0f;
    v.w[i] = 0.0f;
    for (int j = 0; j < n; ++j) A[i * n + j] = float(i * j % n) / n;
  }

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel update = createKernel(program, "gemver_update");
  cl_kernel kernelX = createKernel(program, "gemver_x");
  cl_kernel kernelW = createKernel(program, "gemver_w");

  std::vector<float> resultA(A.size()), resultX(n), resultW(n);
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem a = upload(cl, A);
    cl_mem u1 = upload(cl, v.u1, CL_MEM_READ_ONLY);
    cl_mem v1 = upload(cl, v.v1, CL_MEM_READ_ONLY);
    cl_mem u2 = upload(cl, v.u2, CL_MEM_READ_ONLY);
    cl_mem v2 = upload(cl, v.v2, CL_MEM_READ_ONLY);
    cl_mem w = upload(cl, v.w);
    cl_mem x = upload(cl, v.x);
    cl_mem y = upload(cl, v.y, CL_MEM_READ_ONLY);
    cl_mem z = upload(cl, v.z, CL_MEM_READ_ONLY);
    setArgs(update, a, u1, v1, u2, v2, n);
    setArgs(kernelX, a, x, y, z, beta, n);
    setArgs(kernelW, a, x, w, alpha, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, update, {size_t(n), size_t(n)}, {32, 8});
    launch(cl, kernelX, {size_t(n)}, {256});
    launch(cl, kernelW, {size_t(n)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, a, resultA);
    download(cl, x, resultX);
    download(cl, w, resultW);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({a, u1, v1, u2, v2, w, x, y, z});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    reference(n, alpha, beta, A, v);
    error = std::max({maxRelativeError(v.w.data(), resultW.data(), n),
                      maxRelativeError(v.x.data(), resultX.data(), n),
                      maxRelativeError(A.data(), resultA.data(), A.size())});
    pass = error <= kThreshold;
  }
  report("gemver", options, cl, timing.kernel, timing.total, error, pass);
  CL_CHECK(clReleaseKernel(update));
  CL_CHECK(clReleaseKernel(kernelX));
  CL_CHECK(clReleaseKernel(kernelW));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
