// Real programs through Hetero, results checked against host computations.
#include "cl_test.hpp"

#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

using cltest::Env;
using cltest::setArg;

namespace {
std::vector<float> randomFloats(size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.f, 1.f);
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng);
    return v;
}
}  // namespace

TEST_CASE("vector add", "[programs]") {
    Env env;
    const size_t n = 100000;
    auto a = randomFloats(n, 1), b = randomFloats(n, 2);
    cl_mem da = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, a.data());
    cl_mem db = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, b.data());
    cl_mem dc = env.buffer(CL_MEM_WRITE_ONLY, n * 4);
    cl_program p = env.build(R"(
        __kernel void add(__global const float* a, __global const float* b, __global float* c, uint n) {
            size_t i = get_global_id(0);
            if (i < n) c[i] = a[i] + b[i];
        })");
    cl_kernel k = env.kernel(p, "add");
    setArg(k, 0, da), setArg(k, 1, db), setArg(k, 2, dc), setArg(k, 3, cl_uint(n));
    size_t global = (n + 63) / 64 * 64, local = 64;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto c = env.read<float>(dc, n);
    for (size_t i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
}

// The shape of the CTS's test_basic async_copy_local_to_global: each work-group fills local memory
// and copies it to global memory with async_work_group_copy. PoCL 3.1 crashed running this kernel's
// abort variant (a work-group-uniform early return before the copy): a split whose abort side is a
// PoCL slot must run such a kernel whole (platform/split/decision.cpp).
TEST_CASE("async work-group copies from local to global memory", "[programs]") {
    Env env;
    const cl_int perItem = 13;
    const size_t local = 256, groups = 64, n = local * groups * perItem;
    std::vector<cl_char> src(n);
    for (size_t i = 0; i < n; ++i) src[i] = static_cast<cl_char>(i * 7 + 3);
    cl_mem dsrc = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, src.data());
    cl_mem ddst = env.buffer(CL_MEM_WRITE_ONLY, n);
    cl_program p = env.build(R"(
        __kernel void local_to_global(const __global char* src, __global char* dst, __local char* lb, int perGroup,
                                int perItem) {
            int i;
            for (i = 0; i < perItem; i++) lb[get_local_id(0) * perItem + i] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (i = 0; i < perItem; i++) lb[get_local_id(0) * perItem + i] = src[get_global_id(0) * perItem + i];
            barrier(CLK_LOCAL_MEM_FENCE);
            event_t e = async_work_group_copy(dst + perGroup * get_group_id(0), (__local const char*)lb,
                                              (size_t)perGroup, 0);
            wait_group_events(1, &e);
        })");
    cl_kernel k = env.kernel(p, "local_to_global");
    const cl_int perGroup = static_cast<cl_int>(local) * perItem;
    setArg(k, 0, dsrc), setArg(k, 1, ddst);
    REQUIRE(clSetKernelArg(k, 2, local * perItem, nullptr) == CL_SUCCESS);
    setArg(k, 3, perGroup), setArg(k, 4, perItem);
    const size_t global = local * groups;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto dst = env.read<cl_char>(ddst, n);
    CHECK(dst == src);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(dsrc), clReleaseMemObject(ddst);
}

TEST_CASE("tiled matrix multiply with local memory", "[programs]") {
    Env env;
    const int N = 96, T = 16;
    auto a = randomFloats(N * N, 3), b = randomFloats(N * N, 4);
    cl_mem da = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, a.size() * 4, a.data());
    cl_mem db = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, b.size() * 4, b.data());
    cl_mem dc = env.buffer(CL_MEM_READ_WRITE, a.size() * 4);
    cl_program p = env.build(R"(
        #define T 16
        __kernel void matmul(__global const float* A, __global const float* B, __global float* C, int N) {
            __local float As[T][T], Bs[T][T];
            int row = get_global_id(1), col = get_global_id(0);
            int lr = get_local_id(1), lc = get_local_id(0);
            float acc = 0.0f;
            for (int t = 0; t < N / T; ++t) {
                As[lr][lc] = A[row * N + t * T + lc];
                Bs[lr][lc] = B[(t * T + lr) * N + col];
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < T; ++k) acc += As[lr][k] * Bs[k][lc];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            C[row * N + col] = acc;
        })",
                             "-cl-fp32-correctly-rounded-divide-sqrt");
    cl_kernel k = env.kernel(p, "matmul");
    setArg(k, 0, da), setArg(k, 1, db), setArg(k, 2, dc), setArg(k, 3, cl_int(N));
    size_t global[2] = {N, N}, local[2] = {T, T};
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 2, nullptr, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto c = env.read<float>(dc, N * N);
    for (int r = 0; r < N; ++r)
        for (int col = 0; col < N; ++col) {
            double ref = 0;
            for (int i = 0; i < N; ++i) ref += double(a[r * N + i]) * b[i * N + col];
            REQUIRE(std::fabs(c[r * N + col] - ref) < 1e-4);
        }
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(da), clReleaseMemObject(db), clReleaseMemObject(dc);
}

TEST_CASE("reduction with local memory and barriers", "[programs]") {
    Env env;
    const size_t n = 1 << 16, local = 128, groups = n / local;
    std::vector<cl_int> in(n);
    std::iota(in.begin(), in.end(), -1000);
    cl_mem din = env.buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4, in.data());
    cl_mem dpartial = env.buffer(CL_MEM_READ_WRITE, groups * 4);
    cl_program p = env.build(R"(
        __kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
            size_t l = get_local_id(0);
            scratch[l] = in[get_global_id(0)];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
                if (l < s) scratch[l] += scratch[l + s];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            if (l == 0) out[get_group_id(0)] = scratch[0];
        })");
    cl_kernel k = env.kernel(p, "reduce");
    setArg(k, 0, din), setArg(k, 1, dpartial);
    REQUIRE(clSetKernelArg(k, 2, local * sizeof(cl_int), nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto partial = env.read<cl_int>(dpartial, groups);
    for (size_t g = 0; g < groups; ++g) {
        long long ref = 0;
        for (size_t i = 0; i < local; ++i) ref += in[g * local + i];
        REQUIRE(partial[g] == ref);
    }
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(din), clReleaseMemObject(dpartial);
}

TEST_CASE("2D and 3D NDRanges with global offsets", "[programs]") {
    Env env;
    cl_program p = env.build(R"(
        __kernel void ids2(__global int* out, int w) {
            int x = get_global_id(0), y = get_global_id(1);
            out[y * w + x] = (int)(get_group_id(0) * 1000 + get_group_id(1) * 100 + get_local_id(0) * 10 + get_local_id(1));
        }
        __kernel void ids3(__global int* out, int w, int h) {
            int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
            out[(z * h + y) * w + x] = x + 100 * y + 10000 * z + (int)get_global_offset(2) * 1000000;
        })");
    SECTION("2D") {
        const int w = 24, h = 20;
        cl_mem out = env.buffer(CL_MEM_READ_WRITE, w * h * 4);
        std::vector<cl_int> fill(w * h, -1);
        REQUIRE(clEnqueueWriteBuffer(env.queue, out, CL_TRUE, 0, fill.size() * 4, fill.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        cl_kernel k = env.kernel(p, "ids2");
        setArg(k, 0, out), setArg(k, 1, cl_int(w));
        size_t offset[2] = {4, 2}, global[2] = {16, 12}, local[2] = {4, 3};
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 2, offset, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto v = env.read<cl_int>(out, w * h);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                bool inside = x >= 4 && x < 20 && y >= 2 && y < 14;
                int expected = inside ? ((x - 4) / 4) * 1000 + ((y - 2) / 3) * 100 + ((x - 4) % 4) * 10 + (y - 2) % 3 : -1;
                REQUIRE(v[y * w + x] == expected);
            }
        clReleaseKernel(k), clReleaseMemObject(out);
    }
    SECTION("3D") {
        const int w = 8, h = 6, d = 5;
        cl_mem out = env.buffer(CL_MEM_READ_WRITE, w * h * d * 4);
        cl_int minus = -1;
        REQUIRE(clEnqueueFillBuffer(env.queue, out, &minus, 4, 0, w * h * d * 4, 0, nullptr, nullptr) == CL_SUCCESS);
        cl_kernel k = env.kernel(p, "ids3");
        setArg(k, 0, out), setArg(k, 1, cl_int(w)), setArg(k, 2, cl_int(h));
        size_t offset[3] = {0, 1, 1}, global[3] = {8, 4, 4}, local[3] = {2, 2, 2};
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 3, offset, global, local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto v = env.read<cl_int>(out, w * h * d);
        for (int z = 0; z < d; ++z)
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x) {
                    bool inside = y >= 1 && y < 5 && z >= 1;
                    REQUIRE(v[(z * h + y) * w + x] == (inside ? x + 100 * y + 10000 * z + 1000000 : -1));
                }
        clReleaseKernel(k), clReleaseMemObject(out);
    }
    clReleaseProgram(p);
}

TEST_CASE("multi-kernel pipeline reusing buffers", "[programs]") {
    // x <- x*2 ; y <- x+y ; x <- y-1, repeated: each kernel reads what the previous one wrote, so
    // with launches alternating between slots every step moves data.
    Env env;
    const size_t n = 4096;
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) x[i] = float(i % 17), y[i] = float(i % 5);
    cl_mem dx = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, x.data());
    cl_mem dy = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, y.data());
    cl_program p = env.build(R"(
        __kernel void twice(__global float* x) { x[get_global_id(0)] *= 2.0f; }
        __kernel void accumulate(__global const float* x, __global float* y) { y[get_global_id(0)] += x[get_global_id(0)]; }
        __kernel void minus_one(__global float* x, __global const float* y) { x[get_global_id(0)] = y[get_global_id(0)] - 1.0f; })");
    cl_kernel twice = env.kernel(p, "twice"), acc = env.kernel(p, "accumulate"), m1 = env.kernel(p, "minus_one");
    setArg(twice, 0, dx), setArg(acc, 0, dx), setArg(acc, 1, dy), setArg(m1, 0, dx), setArg(m1, 1, dy);
    for (int round = 0; round < 5; ++round) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, twice, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, acc, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, m1, 1, nullptr, &n, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        for (size_t i = 0; i < n; ++i) {
            x[i] *= 2.0f;
            y[i] += x[i];
            x[i] = y[i] - 1.0f;
        }
        if (round == 2) {  // a host read in the middle must see the current contents
            REQUIRE(env.read<float>(dy, n) == y);
        }
    }
    REQUIRE(env.read<float>(dx, n) == x);
    REQUIRE(env.read<float>(dy, n) == y);
    clReleaseKernel(twice), clReleaseKernel(acc), clReleaseKernel(m1), clReleaseProgram(p);
    clReleaseMemObject(dx), clReleaseMemObject(dy);
}

TEST_CASE("aliased arguments: one buffer twice, and overlapping sub-buffers of one parent", "[programs]") {
    // Written memory objects are what matters, not arguments (docs/hazards.md, H5): in split runs both
    // arguments must be merged as the one object they are.
    Env env;
    cl_uint alignBits = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr) == CL_SUCCESS);
    const size_t chunk = alignBits / 8 / sizeof(float);  // floats per aligned step
    const size_t n = 64 * chunk;
    std::vector<float> init(n);
    for (size_t i = 0; i < n; ++i) init[i] = float(i % 97);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * 4, init.data());
    cl_program p = env.build(R"(
        __kernel void scale_into(__global const float* in, __global float* out) {
            size_t i = get_global_id(0);
            out[i] = in[i] * 2.0f + 1.0f;
        })");
    cl_kernel k = env.kernel(p, "scale_into");
    setArg(k, 0, buf), setArg(k, 1, buf);
    size_t local = 16;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<float> expect = init;
    for (auto& v : expect) v = v * 2.0f + 1.0f;
    REQUIRE(env.read<float>(buf, n) == expect);

    // in = [0, 48 chunks), out = [16 chunks, 64 chunks): out[i] = in[i] * 2 + 1 reads what others
    // write, so only the element-wise independent part is checked: the first 16 chunks are not
    // written, and element j of out depends on element j of in (16 chunks earlier).
    cl_buffer_region rin{0, 48 * chunk * 4}, rout{16 * chunk * 4, 48 * chunk * 4};
    cl_int err;
    cl_mem in = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &rin, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem out = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &rout, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem copyOfIn = env.buffer(CL_MEM_READ_WRITE, 48 * chunk * 4);
    REQUIRE(clEnqueueCopyBuffer(env.queue, in, copyOfIn, 0, 0, 48 * chunk * 4, 0, nullptr, nullptr) == CL_SUCCESS);
    setArg(k, 0, copyOfIn), setArg(k, 1, out);  // reads a copy: no intra-launch dependence
    size_t m = 48 * chunk;
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &m, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    auto result = env.read<float>(buf, n);
    for (size_t i = 0; i < n; ++i)
        REQUIRE(result[i] == (i < 16 * chunk ? expect[i] : expect[i - 16 * chunk] * 2.0f + 1.0f));
    clReleaseMemObject(copyOfIn), clReleaseMemObject(in), clReleaseMemObject(out);
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("a memory object written through two element sizes in one launch stays exact (H2)", "[programs]") {
    // The same buffer is written as bytes (one per work-group) and as a float. Merged per 4-byte
    // element, a split would lose bytes that the other device wrote into the same word: such a
    // launch must run whole, whatever the transform says of each parameter alone.
    Env env;
    const size_t n = 4096;  // bytes written through `bytes`; the float goes after them
    std::vector<cl_uchar> init(n + 4, 0);
    cl_mem buf = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(), init.data());
    cl_program p = env.build(R"(
        __kernel void bytes_and_float(__global float* f, __global uchar* bytes, uint n) {
            size_t i = get_global_id(0);
            bytes[i] = (uchar)(i * 7 + 3);
            if (i == 0) f[n / 4] = 1.5f;
        })");
    cl_kernel k = env.kernel(p, "bytes_and_float");
    setArg(k, 0, buf), setArg(k, 1, buf), setArg(k, 2, cl_uint(n));
    size_t local = 1;
    for (int round = 0; round < 3; ++round) {
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        auto out = env.read<cl_uchar>(buf, n + 4);
        for (size_t i = 0; i < n; ++i) REQUIRE(out[i] == cl_uchar(i * 7 + 3));
        float f = 0;
        std::memcpy(&f, out.data() + n, 4);
        REQUIRE(f == 1.5f);
    }
    clReleaseKernel(k), clReleaseProgram(p), clReleaseMemObject(buf);
}

TEST_CASE("an input rewritten by the host, then read by launch after launch", "[programs]") {
    // Each host write leaves the input current on one device only. Two launches read it in a row
    // (a dummy launch between rounds shifts which one is first): under icd.split-give-up the first
    // reader of one round gives up before bringing the input to the CPU, and the second, whose CPU
    // does every work-group, must find it brought all the same.
    Env env;
    const size_t n = 4096, local = 64;
    cl_mem in = env.buffer(CL_MEM_READ_ONLY, n * sizeof(cl_int));
    cl_mem out[2] = {env.buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int)), env.buffer(CL_MEM_WRITE_ONLY, n * sizeof(cl_int))};
    cl_mem scratch = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_program p = env.build(R"(
        __kernel void plus(__global const int* in, __global int* out, int k) {
            size_t i = get_global_id(0);
            out[i] = in[i] + k;
        }
        __kernel void touch(__global int* v) { v[get_global_id(0)] = (int)get_global_id(0); })");
    cl_kernel plus = env.kernel(p, "plus"), touch = env.kernel(p, "touch");
    setArg(touch, 0, scratch);
    for (int round = 0; round < 2; ++round) {
        std::vector<cl_int> values(n);
        for (size_t i = 0; i < n; ++i) values[i] = cl_int(i * 7 + round * 1000);
        REQUIRE(clEnqueueWriteBuffer(env.queue, in, CL_TRUE, 0, n * sizeof(cl_int), values.data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        for (int reader = 0; reader < 2; ++reader) {
            setArg(plus, 0, in), setArg(plus, 1, out[reader]), setArg(plus, 2, cl_int(reader + 1));
            REQUIRE(clEnqueueNDRangeKernel(env.queue, plus, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
        }
        for (int reader = 0; reader < 2; ++reader) {
            auto got = env.read<cl_int>(out[reader], n);
            size_t wrong = 0;
            for (size_t i = 0; i < n; ++i) wrong += got[i] != values[i] + reader + 1;
            INFO("round " << round << ", reader " << reader);
            CHECK(wrong == 0);
        }
        REQUIRE(clEnqueueNDRangeKernel(env.queue, touch, 1, nullptr, &n, &local, 0, nullptr, nullptr) == CL_SUCCESS);
    }
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseKernel(plus), clReleaseKernel(touch), clReleaseProgram(p);
    for (cl_mem m : {in, out[0], out[1], scratch}) clReleaseMemObject(m);
}
