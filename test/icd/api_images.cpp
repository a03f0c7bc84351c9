// Images and samplers, passed through to the device that executes: formats, creation errors, info,
// read/write/copy/fill, image<->buffer copies, maps, and a kernel sampling an image.
#include "cl_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

const cl_image_format kRgba8{CL_RGBA, CL_UNORM_INT8};
const cl_image_format kRFloat{CL_R, CL_FLOAT};

bool imagesSupported(cl_device_id d) {
    cl_bool images = CL_FALSE;
    REQUIRE(clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr) == CL_SUCCESS);
    return images == CL_TRUE;
}

cl_image_desc desc2d(size_t w, size_t h, size_t rowPitch = 0) {
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    d.image_row_pitch = rowPitch;
    return d;
}

cl_mem image2d(cltest::Env& env, const cl_image_format& format, size_t w, size_t h, cl_mem_flags flags = CL_MEM_READ_WRITE,
               void* host = nullptr, size_t rowPitch = 0) {
    cl_image_desc d = desc2d(w, h, rowPitch);
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(env.context, flags, &format, &d, host, &err);
    REQUIRE(err == CL_SUCCESS);
    return m;
}

cl_int createImageError(cltest::Env& env, cl_mem_flags flags, const cl_image_format* format, const cl_image_desc* desc,
                        void* host) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateImage(env.context, flags, format, desc, host, &err);
    if (m) clReleaseMemObject(m);
    return err;
}

template <class T>
T imageValue(cl_mem m, cl_image_info param) {
    T v{};
    REQUIRE(clGetImageInfo(m, param, sizeof v, &v, nullptr) == CL_SUCCESS);
    return v;
}

const char* kSampleSource = R"CLC(
__kernel void sample_row(__read_only image2d_t img, sampler_t s, __global float* out, int y) {
    int x = (int)get_global_id(0);
    out[x] = read_imagef(img, s, (int2)(x, y)).x;
}
)CLC";

}  // namespace

TEST_CASE("api: supported image formats include the 3.0 minimum", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_uint n = 0;
    REQUIRE(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n) == CL_SUCCESS);
    REQUIRE(n > 0);
    std::vector<cl_image_format> formats(n);
    REQUIRE(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n, formats.data(), nullptr) ==
            CL_SUCCESS);
    auto has = [&](cl_image_format f) {
        return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& g) {
            return g.image_channel_order == f.image_channel_order && g.image_channel_data_type == f.image_channel_data_type;
        });
    };
    CHECK(has(kRgba8));
    CHECK(has(cl_image_format{CL_RGBA, CL_FLOAT}));
    CHECK(has(kRFloat));
    cl_image_format one{};
    CHECK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, &one, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr, &n) ==
          CL_INVALID_VALUE);
}

TEST_CASE("api: image creation errors", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_image_desc good = desc2d(8, 8);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, &good, nullptr) == CL_SUCCESS);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, nullptr, &good, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format bogus{0x7777, CL_UNORM_INT8};
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &bogus, &good, nullptr) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, nullptr, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_desc noWidth = desc2d(0, 8);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, &noWidth, nullptr) == CL_INVALID_IMAGE_SIZE);
    size_t maxWidth = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof maxWidth, &maxWidth, nullptr) == CL_SUCCESS);
    cl_image_desc tooWide = desc2d(maxWidth + 1, 1);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, &tooWide, nullptr) == CL_INVALID_IMAGE_SIZE);
    cl_image_desc badType = good;
    badType.image_type = CL_MEM_OBJECT_BUFFER;
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, &badType, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
    // A row pitch is only meaningful with a host pointer.
    cl_image_desc pitched = desc2d(8, 8, 64);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRgba8, &pitched, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
    std::vector<unsigned char> host(64 * 8);
    cl_image_desc smallPitch = desc2d(8, 8, 16);  // less than 8 pixels of 4 bytes
    CHECK(createImageError(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kRgba8, &smallPitch, host.data()) ==
          CL_INVALID_IMAGE_DESCRIPTOR);
    CHECK(createImageError(env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &kRgba8, &good, nullptr) == CL_INVALID_HOST_PTR);
}

TEST_CASE("api: image info queries", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    std::vector<unsigned char> host(48 * 5, 0);
    cl_mem m = image2d(env, kRgba8, 10, 5, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, host.data(), 48);
    cl_image_format f = imageValue<cl_image_format>(m, CL_IMAGE_FORMAT);
    CHECK(f.image_channel_order == CL_RGBA);
    CHECK(f.image_channel_data_type == CL_UNORM_INT8);
    CHECK(imageValue<size_t>(m, CL_IMAGE_ELEMENT_SIZE) == 4);
    CHECK(imageValue<size_t>(m, CL_IMAGE_ROW_PITCH) == 48);
    CHECK(imageValue<size_t>(m, CL_IMAGE_SLICE_PITCH) == 0);
    CHECK(imageValue<size_t>(m, CL_IMAGE_WIDTH) == 10);
    CHECK(imageValue<size_t>(m, CL_IMAGE_HEIGHT) == 5);
    CHECK(imageValue<size_t>(m, CL_IMAGE_DEPTH) == 0);
    CHECK(imageValue<size_t>(m, CL_IMAGE_ARRAY_SIZE) == 0);
    CHECK(imageValue<cl_uint>(m, CL_IMAGE_NUM_MIP_LEVELS) == 0);
    cl_mem_object_type type = 0;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_MEM_OBJECT_IMAGE2D);
    void* hostPtr = nullptr;
    REQUIRE(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hostPtr, &hostPtr, nullptr) == CL_SUCCESS);
    CHECK(hostPtr == host.data());
    size_t v = 0;
    CHECK(clGetImageInfo(m, 0x7777, sizeof v, &v, nullptr) == CL_INVALID_VALUE);
    clReleaseMemObject(m);
}

TEST_CASE("api: image writes, reads, copies and fills move the right pixels", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    const size_t w = 8, h = 6;
    std::vector<float> pixels(w * h);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i) * 0.5f;
    cl_mem a = image2d(env, kRFloat, w, h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, pixels.data());
    cl_mem b = image2d(env, kRFloat, w, h);

    size_t origin[3] = {0, 0, 0}, whole[3] = {w, h, 1};
    float zero[4] = {0, 0, 0, 0};
    REQUIRE(clEnqueueFillImage(env.queue, b, zero, origin, whole, 0, nullptr, nullptr) == CL_SUCCESS);
    // Copy a 3 x 2 block of a from (1, 2) to (4, 3) of b.
    size_t src[3] = {1, 2, 0}, dst[3] = {4, 3, 0}, block[3] = {3, 2, 1};
    REQUIRE(clEnqueueCopyImage(env.queue, a, b, src, dst, block, 0, nullptr, nullptr) == CL_SUCCESS);
    // Write one pixel of b from the host.
    float seven = 7.0f;
    size_t at[3] = {0, 5, 0}, one[3] = {1, 1, 1};
    REQUIRE(clEnqueueWriteImage(env.queue, b, CL_FALSE, at, one, 0, 0, &seven, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<float> back(w * h, -1.0f);
    REQUIRE(clEnqueueReadImage(env.queue, b, CL_TRUE, origin, whole, 0, 0, back.data(), 0, nullptr, nullptr) == CL_SUCCESS);

    std::vector<float> expect(w * h, 0.0f);
    for (size_t y = 0; y < 2; ++y)
        for (size_t x = 0; x < 3; ++x) expect[(3 + y) * w + 4 + x] = pixels[(2 + y) * w + 1 + x];
    expect[5 * w + 0] = 7.0f;
    CHECK(back == expect);

    // A read of a sub-region into a host array with its own row pitch.
    std::vector<float> part(5 * 2, -1.0f);
    REQUIRE(clEnqueueReadImage(env.queue, a, CL_TRUE, src, block, 5 * sizeof(float), 0, part.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    for (size_t y = 0; y < 2; ++y)
        for (size_t x = 0; x < 3; ++x) CHECK(part[y * 5 + x] == pixels[(2 + y) * w + 1 + x]);
    CHECK(part[3] == -1.0f);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
}

TEST_CASE("api: copies between images and buffers", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    const size_t w = 4, h = 4;
    std::vector<float> values(w * h);
    for (size_t i = 0; i < values.size(); ++i) values[i] = 100.0f + static_cast<float>(i);
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(float), values.data());
    cl_mem image = image2d(env, kRFloat, w, h);
    size_t origin[3] = {0, 0, 0}, whole[3] = {w, h, 1};
    REQUIRE(clEnqueueCopyBufferToImage(env.queue, buffer, image, 0, origin, whole, 0, nullptr, nullptr) == CL_SUCCESS);
    cl_mem out = env.buffer(CL_MEM_READ_WRITE, 2 * w * sizeof(float));
    size_t row1[3] = {0, 1, 0}, twoRows[3] = {w, 2, 1};
    REQUIRE(clEnqueueCopyImageToBuffer(env.queue, image, out, row1, twoRows, 0, 0, nullptr, nullptr) == CL_SUCCESS);
    auto back = env.read<float>(out, 2 * w);
    CHECK(back == std::vector<float>(values.begin() + w, values.begin() + 3 * w));
    // The buffer must hold the whole region.
    cl_mem small = env.buffer(CL_MEM_READ_WRITE, sizeof(float));
    CHECK(clEnqueueCopyImageToBuffer(env.queue, image, small, origin, whole, 0, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(clEnqueueCopyBufferToImage(env.queue, small, image, 0, origin, whole, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (cl_mem m : {buffer, image, out, small}) clReleaseMemObject(m);
}

TEST_CASE("api: image commands reject bad regions and objects of the wrong type", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_mem image = image2d(env, kRFloat, 4, 4);
    cl_mem rgba = image2d(env, kRgba8, 4, 4);
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 256);
    std::vector<float> host(64);
    size_t origin[3] = {0, 0, 0};
    size_t tooBig[3] = {5, 1, 1}, deep[3] = {4, 4, 2}, empty[3] = {0, 1, 1}, whole[3] = {4, 4, 1};
    size_t slice1[3] = {0, 0, 1};
    CHECK(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, tooBig, 0, 0, host.data(), 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, deep, 0, 0, host.data(), 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, empty, 0, 0, host.data(), 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueReadImage(env.queue, image, CL_TRUE, slice1, whole, 0, 0, host.data(), 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, whole, 0, 0, nullptr, 0, nullptr, nullptr) ==
          CL_INVALID_VALUE);
    CHECK(clEnqueueReadImage(env.queue, buffer, CL_TRUE, origin, whole, 0, 0, host.data(), 0, nullptr, nullptr) ==
          CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueReadBuffer(env.queue, image, CL_TRUE, 0, 16, host.data(), 0, nullptr, nullptr) == CL_INVALID_MEM_OBJECT);
    CHECK(clEnqueueCopyImage(env.queue, image, rgba, origin, origin, whole, 0, nullptr, nullptr) == CL_IMAGE_FORMAT_MISMATCH);
    // Within one image: overlapping boxes are refused, disjoint ones copy.
    size_t quarter[3] = {2, 2, 1}, shifted[3] = {1, 1, 0}, corner[3] = {2, 2, 0}, beside[3] = {2, 0, 0};
    CHECK(clEnqueueCopyImage(env.queue, image, image, origin, shifted, quarter, 0, nullptr, nullptr) == CL_MEM_COPY_OVERLAP);
    CHECK(clEnqueueCopyImage(env.queue, image, image, origin, corner, quarter, 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(clEnqueueCopyImage(env.queue, image, image, origin, beside, quarter, 0, nullptr, nullptr) == CL_SUCCESS);
    size_t rowPitch = 0;
    cl_int err = CL_SUCCESS;
    CHECK(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ, origin, whole, nullptr, nullptr, 0, nullptr, nullptr,
                            &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);  // image_row_pitch is required
    CHECK(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ, origin, tooBig, &rowPitch, nullptr, 0, nullptr, nullptr,
                            &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (cl_mem m : {image, rgba, buffer}) clReleaseMemObject(m);
}

TEST_CASE("api: image maps expose the pixels with their pitch", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    const size_t w = 4, h = 3;
    std::vector<float> pixels(w * h);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i);
    cl_mem image = image2d(env, kRFloat, w, h, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, pixels.data());
    size_t origin[3] = {1, 1, 0}, region[3] = {2, 2, 1}, rowPitch = 0;
    cl_int err = CL_SUCCESS;
    auto* p = static_cast<float*>(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin, region,
                                                    &rowPitch, nullptr, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(rowPitch >= w * sizeof(float));
    // USE_HOST_PTR: the map is the application's memory at the region's origin.
    CHECK(p == pixels.data() + w + 1);
    auto at = [&](size_t x, size_t y) -> float& {
        return *reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(p) + y * rowPitch + x * sizeof(float));
    };
    CHECK(at(0, 0) == 5.0f);
    CHECK(at(1, 1) == 10.0f);
    at(1, 0) = -1.0f;
    REQUIRE(clEnqueueUnmapMemObject(env.queue, image, p, 0, nullptr, nullptr) == CL_SUCCESS);
    std::vector<float> back(w * h);
    size_t zero[3] = {0, 0, 0}, whole[3] = {w, h, 1};
    REQUIRE(clEnqueueReadImage(env.queue, image, CL_TRUE, zero, whole, 0, 0, back.data(), 0, nullptr, nullptr) == CL_SUCCESS);
    CHECK(back[w + 2] == -1.0f);
    CHECK(back[w + 1] == 5.0f);
    clReleaseMemObject(image);
}

TEST_CASE("api: sampler creation and info", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_int err = CL_SUCCESS;
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
                                     CL_ADDRESS_CLAMP_TO_EDGE, CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    cl_sampler s = clCreateSamplerWithProperties(env.context, props, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_bool normalized = CL_TRUE;
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized, &normalized, nullptr) == CL_SUCCESS);
    CHECK(normalized == CL_FALSE);
    cl_addressing_mode addressing = 0;
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing, &addressing, nullptr) == CL_SUCCESS);
    CHECK(addressing == CL_ADDRESS_CLAMP_TO_EDGE);
    cl_filter_mode filter = 0;
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, nullptr) == CL_SUCCESS);
    CHECK(filter == CL_FILTER_NEAREST);
    cl_context c = nullptr;
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, nullptr) == CL_SUCCESS);
    CHECK(c == env.context);
    size_t n = 0;
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == sizeof props);
    cl_uint refs = 0;
    REQUIRE(clRetainSampler(s) == CL_SUCCESS);
    REQUIRE(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr) == CL_SUCCESS);
    CHECK(refs == 2);
    REQUIRE(clReleaseSampler(s) == CL_SUCCESS);
    REQUIRE(clReleaseSampler(s) == CL_SUCCESS);

    CHECK(clCreateSampler(env.context, CL_FALSE, 0x7777, CL_FILTER_NEAREST, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    CHECK(clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_NONE, 0x7777, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    cl_sampler_properties unknown[] = {0x7777, 0, 0};
    CHECK(clCreateSamplerWithProperties(env.context, unknown, &err) == nullptr);
    CHECK(err == CL_INVALID_VALUE);
    // The legacy entry point makes the same sampler, without properties to report.
    cl_sampler legacy = clCreateSampler(env.context, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clGetSamplerInfo(legacy, CL_SAMPLER_ADDRESSING_MODE, sizeof addressing, &addressing, nullptr) == CL_SUCCESS);
    CHECK(addressing == CL_ADDRESS_REPEAT);
    REQUIRE(clGetSamplerInfo(legacy, CL_SAMPLER_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == 0);
    cl_sampler noList = clCreateSamplerWithProperties(env.context, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    REQUIRE(clGetSamplerInfo(noList, CL_SAMPLER_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == 0);
    clReleaseSampler(noList);
    clReleaseSampler(legacy);
}

TEST_CASE("api: a kernel samples an image written by the host", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    const size_t w = 16, h = 4;
    std::vector<float> pixels(w * h);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i) + 0.25f;
    cl_mem image = image2d(env, kRFloat, w, h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, pixels.data());
    cl_int err = CL_SUCCESS;
    cl_sampler s = clCreateSampler(env.context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_program p = env.build(kSampleSource);
    cl_kernel k = env.kernel(p, "sample_row");
    cl_mem out = env.buffer(CL_MEM_WRITE_ONLY, w * sizeof(float));
    cltest::setArg(k, 0, image);
    cltest::setArg(k, 1, s);
    cltest::setArg(k, 2, out);
    size_t global = w;
    // Two launches (on two slots where there are two), each reading a row the host wrote.
    for (cl_int row : {2, 3}) {
        cltest::setArg(k, 3, row);
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(env.read<float>(out, w) == std::vector<float>(pixels.begin() + row * w, pixels.begin() + (row + 1) * w));
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseSampler(s);
    clReleaseMemObject(image);
}

TEST_CASE("api: 1-D image buffers view their buffer's contents both ways", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_uint n = 0;
    REQUIRE(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, nullptr, &n) ==
            CL_SUCCESS);
    std::vector<cl_image_format> formats(n);
    if (n)
        REQUIRE(clGetSupportedImageFormats(env.context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE1D_BUFFER, n, formats.data(),
                                           nullptr) == CL_SUCCESS);
    REQUIRE(std::any_of(formats.begin(), formats.end(), [](const cl_image_format& f) {
        return f.image_channel_order == CL_R && f.image_channel_data_type == CL_FLOAT;
    }));
    size_t maxPixels = 0;
    REQUIRE(clGetDeviceInfo(env.device, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof maxPixels, &maxPixels, nullptr) == CL_SUCCESS);
    CHECK(maxPixels >= 65536);

    const size_t w = 64;
    std::vector<float> values(w);
    for (size_t i = 0; i < w; ++i) values[i] = static_cast<float>(i) + 0.5f;
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, w * sizeof(float), values.data());
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = w;
    d.buffer = buffer;
    cl_int err = CL_SUCCESS;
    cl_mem image = clCreateImage(env.context, 0, &kRFloat, &d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(imageValue<cl_mem>(image, CL_IMAGE_BUFFER) == buffer);
    CHECK(imageValue<size_t>(image, CL_IMAGE_WIDTH) == w);
    cl_mem associated = nullptr;
    REQUIRE(clGetMemObjectInfo(image, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof associated, &associated, nullptr) == CL_SUCCESS);
    CHECK(associated == buffer);
    cl_mem_object_type type = 0;
    REQUIRE(clGetMemObjectInfo(image, CL_MEM_TYPE, sizeof type, &type, nullptr) == CL_SUCCESS);
    CHECK(type == CL_MEM_OBJECT_IMAGE1D_BUFFER);
    cl_mem_flags flags = 0;
    REQUIRE(clGetMemObjectInfo(image, CL_MEM_FLAGS, sizeof flags, &flags, nullptr) == CL_SUCCESS);
    CHECK((flags & CL_MEM_READ_WRITE) != 0);  // inherited from the buffer

    // Kernels read through the image what the host wrote into the buffer, and write through the
    // image what the host then reads from the buffer (on two slots where there are two).
    cl_program p = env.build(R"CLC(
        __kernel void twice(__read_only image1d_buffer_t in, __write_only image1d_buffer_t out) {
            int i = (int)get_global_id(0);
            write_imagef(out, i, 2.0f * read_imagef(in, i));
        })CLC");
    cl_kernel k = env.kernel(p, "twice");
    cl_mem outBuffer = env.buffer(CL_MEM_READ_WRITE, w * sizeof(float));
    d.buffer = outBuffer;
    cl_mem outImage = clCreateImage(env.context, CL_MEM_WRITE_ONLY, &kRFloat, &d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cltest::setArg(k, 0, image);
    cltest::setArg(k, 1, outImage);
    for (float scale : {1.0f, 3.0f}) {
        std::vector<float> now(w);
        for (size_t i = 0; i < w; ++i) now[i] = values[i] * scale;
        REQUIRE(clEnqueueWriteBuffer(env.queue, buffer, CL_FALSE, 0, w * sizeof(float), now.data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        size_t global = w;
        REQUIRE(clEnqueueNDRangeKernel(env.queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) == CL_SUCCESS);
        std::vector<float> expect(w);
        for (size_t i = 0; i < w; ++i) expect[i] = 2.0f * now[i];
        CHECK(env.read<float>(outBuffer, w) == expect);
        // The image commands see the same pixels.
        std::vector<float> pixels(w);
        size_t origin[3] = {0, 0, 0}, region[3] = {w, 1, 1};
        REQUIRE(clEnqueueReadImage(env.queue, outImage, CL_TRUE, origin, region, 0, 0, pixels.data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        CHECK(pixels == expect);
    }

    // The image keeps its buffer alive; a map of a pixel points at that pixel of the buffer.
    REQUIRE(clReleaseMemObject(buffer) == CL_SUCCESS);
    size_t origin[3] = {5, 0, 0}, region[3] = {4, 1, 1}, rowPitch = 0;
    auto* mapped = static_cast<float*>(clEnqueueMapImage(env.queue, image, CL_TRUE, CL_MAP_READ, origin, region, &rowPitch,
                                                         nullptr, 0, nullptr, nullptr, &err));
    REQUIRE(err == CL_SUCCESS);
    CHECK(mapped[0] == values[5] * 3.0f);
    CHECK(mapped[3] == values[8] * 3.0f);
    REQUIRE(clEnqueueUnmapMemObject(env.queue, image, mapped, 0, nullptr, nullptr) == CL_SUCCESS);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    clReleaseKernel(k), clReleaseProgram(p);
    clReleaseMemObject(outImage), clReleaseMemObject(outBuffer), clReleaseMemObject(image);
}

TEST_CASE("api: 1-D image buffer creation errors", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_mem readOnly = env.buffer(CL_MEM_READ_ONLY, 64 * sizeof(float));
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.image_width = 64;
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRFloat, &d, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);  // no buffer
    d.buffer = readOnly;
    CHECK(createImageError(env, CL_MEM_READ_ONLY, &kRFloat, &d, nullptr) == CL_SUCCESS);
    CHECK(createImageError(env, CL_MEM_READ_WRITE, &kRFloat, &d, nullptr) == CL_INVALID_VALUE);  // wider than the buffer's
    CHECK(createImageError(env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &kRFloat, &d, nullptr) == CL_INVALID_VALUE);
    d.image_width = 65;  // more pixels than the buffer holds
    CHECK(createImageError(env, 0, &kRFloat, &d, nullptr) != CL_SUCCESS);
    clReleaseMemObject(readOnly);
}

TEST_CASE("api: a 3D image round trip", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE3D;
    d.image_width = 4;
    d.image_height = 3;
    d.image_depth = 2;
    cl_int err = CL_SUCCESS;
    cl_mem image = clCreateImage(env.context, CL_MEM_READ_WRITE, &kRFloat, &d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(imageValue<size_t>(image, CL_IMAGE_DEPTH) == 2);
    CHECK(imageValue<size_t>(image, CL_IMAGE_SLICE_PITCH) >= 4 * 3 * sizeof(float));
    std::vector<float> values(4 * 3 * 2);
    for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 3.0f;
    size_t origin[3] = {0, 0, 0}, whole[3] = {4, 3, 2};
    REQUIRE(clEnqueueWriteImage(env.queue, image, CL_FALSE, origin, whole, 0, 0, values.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    std::vector<float> slice(4 * 3);
    size_t second[3] = {0, 0, 1}, oneSlice[3] = {4, 3, 1};
    REQUIRE(clEnqueueReadImage(env.queue, image, CL_TRUE, second, oneSlice, 0, 0, slice.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(slice == std::vector<float>(values.begin() + 12, values.end()));
    clReleaseMemObject(image);
}

TEST_CASE("api: image commands' events name their command types", "[api][image][event]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_mem a = image2d(env, kRFloat, 4, 4), b = image2d(env, kRFloat, 4, 4);
    cl_mem buffer = env.buffer(CL_MEM_READ_WRITE, 16 * sizeof(float));
    std::vector<float> host(16, 1.0f);
    size_t origin[3] = {0, 0, 0}, whole[3] = {4, 4, 1};
    float color[4] = {2, 0, 0, 0};
    std::vector<std::pair<cl_event, cl_command_type>> events;
    cl_event e = nullptr;
    auto record = [&](cl_int err, cl_command_type type) {  // reads `e` after the call
        REQUIRE(err == CL_SUCCESS);
        events.emplace_back(e, type);
    };
    record(clEnqueueWriteImage(env.queue, a, CL_FALSE, origin, whole, 0, 0, host.data(), 0, nullptr, &e),
           CL_COMMAND_WRITE_IMAGE);
    record(clEnqueueFillImage(env.queue, b, color, origin, whole, 0, nullptr, &e), CL_COMMAND_FILL_IMAGE);
    record(clEnqueueCopyImage(env.queue, a, b, origin, origin, whole, 0, nullptr, &e), CL_COMMAND_COPY_IMAGE);
    record(clEnqueueReadImage(env.queue, b, CL_FALSE, origin, whole, 0, 0, host.data(), 0, nullptr, &e),
           CL_COMMAND_READ_IMAGE);
    record(clEnqueueCopyImageToBuffer(env.queue, a, buffer, origin, whole, 0, 0, nullptr, &e),
           CL_COMMAND_COPY_IMAGE_TO_BUFFER);
    record(clEnqueueCopyBufferToImage(env.queue, buffer, b, 0, origin, whole, 0, nullptr, &e),
           CL_COMMAND_COPY_BUFFER_TO_IMAGE);
    size_t pitch = 0;
    cl_int err = CL_SUCCESS;
    void* p = clEnqueueMapImage(env.queue, b, CL_FALSE, CL_MAP_READ, origin, whole, &pitch, nullptr, 0, nullptr, &e, &err);
    record(err, CL_COMMAND_MAP_IMAGE);
    record(clEnqueueUnmapMemObject(env.queue, b, p, 0, nullptr, &e), CL_COMMAND_UNMAP_MEM_OBJECT);
    REQUIRE(clFinish(env.queue) == CL_SUCCESS);
    for (auto [event, type] : events) {
        INFO("expected command type 0x" << std::hex << type);
        cl_command_type t = 0;
        REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof t, &t, nullptr) == CL_SUCCESS);
        CHECK(t == type);
        cl_int status = 1;
        REQUIRE(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr) == CL_SUCCESS);
        CHECK(status == CL_COMPLETE);
        clReleaseEvent(event);
    }
    for (float v : host) CHECK(v == 1.0f);  // b read back after the copy from a
    for (cl_mem m : {a, b, buffer}) clReleaseMemObject(m);
}

TEST_CASE("api: the 1.1 and 3.0 image creation entry points", "[api][image]") {
    cltest::Env env;
    if (!imagesSupported(env.device)) return;
    cl_int err = CL_SUCCESS;
    cl_image_desc d = desc2d(8, 4);
    cl_mem_properties none[] = {0};
    cl_mem withProps = clCreateImageWithProperties(env.context, none, CL_MEM_READ_WRITE, &kRFloat, &d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    size_t n = 0;
    REQUIRE(clGetMemObjectInfo(withProps, CL_MEM_PROPERTIES, 0, nullptr, &n) == CL_SUCCESS);
    CHECK(n == sizeof none);
    cl_mem_properties unknown[] = {0x7777, 1, 0};
    CHECK(clCreateImageWithProperties(env.context, unknown, CL_MEM_READ_WRITE, &kRFloat, &d, nullptr, &err) == nullptr);
    CHECK(err == CL_INVALID_PROPERTY);

    std::vector<float> pixels(8 * 4 * 2);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<float>(i);
    cl_mem legacy2d = clCreateImage2D(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &kRFloat, 8, 4, 0,
                                      pixels.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem legacy3d = clCreateImage3D(env.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &kRFloat, 8, 4, 2, 0, 0,
                                      pixels.data(), &err);
    REQUIRE(err == CL_SUCCESS);
    CHECK(imageValue<size_t>(legacy2d, CL_IMAGE_HEIGHT) == 4);
    CHECK(imageValue<size_t>(legacy3d, CL_IMAGE_DEPTH) == 2);
    std::vector<float> back(8 * 4);
    size_t origin[3] = {0, 0, 1}, region[3] = {8, 4, 1};
    REQUIRE(clEnqueueReadImage(env.queue, legacy3d, CL_TRUE, origin, region, 0, 0, back.data(), 0, nullptr, nullptr) ==
            CL_SUCCESS);
    CHECK(back == std::vector<float>(pixels.begin() + 32, pixels.end()));
    for (cl_mem m : {withProps, legacy2d, legacy3d}) clReleaseMemObject(m);
}

TEST_CASE("images: a write from host memory an earlier non-blocking image read fills sends what it brought", "[api][image]") {
    // Hetero copies a whole buffer write from host memory when it submits it: a read of an image
    // into that memory still in flight must have landed first (platform/engine/host_reads.hpp).
    cltest::Env env;
    const size_t w = 1024, h = 1024, bytes = w * h * 4;  // 4 MiB
    cl_mem image = image2d(env, kRgba8, w, h);
    cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
    const size_t origin[3] = {0, 0, 0}, region[3] = {w, h, 1};
    for (int round = 1; round <= 4; ++round) {
        INFO("round " << round);
        const float level = static_cast<float>(round) / 5.0f;
        const float color[4] = {level, level, level, level};
        const auto value = static_cast<cl_uchar>(std::lround(level * 255.0f));
        std::vector<cl_uchar> host(bytes, 0), got(bytes, 0);
        REQUIRE(clEnqueueFillImage(env.queue, image, color, origin, region, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadImage(env.queue, image, CL_FALSE, origin, region, 0, 0, host.data(), 0, nullptr, nullptr) ==
                CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(env.queue, to, CL_FALSE, 0, bytes, host.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(env.queue, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(std::count(got.begin(), got.end(), value) == static_cast<std::ptrdiff_t>(bytes));
    }
    clReleaseMemObject(image), clReleaseMemObject(to);
}

TEST_CASE("images: a write from host memory waits for a 1-D image array read whose images lie slice_pitch apart", "[api][image]") {
    // The specification puts a 1-D image array's images slice_pitch apart in host memory; the read's
    // extent must reach the last of them. PoCL 3.1 puts them row_pitch apart instead, so the expected
    // bytes come from a blocking read of the same region first: the test asks for what the device
    // does, and only a device that honours slice_pitch (NVIDIA) reaches beyond the rows' extent.
    cltest::Env env;
    const size_t w = 2048, images = 1024, row = w * 4, slice = 2 * row, span = images * slice;  // 16 MiB
    const size_t from = 12u << 20, bytes = span - from;                                           // the last 4 MiB
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY;
    d.image_width = w;
    d.image_array_size = images;
    cl_int err = CL_SUCCESS;
    cl_mem image = clCreateImage(env.context, CL_MEM_READ_WRITE, &kRgba8, &d, nullptr, &err);
    REQUIRE(err == CL_SUCCESS);
    cl_mem to = env.buffer(CL_MEM_READ_WRITE, bytes);
    const size_t origin[3] = {0, 0, 0}, region[3] = {w, images, 1};
    for (int round = 1; round <= 4; ++round) {
        INFO("round " << round);
        const float level = static_cast<float>(round) / 5.0f;
        const float color[4] = {level, level, level, level};
        std::vector<cl_uchar> expected(span, 0), host(span, 0), got(bytes, 0);
        REQUIRE(clEnqueueFillImage(env.queue, image, color, origin, region, 0, nullptr, nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadImage(env.queue, image, CL_TRUE, origin, region, row, slice, expected.data(), 0, nullptr,
                                   nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueReadImage(env.queue, image, CL_FALSE, origin, region, row, slice, host.data(), 0, nullptr,
                                   nullptr) == CL_SUCCESS);
        REQUIRE(clEnqueueWriteBuffer(env.queue, to, CL_FALSE, 0, bytes, host.data() + from, 0, nullptr, nullptr) ==
                CL_SUCCESS);
        REQUIRE(clEnqueueReadBuffer(env.queue, to, CL_TRUE, 0, bytes, got.data(), 0, nullptr, nullptr) == CL_SUCCESS);
        CHECK(std::equal(got.begin(), got.end(), expected.begin() + static_cast<std::ptrdiff_t>(from)));
    }
    clReleaseMemObject(image), clReleaseMemObject(to);
}
