// What the first launches of a process cost, by what the process did on its queue before (session
// 49, issue 15: default and held cost gemm and 3mm STANDARD 5-32 us over native per process on the
// H100). 3mm MINI's three launches and clFinish, timed per call, after a warm-up given by WARM:
//   none | marker (a marker and clFinish) | noop (another kernel launched once) | same (mm3_product
//   once on scratch buffers). Prints one line per run: e1 e2 e3 (each clEnqueueNDRangeKernel), fin
//   (clFinish) and kernel (the whole window) in us. Built on the GPU machine by call1.sh.
#include "polybench.hpp"
#include <cstring>
using namespace polybench;
static const char* kSource = R"CLC(
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
__kernel void noop(__global float* out, int n) { int i = get_global_id(0); if (i < n) out[i] = 1.0f; }
)CLC";
int main(int argc, char** argv) {
  const Options options = parseArgs(argc, argv);
  const char* warm = getenv("WARM") ? getenv("WARM") : "none";
  const int ni = 16, nj = 18, nk = 20, nl = 22, nm = 24;
  std::vector<float> A(ni * nk, 1.f), B(nk * nj, 1.f), C(nj * nm, 1.f), D(nm * nl, 1.f);
  Cl cl; setup(cl, options);
  cl_program program = buildProgram(cl, kSource);
  cl_kernel kE = createKernel(program, "mm3_product"), kF = createKernel(program, "mm3_product"), kG = createKernel(program, "mm3_product");
  if (!strcmp(warm, "noop") || !strcmp(warm, "noop2")) {
    cl_kernel k = createKernel(program, "noop");
    cl_mem o = createBuffer(cl, CL_MEM_READ_WRITE, 1024 * 4);
    setArgs(k, o, 1024);
    size_t g = 1024, l = 64;
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &g, &l, 0, nullptr, nullptr));
    CL_CHECK(clFinish(cl.queue));
    if (!strcmp(warm, "noop2")) { CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, nullptr, &g, &l, 0, nullptr, nullptr)); CL_CHECK(clFinish(cl.queue)); }
    clReleaseMemObject(o); clReleaseKernel(k);
  } else if (!strcmp(warm, "marker")) {
    cl_event ev;
    CL_CHECK(clEnqueueMarkerWithWaitList(cl.queue, 0, nullptr, &ev));
    CL_CHECK(clFinish(cl.queue));
    clReleaseEvent(ev);
  } else if (!strcmp(warm, "same")) {
    cl_kernel k = createKernel(program, "mm3_product");
    cl_mem a = upload(cl, A), b = upload(cl, B), e = createBuffer(cl, CL_MEM_READ_WRITE, ni * nj * 4);
    setArgs(k, a, b, e, ni, nj, nk);
    size_t g[2] = {32, 16}, l[2] = {32, 8};
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, nullptr, g, l, 0, nullptr, nullptr));
    CL_CHECK(clFinish(cl.queue));
    release({a, b, e}); clReleaseKernel(k);
  }
  for (int run = 0; run < options.repeat; ++run) {
    cl_mem a = upload(cl, A, CL_MEM_READ_ONLY), b = upload(cl, B, CL_MEM_READ_ONLY), c = upload(cl, C, CL_MEM_READ_ONLY), d = upload(cl, D, CL_MEM_READ_ONLY);
    cl_mem e = createBuffer(cl, CL_MEM_READ_WRITE, ni * nj * 4), f = createBuffer(cl, CL_MEM_READ_WRITE, nj * nl * 4), g = createBuffer(cl, CL_MEM_READ_WRITE, ni * nl * 4);
    setArgs(kE, a, b, e, ni, nj, nk); setArgs(kF, c, d, f, nj, nl, nm); setArgs(kG, e, f, g, ni, nl, nj);
    CL_CHECK(clFinish(cl.queue));
    double t[5];
    size_t l[2] = {32, 8};
    size_t g1[2] = {roundUp(nj, 32), roundUp(ni, 8)}, g2[2] = {roundUp(nl, 32), roundUp(nj, 8)}, g3[2] = {roundUp(nl, 32), roundUp(ni, 8)};
    t[0] = seconds();
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, kE, 2, nullptr, g1, l, 0, nullptr, nullptr)); t[1] = seconds();
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, kF, 2, nullptr, g2, l, 0, nullptr, nullptr)); t[2] = seconds();
    CL_CHECK(clEnqueueNDRangeKernel(cl.queue, kG, 2, nullptr, g3, l, 0, nullptr, nullptr)); t[3] = seconds();
    CL_CHECK(clFinish(cl.queue)); t[4] = seconds();
    printf("warm=%s run=%d e1=%.1f e2=%.1f e3=%.1f fin=%.1f kernel=%.1f\n", warm, run + 1, (t[1]-t[0])*1e6, (t[2]-t[1])*1e6, (t[3]-t[2])*1e6, (t[4]-t[3])*1e6, (t[4]-t[0])*1e6);
    std::vector<float> res(ni * nl); download(cl, g, res);
    release({a, b, c, d, e, f, g});
  }
  return 0;
}
