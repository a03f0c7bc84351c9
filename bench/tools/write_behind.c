// A whole-buffer write enqueued behind a running kernel, as a pipeline that prepares its next input
// while the device computes: how long the application's thread spends in the non-blocking
// clEnqueueWriteBuffer, and the round's wall time, by the write's size. A write Hetero copies from
// host memory at submission (through the host copy in discrete memory) must wait for reads into
// its source still in flight, and nothing else (platform/engine/host_reads.hpp).
// Per size: the median over rounds of {enqueue of the write, round (kernel + write + clFinish)}, in ms.
//   write_behind [--platform NAME] [--rounds N] [--ms KERNEL_MS] [--mib SIZES,...]
#define CL_TARGET_OPENCL_VERSION 300
#include "tool_support.h"

int main(int argc, char** argv) {
    toolName = "write_behind";
    const char* want = NULL;
    const char* sizes = "1,16,64";
    int rounds = 9;
    double ms = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--platform")) want = argv[i + 1];
        else if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--ms")) ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--mib")) sizes = argv[i + 1];
    }
    if (rounds < 1 || rounds > 64) rounds = 9;
    char name[256] = "";
    cl_platform_id platform = findPlatform(want, 0, name, sizeof name);
    if (!platform) { fprintf(stderr, "write_behind: no platform\n"); return 1; }
    cl_device_id device = firstDevice(platform);
    cl_int err;
    SpinKernel spin = spinKernel(device, ms);
    cl_context context = spin.context;
    cl_command_queue queue = spin.queue;
    printf("platform %s, kernel of at least about %.1f ms, median of %d rounds (ms)\n", name, ms, rounds);
    for (const char* s = sizes; *s;) {
        size_t mib = (size_t)strtoul(s, NULL, 10);
        while (*s && *s != ',') ++s;
        if (*s == ',') ++s;
        if (mib == 0) continue;
        size_t bytes = mib << 20;
        unsigned char* host = malloc(bytes);
        if (!host) { fprintf(stderr, "write_behind: no memory for %zu MiB\n", mib); return 1; }
        memset(host, 5, bytes);
        cl_mem to = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, NULL, &err);
        check(err, "clCreateBuffer");
        check(clEnqueueWriteBuffer(queue, to, CL_TRUE, 0, bytes, host, 0, NULL, NULL), "first write");
        double enqueue[64], round[64];
        for (int r = 0; r < rounds; ++r) {
            double t0 = now();
            enqueueSpin(&spin, NULL);
            check(clFlush(queue), "clFlush");
            double w0 = now();
            check(clEnqueueWriteBuffer(queue, to, CL_FALSE, 0, bytes, host, 0, NULL, NULL), "write");
            enqueue[r] = (now() - w0) * 1e3;
            check(clFinish(queue), "clFinish");
            round[r] = (now() - t0) * 1e3;
        }
        printf("%4zu MiB  write enqueue %8.3f  round %8.3f\n", mib, median(enqueue, rounds), median(round, rounds));
        clReleaseMemObject(to);
        free(host);
    }
    releaseSpinKernel(&spin);
    return 0;
}
