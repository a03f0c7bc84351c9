// PolyBench covariance: the M x M covariance matrix of N data points of M attributes (data: N x M)
//   kernel 1, per column j: mean[j] = sum_i data[i][j] / N
//   kernel 2, per element:  data[i][j] -= mean[j]
//   kernel 3, per row j1:   cov[j1][j2] = cov[j2][j1] = sum_i data[i][j1] * data[i][j2] / (N - 1)
//                           for j2 >= j1 (each element written by exactly one work-item)
// Check: cov, mean and the centred data, max relative error below 1.05 % (PolyBench/GPU's
// threshold for covariance).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void covar_mean(__global const float* data, __global float* mean, float float_n,
                         int m, int n) {
  const int j = get_global_id(0);
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
}

__kernel void covar_center(__global float* data, __global const float* mean, int m, int n) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < n && j < m)
    data[i * m + j] -= mean[j];
}

__kernel void covar_matrix(__global const float* data, __global float* cov, float float_n,
                           int m, int n) {
  const int j1 = get_global_id(0);
  if (j1 < m) {
    for (int j2 = j1; j2 < m; ++j2) {
      cov[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; ++i)
        cov[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      cov[j1 * m + j2] /= float_n - 1.0f;
      cov[j2 * m + j1] = cov[j1 * m + j2];
    }
  }
}
)CLC";

constexpr double kThreshold = 1.05 / 100;

// data: the input, on return centred like the device's copy.
void reference(int m, int n, float floatN, std::vector<float>& data, std::vector<float>& mean,
               std::vector<float>& cov) {
  for (int j = 0; j < m; ++j) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i) mean[j] += data[i * m + j];
    mean[j] /= floatN;
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) data[i * m + j] -= mean[j];
  // Loops in i, k, j order for the cache; each element still sums over k in ascending order.
  for (int i = 0; i < m; ++i) {
    for (int j = i; j < m; ++j) cov[i * m + j] = 0.0f;
    for (int k = 0; k < n; ++k)
      for (int j = i; j < m; ++j) cov[i * m + j] += data[k * m + i] * data[k * m + j];
    for (int j = i; j < m; ++j) {
      cov[i * m + j] /= floatN - 1.0f;
      cov[j * m + i] = cov[i * m + j];
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace polybench;
  const Options options = parseArgs(argc, argv);
  const int m = bySize(options, 28, 80, 2048, 1200, 2600);
  const int n = bySize(options, 32, 100, 2048, 1400, 3000);

  // PolyBench 4 initialisation.
  const float floatN = float(n);
  std::vector<float> data(size_t(n) * m);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) data[i * m + j] = float(i) * j / m;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel meanKernel = createKernel(program, "covar_mean");
  cl_kernel centerKernel = createKernel(program, "covar_center");
  cl_kernel covKernel = createKernel(program, "covar_matrix");

  std::vector<float> result(size_t(m) * m), resultMean(m), resultData(data.size());
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem dataBuffer = upload(cl, data);  // centred in place
    cl_mem mean = createBuffer(cl, CL_MEM_READ_WRITE, size_t(m) * sizeof(float));
    cl_mem cov = createBuffer(cl, CL_MEM_READ_WRITE, result.size() * sizeof(float));
    setArgs(meanKernel, dataBuffer, mean, floatN, m, n);
    setArgs(centerKernel, dataBuffer, mean, m, n);
    setArgs(covKernel, dataBuffer, cov, floatN, m, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, meanKernel, {size_t(m)}, {256});
    launch(cl, centerKernel, {size_t(m), size_t(n)}, {32, 8});
    launch(cl, covKernel, {size_t(m)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, cov, result);
    download(cl, mean, resultMean);
    download(cl, dataBuffer, resultData);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({dataBuffer, mean, cov});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    std::vector<float> cov(size_t(m) * m), mean(m), centred = data;
    reference(m, n, floatN, centred, mean, cov);
    error = std::max({maxRelativeError(cov.data(), result.data(), cov.size()),
                      maxRelativeError(mean.data(), resultMean.data(), m),
                      maxRelativeError(centred.data(), resultData.data(), centred.size())});
    pass = error <= kThreshold;
  }
  report("covariance", options, cl, timing.kernel, timing.total, error, pass);
  for (cl_kernel kernel : {meanKernel, centerKernel, covKernel}) CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
