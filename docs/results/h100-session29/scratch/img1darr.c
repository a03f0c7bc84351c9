#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
    cl_platform_id ps[8], p = NULL; cl_device_id d; cl_int err; cl_uint np = 0;
    clGetPlatformIDs(8, ps, &np);
    char name[128];
    for (cl_uint i = 0; i < np && !p; ++i) {
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (argc < 2 || strstr(name, argv[1])) p = ps[i];
    }
    if (!p) return 1;
    printf("platform %s\n", name);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, d, NULL, &err);
    const size_t w = 2048, n = 1024, row = w * 4, slice = 2 * row;
    cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0}; desc.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY; desc.image_width = w; desc.image_array_size = n;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE, &f, &desc, NULL, &err); printf("create %d\n", err);
    float color[4] = {0.4f, 0.4f, 0.4f, 0.4f};
    size_t origin[3] = {0, 0, 0}, region[3] = {w, n, 1};
    err = clEnqueueFillImage(q, img, color, origin, region, 0, NULL, NULL); printf("fill %d\n", err);
    unsigned char* host = calloc(n * slice, 1);
    err = clEnqueueReadImage(q, img, CL_TRUE, origin, region, row, slice, host, 0, NULL, NULL); printf("read %d\n", err);
    size_t atRow = 0, atGap = 0, atTail = 0;
    for (size_t i = 0; i < n; ++i) {
        for (size_t b = 0; b < row; ++b) atRow += host[i * slice + b] != 0;
        for (size_t b = row; b < slice; ++b) atGap += host[i * slice + b] != 0;
    }
    for (size_t b = 12u << 20; b < n * slice; ++b) atTail += host[b] != 0;
    printf("nonzero in images %zu of %zu, in gaps %zu, beyond 12 MiB %zu, byte0 %u\n", atRow, n * row, atGap, atTail, host[0]);
    return 0;
}
