// PolyBench correlation: the M x M correlation matrix of N data points of M attributes (data: N x M)
//   kernel 1, per column j: mean[j]   = sum_i data[i][j] / N
//   kernel 2, per column j: stddev[j] = sqrt(sum_i (data[i][j] - mean[j])^2 / N), 1 if <= 0.1
//   kernel 3, per element:  data[i][j] = (data[i][j] - mean[j]) / (sqrt(N) * stddev[j])
//   kernel 4, per row j1:   corr[j1][j1] = 1; corr[j1][j2] = corr[j2][j1] = sum_i data[i][j1] *
//                           data[i][j2] for j2 > j1 (each element written by exactly one work-item)
// Check: corr, and also mean, stddev and the reduced data: PolyBench's data has proportional
// columns, so corr is all ones whatever mean and stddev are and would hide their errors.
// Max relative error below 1.05 % (PolyBench/GPU's threshold for correlation).
#include "polybench.hpp"

namespace {

const char* kSource = R"CLC(
__kernel void corr_mean(__global const float* data, __global float* mean, float float_n,
                        int m, int n) {
  const int j = get_global_id(0);
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
}

__kernel void corr_stddev(__global const float* data, __global const float* mean,
                          __global float* stddev, float float_n, float eps, int m, int n) {
  const int j = get_global_id(0);
  if (j < m) {
    stddev[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    stddev[j] /= float_n;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0f : stddev[j];
  }
}

__kernel void corr_reduce(__global float* data, __global const float* mean,
                          __global const float* stddev, float float_n, int m, int n) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i < n && j < m) {
    data[i * m + j] -= mean[j];
    data[i * m + j] /= sqrt(float_n) * stddev[j];
  }
}

__kernel void corr_matrix(__global const float* data, __global float* corr, int m, int n) {
  const int j1 = get_global_id(0);
  if (j1 < m) {
    corr[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; ++j2) {
      corr[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; ++i)
        corr[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      corr[j2 * m + j1] = corr[j1 * m + j2];
    }
  }
}
)CLC";

constexpr double kThreshold = 1.05 / 100;
constexpr float kEps = 0.1f;

struct Outputs {
  std::vector<float> mean, stddev, data, corr;
};

// data: the input, on return centred and reduced like the device's copy.
void reference(int m, int n, float floatN, std::vector<float>& data, std::vector<float>& mean,
               std::vector<float>& stddev, std::vector<float>& corr) {
  for (int j = 0; j < m; ++j) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i) mean[j] += data[i * m + j];
    mean[j] /= floatN;
  }
  for (int j = 0; j < m; ++j) {
    stddev[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      stddev[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    stddev[j] /= floatN;
    stddev[j] = std::sqrt(stddev[j]);
    stddev[j] = stddev[j] <= kEps ? 1.0f : stddev[j];
  }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) {
      data[i * m + j] -= mean[j];
      data[i * m + j] /= std::sqrt(floatN) * stddev[j];
    }
  // Loops in i, k, j order for the cache; each element still sums over k in ascending order.
  for (int i = 0; i < m - 1; ++i) {
    corr[i * m + i] = 1.0f;
    for (int j = i + 1; j < m; ++j) corr[i * m + j] = 0.0f;
    for (int k = 0; k < n; ++k)
      for (int j = i + 1; j < m; ++j) corr[i * m + j] += data[k * m + i] * data[k * m + j];
    for (int j = i + 1; j < m; ++j) corr[j * m + i] = corr[i * m + j];
  }
  corr[(m - 1) * m + (m - 1)] = 1.0f;
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
    for (int j = 0; j < m; ++j) data[i * m + j] = float(i * j) / m + i;

  Cl cl;
  setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel meanKernel = createKernel(program, "corr_mean");
  cl_kernel stddevKernel = createKernel(program, "corr_stddev");
  cl_kernel reduceKernel = createKernel(program, "corr_reduce");
  cl_kernel corrKernel = createKernel(program, "corr_matrix");

  Outputs result{std::vector<float>(m), std::vector<float>(m), std::vector<float>(data.size()),
                 std::vector<float>(size_t(m) * m)};
  Timing timing;
  for (int run = 0; run < options.repeat; ++run) {
    const double start = seconds();
    cl_mem dataBuffer = upload(cl, data);  // centred and reduced in place
    cl_mem mean = createBuffer(cl, CL_MEM_READ_WRITE, size_t(m) * sizeof(float));
    cl_mem stddev = createBuffer(cl, CL_MEM_READ_WRITE, size_t(m) * sizeof(float));
    cl_mem corr = createBuffer(cl, CL_MEM_READ_WRITE, result.corr.size() * sizeof(float));
    setArgs(meanKernel, dataBuffer, mean, floatN, m, n);
    setArgs(stddevKernel, dataBuffer, mean, stddev, floatN, kEps, m, n);
    setArgs(reduceKernel, dataBuffer, mean, stddev, floatN, m, n);
    setArgs(corrKernel, dataBuffer, corr, m, n);
    CL_CHECK(clFinish(cl.queue));

    const double kernelStart = seconds();
    launch(cl, meanKernel, {size_t(m)}, {256});
    launch(cl, stddevKernel, {size_t(m)}, {256});
    launch(cl, reduceKernel, {size_t(m), size_t(n)}, {32, 8});
    launch(cl, corrKernel, {size_t(m)}, {256});
    CL_CHECK(clFinish(cl.queue));
    const double kernelEnd = seconds();

    download(cl, corr, result.corr);
    download(cl, mean, result.mean);
    download(cl, stddev, result.stddev);
    download(cl, dataBuffer, result.data);
    timing.add(kernelEnd - kernelStart, seconds() - start);
    release({dataBuffer, mean, stddev, corr});
  }

  double error = 0;
  bool pass = true;
  if (options.check) {
    Outputs expected{std::vector<float>(m), std::vector<float>(m), data,
                     std::vector<float>(size_t(m) * m)};
    reference(m, n, floatN, expected.data, expected.mean, expected.stddev, expected.corr);
    error = std::max(
        {maxRelativeError(expected.corr.data(), result.corr.data(), expected.corr.size()),
         maxRelativeError(expected.mean.data(), result.mean.data(), m),
         maxRelativeError(expected.stddev.data(), result.stddev.data(), m),
         maxRelativeError(expected.data.data(), result.data.data(), expected.data.size())});
    pass = error <= kThreshold;
  }
  report("correlation", options, cl, timing.kernel, timing.total, error, pass);
  for (cl_kernel kernel : {meanKernel, stddevKernel, reduceKernel, corrKernel})
    CL_CHECK(clReleaseKernel(kernel));
  CL_CHECK(clReleaseProgram(program));
  return exitCode(options, pass);
}
