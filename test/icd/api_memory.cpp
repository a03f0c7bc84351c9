// Buffers and sub-buffers: creation flags and their errors, info queries, read/write/copy/fill and
// their rect variants, map/unmap (USE_HOST_PTR maps return the application's memory), migration,
// destructor callbacks and the lifetime links between sub-buffers and their parents.
#include "cl_test.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <numeric>
#include <vector>

namespace {

template <class T>
T memValue(cl_mem m, cl_mem_info param) {
    T v{};
    REQUIRE(clGetMemObjectInfo(m, param, sizeof v, &v, nullptr) == CL_SUCCESS);
    return v;
}

cl_int createError(cl_context c, cl_mem_flags flags, size_t size, void* host) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(c, flags, size, host, &err);
    if (m) clReleaseMemObject(m);
    CHECK((m == nullptr) == (err != CL_SUCCESS));
    return err;
}

cl_mem subBuffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size, cl_int* err) {
    cl_buffer_region region{origin, size};
    return clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, err);
}

size_t baseAlignBytes(cl_device_id d) {
    cl_uint bits = 0;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr) == CL_SUCCESS);
    return bits / 8;
}

std::vector<cl_int> iota(size_t n, cl_int first = 0) {
    std::vector<cl_int> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

// Destructor callbacks in the order they ran. They may run on an internal thread when the last
// reference was a command's, so the log is locked and can be waited for.
class DestroyLog {
public:
    void add(int tag) {
        std::lock_guard lock(mutex_);
        calls_.push_back(tag);
        changed_.notify_all();
    }
    std::vector<int> calls() {
        std::lock_guard lock(mutex_);
        return calls_;
    }
    // Waits (bounded, so that a leak fails instead of hanging) until `n` callbacks ran.
    std::vector<int> await(size_t n) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, std::chrono::seconds(120), [&] { return calls_.size() >= n; });
        return calls_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<int> calls_;
};

struct Tagged {
    DestroyLog* log;
    int tag;
};
void CL_CALLBACK recordMemDestroyed(cl_mem, void* data) {
    auto* t = static_cast<Tagged*>(data);
    t->log->add(t->tag);
}

}  // namespace

TEST_CASE("api: buffer creation flag combinations", "[api][memory]") {
    cltest::Env env;
    std::vector<unsigned char> host(64);
    cl_ulong maxAlloc = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxAlloc, &maxAlloc, nullptr) == CL_SUCCESS);

    CHECK(createError(env.context, CL_MEM_READ_WRITE, 0, nullptr) == CL_INVALID_BUFFER_SIZE);
    CHECK(createError(env.context, CL_MEM_READ_WRITE, static_cast<size_t>(maxAlloc) + 1, nullptr) == CL_INVALID_BUFFER_SIZE);
    CHECK(createError(env.context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr) == CL_INVALID_VALUE);
    CHECK(createError(env.context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, nullptr) == CL_INVALID_VALUE);
    CHECK(createError(env.context, CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 64, nullptr) == CL_INVALID_VALUE);
    CHECK(createError(env.context, CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, 64, nullptr) == CL_INVALID_VALUE);
    CHECK(createError(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, 64, host.data()) == CL_INVALID_VALUE);
    CHECK(createError(env.context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host.data()) == CL_INVALID_VALUE);
    CHECK(createError(env.context, cl_mem_flags(1) << 40, 64, nullptr) == CL_INVALID_VALUE);
    // host_ptr must be given exactly when the flags use it.
    CHECK(createError(env.context, CL_MEM_COPY_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
    CHECK(createError(env.context, CL_MEM_USE_HOST_PTR, 64, nullptr) == CL_INVALID_HOST_PTR);
    CHECK(createError(env.context, CL_MEM_READ_WRITE, 64, host.data()) == CL_INVALID_HOST_PTR);

    // Combinations the specification allows.
    CHECK(createError(env.context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host.data()) == CL_SUCCESS);
    CHECK(createError(env.context, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 64, nullptr) == CL_SUCCESS);
    CHECK(createError(env.context, CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 64, nullptr) == CL_SUCCESS);
    CHECK(createError(env.context, 0, 64, nullptr) == CL_SUCCESS);
}

TEST_CASE("api: clCreateBufferWithProperties accepts an empty list and rejects unknown keys", "[api][memory]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_mem_properties empty[] = {0};
    cl_mem m = clCreateBufferWithProperties(env.context, empty, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    // The properties come back as given.
    size_t n = 0;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == sizeof empty);
    clReleaseMemObject(m);

    m = clCreateBufferWithProperties(env.context, nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == 0);
    clReleaseMemObject(m);

    cl_mem_properties unknown[] = {0x7777, 1, 0};
    CHECK(clCreateBufferWithProperties(env.context, unknown, CL_MEM_READ_WRITE, 64, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);
}

TEST_CASE("api: buffer info queries", "[api][memory]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY, 256);
    CHECK(memValue<cl_mem_object_type>(m, CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
    CHECK(memValue<cl_mem_flags>(m, CL_MEM_FLAGS) == (CL_MEM_READ_ONLY | CL_MEM_HOST_WRITE_ONLY));
    CHECK(memValue<size_t>(m, CL_MEM_SIZE) == 256);
    CHECK(memValue<void*>(m, CL_MEM_HOST_PTR) == nullptr);
    CHECK(memValue<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
    CHECK(memValue<cl_context>(m, CL_MEM_CONTEXT) == env.context);
    CHECK(memValue<cl_mem>(m, CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
    CHECK(memValue<size_t>(m, CL_MEM_OFFSET) == 0);
    CHECK(memValue<cl_bool>(m, CL_MEM_USES_SVM_POINTER) == CL_FALSE);
    CHECK(memValue<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 1);
    REQUIRE(clRetainMemObject(m) == CL_SUCCESS);
    CHECK(memValue<cl_uint>(m, CL_MEM_REFERENCE_COUNT) == 2);
    REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
    size_t v = 0;
    CHECK(clGetMemObjectInfo(m, 0x7777, sizeof v, &v, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetMemObjectInfo(m, CL_MEM_SIZE, 1, &v, nullptr) == CL_INVALID_VALUE);
    // A buffer is not an image.
    CHECK(clGetImageInfo(m, CL_IMAGE_WIDTH, sizeof v, &v, nullptr) == CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(m);
}

TEST_CASE("api: COPY_HOST_PTR copies once, USE_HOST_PTR keeps the application's memory", "[api][memory]") {
    cltest::Env env;
    auto data = iota(64, 100);
    cl_mem copied = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), data.data());
    CHECK(memValue<void*>(copied, CL_MEM_HOST_PTR) == nullptr);
    data[0] = -1;  // later changes to the source are not seen
    CHECK(env.read<cl_int>(copied, 64) == iota(64, 100));

    std::vector<cl_int> host = iota(64, 7);
    cl_mem used = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int), host.data());
    CHECK(memValue<void*>(used, CL_MEM_HOST_PTR) == host.data());
    CHECK(env.read<cl_int>(used, 64) == iota(64, 7));

    // A device-side write reaches the application's memory by the time a map returns it.
    cl_int pattern = 42;
    REQUIRE(clEnqueueFillBuffer(env.queue, used, &pattern, sizeof pattern, 16 * sizeof(cl_int), 8 * sizeof(cl_int), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    auto* mapped = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, used, CL_TRUE, CL_MAP_READ, 4 * sizeof(cl_int),
                                                           60 * sizeof(cl_int), 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(mapped == host.data() + 4);
    CHECK(host[16] == 42);
    CHECK(host[23] == 42);
    CHECK(host[24] == 31);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, used, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(copied);
    clReleaseMemObject(used);
}

TEST_CASE("api: ALLOC_HOST_PTR buffers map and unmap with their contents", "[api][memory]") {
    cltest::Env env;
    auto data = iota(32);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, 32 * sizeof(cl_int),
                          data.data());
    cl_int err = CL_SUCCESS;
    auto* p = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                      32 * sizeof(cl_int), 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(p != nullptr);
    CHECK(memValue<cl_uint>(m, CL_MEM_MAP_COUNT) == 1);
    CHECK(std::vector<cl_int>(p, p + 32) == data);
    for (int i = 0; i < 32; ++i) p[i] = 1000 - i;
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(memValue<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
    auto back = env.read<cl_int>(m, 32);
    CHECK(back[0] == 1000);
    CHECK(back[31] == 969);
    clReleaseMemObject(m);
}

TEST_CASE("api: read, write, copy and fill check ranges and arguments", "[api][memory]") {
    cltest::Env env;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, 256);
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, 128);
    std::vector<unsigned char> host(512);
    CHECK(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 200, 100, host.data(), 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueReadBuffer(env.queue, a, CL_TRUE, 0, 64, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 257, 1, host.data(), 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueWriteBuffer(env.queue, a, CL_TRUE, 0, 64, nullptr, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(env.queue, a, b, 0, 64, 128, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(env.queue, a, b, 200, 0, 64, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBuffer(env.queue, a, a, 0, 32, 64, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueCopyBuffer(env.queue, a, a, 0, 64, 64, 0, nullptr, nullptr) == CL_SUCCESS);  // adjacent, no overlap

    cl_uint pattern = 0;
    CHECK(clEnqueueFillBuffer(env.queue, a, &pattern, 3, 0, 12, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(env.queue, a, &pattern, 4, 2, 8, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(env.queue, a, &pattern, 4, 0, 6, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(env.queue, a, &pattern, 4, 252, 8, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(env.queue, a, nullptr, 4, 0, 8, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueFillBuffer(env.queue, a, &pattern, 256, 0, 256, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

TEST_CASE("api: write, copy, fill and read move the right bytes", "[api][memory]") {
    cltest::Env env;
    const size_t n = 1024;
    cl_mem a = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_mem b = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    auto data = iota(n);
    REQUIRE(clEnqueueWriteBuffer(env.queue, a, CL_FALSE, 0, n * sizeof(cl_int), data.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_int zero = 0;
    REQUIRE(clEnqueueFillBuffer(env.queue, b, &zero, sizeof zero, 0, n * sizeof(cl_int), 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueCopyBuffer(env.queue, a, b, 100 * sizeof(cl_int), 10 * sizeof(cl_int), 50 * sizeof(cl_int), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    cl_short pattern[2] = {-2, 3};
    REQUIRE(clEnqueueFillBuffer(env.queue, b, pattern, sizeof pattern, 500 * sizeof(cl_int), 4 * sizeof(cl_int), 0,
                                nullptr, nullptr) == CL_SUCCESS);
    // Partial write in the middle of data the device wrote.
    cl_int patch[3] = {-7, -8, -9};
    REQUIRE(clEnqueueWriteBuffer(env.queue, b, CL_FALSE, 20 * sizeof(cl_int), sizeof patch, patch, 0, nullptr, nullptr) ==
            CL_SUCCESS);

    std::vector<cl_int> expect(n, 0);
    for (int i = 0; i < 50; ++i) expect[10 + i] = 100 + i;
    cl_int packed;
    std::memcpy(&packed, pattern, sizeof packed);
    for (int i = 0; i < 4; ++i) expect[500 + i] = packed;
    expect[20] = -7, expect[21] = -8, expect[22] = -9;
    CHECK(env.read<cl_int>(b, n) == expect);

    std::vector<cl_int> part(5);
    REQUIRE(clEnqueueReadBuffer(env.queue, b, CL_TRUE, 19 * sizeof(cl_int), 5 * sizeof(cl_int), part.data(), 0, nullptr,
                                nullptr) == CL_SUCCESS);
    CHECK(part == std::vector<cl_int>{109, -7, -8, -9, 113});
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

TEST_CASE("api: host access flags restrict host commands", "[api][memory]") {
    cltest::Env env;
    cl_mem noAccess = env.buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64);
    cl_mem readOnly = env.buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY, 64);
    cl_mem writeOnly = env.buffer(CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY, 64);
    std::vector<unsigned char> host(64);
    cl_int err = CL_SUCCESS;
    CHECK(clEnqueueReadBuffer(env.queue, noAccess, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueWriteBuffer(env.queue, noAccess, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueWriteBuffer(env.queue, readOnly, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueReadBuffer(env.queue, writeOnly, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(env.queue, readOnly, CL_TRUE, CL_MAP_WRITE, 0, 64, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);
    CHECK(clEnqueueMapBuffer(env.queue, writeOnly, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_OPERATION);
    // What is allowed still works; device-side commands ignore host access flags.
    CHECK(clEnqueueReadBuffer(env.queue, readOnly, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueWriteBuffer(env.queue, writeOnly, CL_TRUE, 0, 64, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueCopyBuffer(env.queue, writeOnly, noAccess, 0, 0, 64, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(noAccess);
    clReleaseMemObject(readOnly);
    clReleaseMemObject(writeOnly);
}

TEST_CASE("api: rect reads, writes and copies address rows and slices", "[api][memory]") {
    cltest::Env env;
    // A 16 x 8 byte "image" in the buffer (row pitch 16); a 5 x 3 block at (2, 1) is written from a
    // host array with row pitch 8, copied to (9, 4), and read back.
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 16 * 8);
    std::vector<unsigned char> zeros(16 * 8, 0);
    REQUIRE(clEnqueueWriteBuffer(env.queue, m, CL_TRUE, 0, zeros.size(), zeros.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> block(8 * 3);
    for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<unsigned char>(i + 1);
    size_t bufferOrigin[3] = {2, 1, 0}, hostOrigin[3] = {0, 0, 0}, region[3] = {5, 3, 1};
    REQUIRE(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, bufferOrigin, hostOrigin, region, 16, 0, 8, 0, block.data(), 0,
                                     nullptr, nullptr) == CL_SUCCESS);
    size_t dstOrigin[3] = {9, 4, 0};
    REQUIRE(clEnqueueCopyBufferRect(env.queue, m, m, bufferOrigin, dstOrigin, region, 16, 0, 16, 0, 0, nullptr, nullptr) ==
            CL_SUCCESS);

    std::vector<unsigned char> expect(16 * 8, 0);
    for (size_t y = 0; y < 3; ++y)
        for (size_t x = 0; x < 5; ++x) {
            expect[(1 + y) * 16 + 2 + x] = block[y * 8 + x];
            expect[(4 + y) * 16 + 9 + x] = block[y * 8 + x];
        }
    CHECK(env.read<unsigned char>(m, 16 * 8) == expect);

    // Read the copied block into the middle of a host array with its own pitch.
    std::vector<unsigned char> out(10 * 4, 0xee);
    size_t outOrigin[3] = {3, 1, 0};
    REQUIRE(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, dstOrigin, outOrigin, region, 16, 0, 10, 0, out.data(), 0,
                                    nullptr, nullptr) == CL_SUCCESS);
    for (size_t y = 0; y < 3; ++y)
        for (size_t x = 0; x < 5; ++x) CHECK(out[(1 + y) * 10 + 3 + x] == block[y * 8 + x]);
    CHECK(out[0] == 0xee);
    CHECK(out[10 + 2] == 0xee);
    CHECK(out[10 + 8] == 0xee);
    clReleaseMemObject(m);
}

TEST_CASE("api: rect commands reject bad geometry", "[api][memory]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 16 * 8);
    std::vector<unsigned char> host(256);
    size_t zero[3] = {0, 0, 0};
    size_t emptyRegion[3] = {4, 0, 1};
    CHECK(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, zero, zero, emptyRegion, 16, 0, 16, 0, host.data(), 0, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    size_t region[3] = {8, 4, 1};
    size_t lastRows[3] = {10, 5, 0};  // rows 5..8 of an 8-row buffer: the last one is outside
    CHECK(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, lastRows, zero, region, 16, 0, 16, 0, host.data(), 0, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    // Row pitch smaller than the region's width.
    CHECK(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, zero, zero, region, 4, 0, 16, 0, host.data(), 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, zero, zero, region, 16, 0, 4, 0, host.data(), 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    // Slice pitch that is not a multiple of the row pitch.
    CHECK(clEnqueueWriteBufferRect(env.queue, m, CL_TRUE, zero, zero, region, 16, 65, 16, 0, host.data(), 0, nullptr,
                                   nullptr) == CL_INVALID_VALUE);
    // Overlapping copy within one buffer.
    size_t shifted[3] = {1, 1, 0};
    CHECK(clEnqueueCopyBufferRect(env.queue, m, m, zero, shifted, region, 16, 0, 16, 0, 0, nullptr, nullptr) ==
          CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueReadBufferRect(env.queue, m, CL_TRUE, nullptr, zero, region, 16, 0, 16, 0, host.data(), 0, nullptr,
                                  nullptr) == CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(m);
}

TEST_CASE("api: map and unmap argument checks and map counts", "[api][memory]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 256);
    cl_int err = CL_SUCCESS;
    CHECK(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 200, 100, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, nullptr,
                             nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clEnqueueMapBuffer(env.queue, m, CL_TRUE, cl_map_flags(1) << 30, 0, 64, 0, nullptr, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    // Two live maps of one buffer are counted; unmapping a pointer twice fails the second time.
    cl_event mapped = nullptr;
    void* p1 = clEnqueueMapBuffer(env.queue, m, CL_FALSE, CL_MAP_READ, 0, 64, 0, nullptr, &mapped, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clWaitForEvents(1, &mapped) == CL_SUCCESS);
    cl_command_type type = 0;
    REQUIRE(clGetEventInfo(mapped, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_COMMAND_MAP_BUFFER);
    clReleaseEvent(mapped);
    void* p2 = clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_READ, 64, 64, 0, nullptr, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(memValue<cl_uint>(m, CL_MEM_MAP_COUNT) == 2);
    int notMapped = 0;
    CHECK(clEnqueueUnmapMemObject(env.queue, m, &notMapped, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, p1, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, p2, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueUnmapMemObject(env.queue, m, p2, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(memValue<cl_uint>(m, CL_MEM_MAP_COUNT) == 0);
    clReleaseMemObject(m);
}

TEST_CASE("api: WRITE_INVALIDATE_REGION maps publish what the host wrote", "[api][memory]") {
    cltest::Env env;
    const size_t n = 64;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl_int seven = 7;
    REQUIRE(clEnqueueFillBuffer(env.queue, m, &seven, sizeof seven, 0, n * sizeof(cl_int), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    // Invalidate a part: the rest of the buffer keeps the device's contents.
    auto* p = static_cast<cl_int*>(clEnqueueMapBuffer(env.queue, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                      8 * sizeof(cl_int), 4 * sizeof(cl_int), 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    for (int i = 0; i < 4; ++i) p[i] = -i - 1;
    REQUIRE(clEnqueueUnmapMemObject(env.queue, m, p, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<cl_int> expect(n, 7);
    for (int i = 0; i < 4; ++i) expect[8 + i] = -i - 1;
    CHECK(env.read<cl_int>(m, n) == expect);
    clReleaseMemObject(m);
}

TEST_CASE("api: sub-buffer creation errors", "[api][memory]") {
    cltest::Env env;
    size_t align = baseAlignBytes(env.device);
    REQUIRE(align >= 2);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE, 4 * align);
    cl_int err = CL_SUCCESS;
    CHECK(subBuffer(parent, CL_MEM_READ_WRITE, align / 2, 16, &err) == nullptr);
    CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
    CHECK(subBuffer(parent, CL_MEM_READ_WRITE, 3 * align, 2 * align, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(subBuffer(parent, CL_MEM_READ_WRITE, 0, 0, &err) == nullptr);
    CHECK(err == CL_INVALID_BUFFER_SIZE);
    cl_buffer_region region{0, 16};
    CHECK(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, 0x7777, &region, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(subBuffer(parent, CL_MEM_USE_HOST_PTR, 0, 16, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);

    // A sub-buffer of a sub-buffer is not allowed.
    cl_mem sub = subBuffer(parent, 0, align, align, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(subBuffer(sub, 0, 0, 16, &err) == nullptr);
    CHECK(err == CL_INVALID_MEM_OBJECT);
    clReleaseMemObject(sub);

    // Access may narrow, never widen, what the parent allows.
    cl_mem writeOnly = env.buffer(CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY, 2 * align);
    CHECK(subBuffer(writeOnly, CL_MEM_READ_ONLY, 0, 16, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(subBuffer(writeOnly, CL_MEM_READ_WRITE, 0, 16, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(subBuffer(writeOnly, CL_MEM_HOST_WRITE_ONLY, 0, 16, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    cl_mem inherits = subBuffer(writeOnly, 0, align, 16, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(memValue<cl_mem_flags>(inherits, CL_MEM_FLAGS) == (CL_MEM_WRITE_ONLY | CL_MEM_HOST_READ_ONLY));
    clReleaseMemObject(inherits);
    clReleaseMemObject(writeOnly);
    clReleaseMemObject(parent);
}

TEST_CASE("api: sub-buffers share the parent's contents and keep it alive", "[api][memory]") {
    cltest::Env env;
    size_t align = baseAlignBytes(env.device);
    const size_t ints = 4 * align / sizeof(cl_int);
    std::vector<cl_int> host = iota(ints);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, ints * sizeof(cl_int), host.data());
    cl_int err = CL_SUCCESS;
    cl_mem sub = subBuffer(parent, 0, align, align, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(memValue<cl_mem>(sub, CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
    CHECK(memValue<size_t>(sub, CL_MEM_OFFSET) == align);
    CHECK(memValue<size_t>(sub, CL_MEM_SIZE) == align);
    CHECK(memValue<void*>(sub, CL_MEM_HOST_PTR) == reinterpret_cast<unsigned char*>(host.data()) + align);
    CHECK((memValue<cl_mem_flags>(sub, CL_MEM_FLAGS) & CL_MEM_USE_HOST_PTR) != 0);

    // The application's release of the parent does not end it while the sub-buffer lives.
    DestroyLog log;
    Tagged parentGone{&log, 1};
    REQUIRE(clSetMemObjectDestructorCallback(parent, recordMemDestroyed, &parentGone) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(parent) == CL_SUCCESS);
    CHECK(log.calls().empty());

    const size_t subInts = align / sizeof(cl_int);
    cl_int minusOne = -1;
    REQUIRE(clEnqueueFillBuffer(env.queue, sub, &minusOne, sizeof minusOne, 0, align, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_int fromSub = 0;
    REQUIRE(clEnqueueReadBuffer(env.queue, sub, CL_TRUE, align - sizeof(cl_int), sizeof fromSub, &fromSub, 0, nullptr,
                                nullptr) == CL_SUCCESS);
    CHECK(fromSub == -1);
    // A map of the sub-buffer returns the application's memory at the sub-buffer's place.
    auto* p = static_cast<cl_int*>(
        clEnqueueMapBuffer(env.queue, sub, CL_TRUE, CL_MAP_READ, 0, align, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(p == host.data() + subInts);
    CHECK(host[subInts - 1] == static_cast<cl_int>(subInts - 1));  // before the sub-buffer: untouched
    CHECK(host[subInts] == -1);
    CHECK(host[2 * subInts - 1] == -1);
    CHECK(host[2 * subInts] == static_cast<cl_int>(2 * subInts));  // after it: untouched
    REQUIRE(clEnqueueUnmapMemObject(env.queue, sub, p, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);

    REQUIRE(clReleaseMemObject(sub) == CL_SUCCESS);
    CHECK(log.await(1) == std::vector<int>{1});
}

TEST_CASE("api: copies between overlapping sub-buffers of one parent are refused", "[api][memory]") {
    cltest::Env env;
    size_t align = baseAlignBytes(env.device);
    cl_mem parent = env.buffer(CL_MEM_READ_WRITE, 4 * align);
    cl_int err = CL_SUCCESS;
    cl_mem first = subBuffer(parent, 0, 0, 2 * align, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem second = subBuffer(parent, 0, align, 2 * align, &err);
    REQUIRE(err == CL_SUCCESS);
    // first[align, 2*align) is second[0, align): the same bytes of the parent.
    CHECK(clEnqueueCopyBuffer(env.queue, first, second, align, 0, align, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueCopyBuffer(env.queue, first, second, 0, align, align, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(first);
    clReleaseMemObject(second);
    clReleaseMemObject(parent);
}

TEST_CASE("api: memory destructor callbacks run in reverse order of registration", "[api][memory]") {
    cltest::Env env;
    cl_mem m = env.buffer(CL_MEM_READ_WRITE, 64);
    DestroyLog log;
    Tagged a{&log, 1}, b{&log, 2}, c{&log, 3};
    REQUIRE(clSetMemObjectDestructorCallback(m, recordMemDestroyed, &a) == CL_SUCCESS);
    REQUIRE(clSetMemObjectDestructorCallback(m, recordMemDestroyed, &b) == CL_SUCCESS);
    REQUIRE(clSetMemObjectDestructorCallback(m, recordMemDestroyed, &c) == CL_SUCCESS);
    CHECK(clSetMemObjectDestructorCallback(m, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clRetainMemObject(m) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
    CHECK(log.calls().empty());
    REQUIRE(clReleaseMemObject(m) == CL_SUCCESS);
    CHECK(log.await(3) == std::vector<int>{3, 2, 1});
}

TEST_CASE("api: an enqueued command keeps its buffer alive after the application releases it", "[api][memory]") {
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_mem src = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_mem dst = env.buffer(CL_MEM_READ_WRITE, 64);
    cl_int nine = 9;
    REQUIRE(clEnqueueFillBuffer(env.queue, src, &nine, sizeof nine, 0, 64, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clEnqueueCopyBuffer(env.queue, src, dst, 0, 0, 64, 1, &gate, nullptr) == CL_SUCCESS);
    DestroyLog log;
    Tagged gone{&log, 1};
    REQUIRE(clSetMemObjectDestructorCallback(src, recordMemDestroyed, &gone) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(src) == CL_SUCCESS);
    CHECK(log.calls().empty());  // the gated copy still needs it
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    auto back = env.read<cl_int>(dst, 16);
    CHECK(back == std::vector<cl_int>(16, 9));
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(log.await(1) == std::vector<int>{1});  // and lets go of it once done
    clReleaseEvent(gate);
    clReleaseMemObject(dst);
}

TEST_CASE("api: a kernel argument does not keep its buffer alive, a launch does until it completes", "[api][memory][kernel]") {
    // clSetKernelArg does not retain memory objects (only enqueued commands do): released after
    // clSetKernelArg, a buffer goes at once, and a later launch with it is refused, not run.
    cltest::Env env;
    cl_program p = env.build("__kernel void put(__global int* out, int v) { out[get_global_id(0)] = v; }");
    cl_kernel k = env.kernel(p, "put");
    DestroyLog log;
    Tagged first{&log, 1}, second{&log, 2};
    cl_mem released = env.buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
    REQUIRE(clSetMemObjectDestructorCallback(released, recordMemDestroyed, &first) == CL_SUCCESS);
    cltest::setArg(k, 0, released);
    cltest::setArg(k, 1, cl_int{7});
    REQUIRE(clReleaseMemObject(released) == CL_SUCCESS);
    CHECK(log.await(1) == std::vector<int>{1});
    size_t global = 16;
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);

    // A launch holds its buffer while it waits and runs, even once the application let it go.
    cl_int err = CL_SUCCESS;
    cl_event gate = clCreateUserEvent(env.context, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem held = env.buffer(CL_MEM_READ_WRITE, 16 * sizeof(cl_int));
    REQUIRE(clSetMemObjectDestructorCallback(held, recordMemDestroyed, &second) == CL_SUCCESS);
    cltest::setArg(k, 0, held);
    REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 1, &gate, nullptr) == CL_SUCCESS);
    REQUIRE(clReleaseMemObject(held) == CL_SUCCESS);
    CHECK(log.calls() == std::vector<int>{1});  // the gated launch still needs it
    REQUIRE(clSetUserEventStatus(gate, CL_COMPLETE) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    CHECK(log.await(2) == std::vector<int>{1, 2});
    clReleaseEvent(gate);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

TEST_CASE("api: migrating buffers keeps their contents", "[api][memory]") {
    cltest::Env env;
    auto data = iota(64, 3);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 64 * sizeof(cl_int), data.data());
    REQUIRE(clEnqueueMigrateMemObjects(env.queue, 1, &m, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clEnqueueMigrateMemObjects(env.queue, 1, &m, 0, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(env.read<cl_int>(m, 64) == data);
    CHECK(clEnqueueMigrateMemObjects(env.queue, 0, &m, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueMigrateMemObjects(env.queue, 1, &m, cl_mem_migration_flags(1) << 20, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(m);
}

TEST_CASE("api: rect copies within one buffer are refused only when the rects share bytes", "[api][memory]") {
    cltest::Env env;
    // A 16 x 8 byte grid: the left and right halves of the same rows interleave in memory without
    // sharing a byte, so copying one onto the other is valid.
    std::vector<unsigned char> grid(16 * 8);
    for (size_t i = 0; i < grid.size(); ++i) grid[i] = static_cast<unsigned char>(i);
    cl_mem m = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, grid.size(), grid.data());
    size_t left[3] = {0, 0, 0}, right[3] = {8, 0, 0}, halfRows[3] = {8, 8, 1};
    REQUIRE(clEnqueueCopyBufferRect(env.queue, m, m, left, right, halfRows, 16, 0, 16, 0, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<unsigned char> expect(grid);
    for (size_t y = 0; y < 8; ++y)
        for (size_t x = 0; x < 8; ++x) expect[y * 16 + 8 + x] = grid[y * 16 + x];
    CHECK(env.read<unsigned char>(m, grid.size()) == expect);

    // Shifted by one column, or by one row, they do share bytes.
    size_t oneRight[3] = {1, 0, 0}, oneDown[3] = {0, 1, 0}, wide[3] = {9, 4, 1};
    CHECK(clEnqueueCopyBufferRect(env.queue, m, m, left, oneRight, wide, 16, 0, 16, 0, 0, nullptr, nullptr) ==
          CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueCopyBufferRect(env.queue, m, m, left, oneDown, wide, 16, 0, 16, 0, 0, nullptr, nullptr) ==
          CL_MEM_COPY_OVERLAP);
    // Rows of two slices: slice 1 of the source meets slice 0 of a destination one slice further.
    size_t twoSlices[3] = {4, 2, 2}, nextSlice[3] = {0, 0, 1}, besideInSlice[3] = {4, 0, 0};
    CHECK(clEnqueueCopyBufferRect(env.queue, m, m, left, nextSlice, twoSlices, 16, 32, 16, 32, 0, nullptr, nullptr) ==
          CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueCopyBufferRect(env.queue, m, m, left, besideInSlice, twoSlices, 16, 32, 16, 32, 0, nullptr, nullptr) ==
          CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseMemObject(m);
}

TEST_CASE("api: a write from host memory an earlier non-blocking read fills sends what the read brought", "[api][memory]") {
    // In an in-order queue the write starts after the read is complete, so it sends the read's
    // data. Hetero copies a whole write through the host copy (or a large blocking one through
    // pinned pieces) on the host when it submits it: that copy must wait for the read to land, not
    // only be ordered after it on the backend queue (it sent stale bytes before, in discrete memory).
    cltest::Env env;
    for (size_t bytes : {size_t{64} << 10, size_t{16} << 20})
        for (cl_bool blocking : {CL_FALSE, CL_TRUE}) {
            INFO(bytes << " bytes, " << (blocking ? "blocking" : "non-blocking") << " write");
            cl_mem from = env.buffer(CL_MEM_READ_WRITE, bytes);
            cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
            for (cl_uchar round = 1; round <= 4; ++round) {
                std::vector<cl_uchar> host(bytes, 0), got(bytes, 0);
                const cl_uchar value = static_cast<cl_uchar>(round * 37);
                REQUIRE(clEnqueueFillBuffer(env.queue, from, &value, 1, 0, bytes, 0, nullptr, nullptr) == CL_SUCCESS);
                REQUIRE(clEnqueueReadBuffer(env.queue, from, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
                REQUIRE(clEnqueueWriteBuffer(env.queue, to, blocking, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
                REQUIRE(clEnqueueReadBuffer(env.queue, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
                INFO("round " << int(round));
                CHECK(std::count(got.begin(), got.end(), value) == static_cast<std::ptrdiff_t>(bytes));
            }
            clReleaseMemObject(from);
            clReleaseMemObject(to);
        }
}

TEST_CASE("api: a write from host memory waits for a read into it made through another queue", "[api][memory]") {
    // The read is on one queue, the write on another after a marker of the first: the write
    // depends on the read only through the marker, and still sends the read's data.
    cltest::Env env;
    cl_int err = CL_SUCCESS;
    cl_command_queue other = clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    const size_t bytes = size_t{16} << 20;
    cl_mem from = env.buffer(CL_MEM_READ_WRITE, bytes);
    cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
    for (cl_uchar round = 1; round <= 4; ++round) {
        INFO("round " << int(round));
        std::vector<cl_uchar> host(bytes, 0), got(bytes, 0);
        const cl_uchar value = static_cast<cl_uchar>(round * 53);
        cl_event marker = nullptr;
        REQUIRE(clEnqueueFillBuffer(env.queue, from, &value, 1, 0, bytes, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(env.queue, from, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueMarkerWithWaitList(env.queue, 0, nullptr, &marker) == CL_SUCCESS);
        REQUIRE(clFlush(env.queue) == CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(other, to, CL_FALSE, 0, bytes, host.data(), 1, &marker, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(other, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(std::count(got.begin(), got.end(), value) == static_cast<std::ptrdiff_t>(bytes));
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        clReleaseEvent(marker);
    }
    clReleaseMemObject(from);
    clReleaseMemObject(to);
    clReleaseCommandQueue(other);
}

TEST_CASE("api: a write from host memory an earlier non-blocking rectangle read fills sends what it brought", "[api][memory]") {
    cltest::Env env;
    const size_t side = 2048, bytes = side * side;  // 4 MiB, one byte per element
    cl_mem from = env.buffer(CL_MEM_READ_WRITE, bytes);
    cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
    const size_t origin[3] = {0, 0, 0}, region[3] = {side, side, 1};
    for (cl_uchar round = 1; round <= 4; ++round) {
        INFO("round " << int(round));
        std::vector<cl_uchar> host(bytes, 0), got(bytes, 0);
        const cl_uchar value = static_cast<cl_uchar>(round * 41);
        REQUIRE(clEnqueueFillBuffer(env.queue, from, &value, 1, 0, bytes, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBufferRect(env.queue, from, CL_FALSE, origin, origin, region, side, 0, side, 0, host.data(), 0,
                                        nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(env.queue, to, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(env.queue, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(std::count(got.begin(), got.end(), value) == static_cast<std::ptrdiff_t>(bytes));
    }
    clReleaseMemObject(from);
    clReleaseMemObject(to);
}

TEST_CASE("api: a write from host memory no read fills leaves the kernel ahead of it running", "[api][memory]") {
    // Hetero copies a whole write from host memory when it submits it, after the reads in flight
    // into that memory only: the application's thread is not held until the commands ahead of the
    // write (here a kernel of a second or more) are done, and can prepare its next input meanwhile.
    // So is a large one, which goes through pinned pieces only where nothing runs ahead of it.
    cltest::Env env;
    cl_program p = env.build(cltest::kSpinSource);
    cl_kernel spin = env.kernel(p, "spin");
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, sizeof(cl_uint));
    const size_t one = 1;
    cltest::setArg(spin, 0, out);
    // A kernel of at least a second on this device: the write's enqueue takes milliseconds.
    cl_uint n = 1u << 22;
    for (;;) {
        cltest::setArg(spin, 1, n);
        const auto start = std::chrono::steady_clock::now();
        REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clFinish(env.queue) == CL_SUCCESS);
        if (std::chrono::steady_clock::now() - start >= std::chrono::seconds(1) || n >= (1u << 31)) break;
        n *= 2;
    }
    cltest::setArg(spin, 1, n);
    for (const size_t bytes : {size_t{64} << 10, size_t{32} << 20}) {
        INFO(bytes << " bytes");
        cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
        std::vector<cl_uchar> host(bytes, 7), got(bytes, 0);
        cl_event running = nullptr;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, spin, 1, nullptr, &one, &one, 0, nullptr, &running) == CL_SUCCESS);
        REQUIRE(clFlush(env.queue) == CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(env.queue, to, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        cl_int status = CL_COMPLETE;
        REQUIRE(clGetEventInfo(running, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        CHECK(status > CL_COMPLETE);
        REQUIRE(clEnqueueReadBuffer(env.queue, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(got == host);
        clReleaseEvent(running);
        clReleaseMemObject(to);
    }
    clReleaseMemObject(out);
    clReleaseKernel(spin), clReleaseProgram(p);
}
