#include "split_harness.hpp"

#include "corpus_inputs.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace splittest {

using cltest::check;
namespace tf = hetero::transform;

std::string Schedule::describe() const
{
    std::ostringstream text;
    text << "chunks";
    for (const Chunk& chunk : chunks)
        text << " [" << chunk.first << "," << chunk.second << ")";
    if (cpuAhead)
        text << "; all chunks computed first, published while the abortable kernel runs"
             << (waitForRunning ? " (from its RUNNING state)" : "");
    text << "; abortable enqueued after " << gpuStartAfter << " chunk(s) + " << gpuLaunchDelayUs << " us";
    return text.str();
}

std::vector<Chunk> randomChunks(uint64_t numGroups, std::mt19937_64& rng)
{
    std::vector<Chunk> chunks;
    const uint64_t caps[] = {1, numGroups / 8 + 1, numGroups / 3 + 1, numGroups};
    uint64_t end = numGroups;
    while (end > 0) {
        uint64_t cap = caps[rng() % 4];
        uint64_t size = 1 + rng() % cap;
        uint64_t begin = end > size ? end - size : 0;
        chunks.emplace_back(begin, end);
        end = begin;
    }
    return chunks;
}

Schedule randomSchedule(uint64_t numGroups, std::mt19937_64& rng, unsigned kernelUs)
{
    Schedule schedule;
    schedule.chunks = randomChunks(numGroups, rng);
    // A third of the runs start the abortable kernel first (the engine's usual order).
    schedule.cpuAhead = rng() % 2 == 0;
    schedule.waitForRunning = rng() % 2 == 0;
    schedule.gpuStartAfter = rng() % 3 == 0 ? 0 : rng() % (schedule.chunks.size() + 1);
    schedule.gpuLaunchDelayUs = rng() % 2 ? 0 : static_cast<unsigned>(rng() % (kernelUs / 2 + 1));
    // Publications spread over about one to two kernel run times.
    const unsigned spread = static_cast<unsigned>(2 * (kernelUs + 50) / schedule.chunks.size()) + 1;
    for (size_t i = 0; i < schedule.chunks.size(); i++)
        schedule.publishDelayUs.push_back(rng() % 4 == 0 ? 0 : static_cast<unsigned>(rng() % spread));
    return schedule;
}

namespace {

tf::NDRange toRange(const corpus::NDRangeSpec& spec)
{
    tf::NDRange range;
    range.dims = spec.dims;
    for (unsigned d = 0; d < 3; d++) {
        range.offset[d] = spec.offset[d];
        range.global[d] = spec.global[d];
        range.local[d] = spec.local[d];
    }
    return range;
}

cltest::Program buildOrThrow(cl_context context, const std::vector<std::string>& sources,
                             const std::string& options, const char* what)
{
    cltest::BuildResult built = cltest::buildProgram(context, cltest::poclDevice().device, sources, options);
    if (built.status != CL_SUCCESS)
        throw std::runtime_error(std::string("building the ") + what + " failed (" + std::to_string(built.status)
                                 + "):\n" + built.log);
    return std::move(built.program);
}

// Pauses for about `us` microseconds; short pauses spin, as sleeping has ~60 us granularity.
void sleepUs(unsigned us)
{
    if (!us)
        return;
    if (us > 500) {
        std::this_thread::sleep_for(std::chrono::microseconds(us));
        return;
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
}

// Fills n scalars of the argument's scalar type from a number generator producing doubles.

}  // namespace

Harness::Harness(const corpus::ProgramSpec& program, const corpus::KernelSpec& spec,
                 const tf::KernelAnalysis& analysis, const std::string& variantsSource)
    : spec_(spec), analysis_(analysis), range_(toRange(spec.ndrange))
{
    numGroups_ = 1;
    for (unsigned d = 0; d < range_.dims; d++)
        numGroups_ *= (range_.global[d] + range_.local[d] - 1) / range_.local[d];
    const cltest::Device& device = cltest::poclDevice();
    cpu_ = cltest::makeContext(device);
    gpu_ = cltest::makeContext(device);
    original_ = buildOrThrow(cpu_.context.get(), program.sources, program.options, "original program");
    cpuVariants_ = buildOrThrow(cpu_.context.get(), {variantsSource}, program.options, "variants (CPU context)");
    gpuVariants_ = buildOrThrow(gpu_.context.get(), {variantsSource}, program.options, "variants (GPU context)");
    reference_ = cltest::makeKernel(original_.get(), spec.name);
    chunk_ = cltest::makeKernel(cpuVariants_.get(), spec.name + "__hetero_chunk");
    abort_ = cltest::makeKernel(gpuVariants_.get(), spec.name + "__hetero_abort");
    originalInVariants_ = cltest::makeKernel(cpuVariants_.get(), spec.name);

    // The status word lives in host memory the running kernel reads directly (PoCL uses the
    // host pointer of a CL_MEM_USE_HOST_PTR buffer), so a host store reaches it mid-kernel.
    void* host = std::aligned_alloc(4096, 4096);
    if (!host)
        throw std::runtime_error("aligned_alloc failed");
    status_ = static_cast<volatile uint32_t*>(host);
    status_[0] = 0;
    status_[1] = 0;
    cl_int err = CL_SUCCESS;
    statusMem_ = cltest::Mem(clCreateBuffer(gpu_.context.get(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                                            2 * sizeof(cl_uint), host, &err));
    check(err, "clCreateBuffer(status)");
}

Harness::~Harness()
{
    statusMem_ = cltest::Mem();
    std::free(const_cast<uint32_t*>(status_));
}

std::vector<size_t> Harness::bufferArgs() const
{
    std::vector<size_t> args;
    for (size_t i = 0; i < spec_.args.size(); i++)
        if (spec_.args[i].kind == corpus::ArgKind::Global || spec_.args[i].kind == corpus::ArgKind::Constant)
            args.push_back(i);
    return args;
}

std::vector<size_t> Harness::writtenArgs() const
{
    std::vector<size_t> args;
    for (size_t i : bufferArgs())
        if (i < analysis_.params.size() && analysis_.params[i].mayWrite)
            args.push_back(i);
    return args;
}

size_t Harness::mergeElementSize(size_t arg) const
{
    const std::vector<size_t>& sizes = analysis_.params.at(arg).storeSizes;
    if (sizes.size() != 1)
        throw std::runtime_error("argument " + spec_.args[arg].name + " is written but has "
                                 + std::to_string(sizes.size()) + " store sizes");
    return sizes[0];
}

BufferSet Harness::initialBuffers(uint64_t seed) const
{
    return corpus::initialBuffers(spec_, seed);
}

std::vector<cltest::Mem> Harness::makeBuffers(cl_context context, const BufferSet& init) const
{
    std::vector<cltest::Mem> mems(spec_.args.size());
    for (size_t i : bufferArgs()) {
        cl_int err = CL_SUCCESS;
        mems[i] = cltest::Mem(clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init[i].size(),
                                             const_cast<unsigned char*>(init[i].data()), &err));
        check(err, "clCreateBuffer");
    }
    return mems;
}

void Harness::setAppArgs(cl_kernel kernel, const std::vector<cltest::Mem>& buffers) const
{
    for (size_t i = 0; i < spec_.args.size(); i++) {
        const corpus::ArgSpec& arg = spec_.args[i];
        cl_uint index = static_cast<cl_uint>(i);
        switch (arg.kind) {
        case corpus::ArgKind::Global:
        case corpus::ArgKind::Constant: {
            cl_mem mem = buffers[i].get();
            check(clSetKernelArg(kernel, index, sizeof mem, &mem), "clSetKernelArg(buffer)");
            break;
        }
        case corpus::ArgKind::Local:
            check(clSetKernelArg(kernel, index, arg.localBytes, nullptr), "clSetKernelArg(local)");
            break;
        case corpus::ArgKind::Value:
            check(clSetKernelArg(kernel, index, arg.valueBytes.size(), arg.valueBytes.data()), "clSetKernelArg(value)");
            break;
        case corpus::ArgKind::Image:
            throw std::runtime_error("image arguments are not launched by the harness");
        }
    }
}

BufferSet Harness::readBuffers(cl_command_queue queue, const std::vector<cltest::Mem>& buffers,
                               const std::vector<size_t>& args) const
{
    BufferSet out(spec_.args.size());
    for (size_t i : args) {
        out[i].resize(spec_.args[i].bufferBytes());
        check(clEnqueueReadBuffer(queue, buffers[i].get(), CL_TRUE, 0, out[i].size(), out[i].data(), 0, nullptr,
                                  nullptr),
              "clEnqueueReadBuffer");
    }
    return out;
}

void Harness::enqueueFull(cl_command_queue queue, cl_kernel kernel)
{
    check(clEnqueueNDRangeKernel(queue, kernel, range_.dims, range_.offset, range_.global, range_.local, 0, nullptr,
                                 nullptr),
          "clEnqueueNDRangeKernel(full range)");
}

void Harness::enqueueChunk(cl_command_queue queue, const Chunk& chunk)
{
    const cl_uint first = static_cast<cl_uint>(spec_.args.size());
    // CPU work-group splitting (FluidiCL 6.3) wherever allowed, by a factor that varies by chunk.
    const unsigned split = tf::groupSplitAllowed(analysis_, range_)
                               ? tf::groupSplitFor(range_, 1, 1 + static_cast<unsigned>(chunk.first % 8))
                               : 1;
    for (const tf::SubLaunch& sub : tf::chunkLaunches(range_, chunk.first, chunk.second, split)) {
        for (size_t e = 0; e < sub.extraArgs.size(); e++)
            check(clSetKernelArg(chunk_.get(), first + static_cast<cl_uint>(e), sub.extraArgs[e].size,
                                 sub.extraArgs[e].value.data()),
                  "clSetKernelArg(chunk extra)");
        check(clEnqueueNDRangeKernel(queue, chunk_.get(), sub.dims, sub.offset, sub.global, sub.local, 0, nullptr,
                                     nullptr),
              "clEnqueueNDRangeKernel(chunk)");
    }
}

void Harness::setAbortArgs(const std::vector<cltest::Mem>& buffers, uint32_t launchId)
{
    setAppArgs(abort_.get(), buffers);
    const cl_uint first = static_cast<cl_uint>(spec_.args.size());
    cl_mem status = statusMem_.get();
    check(clSetKernelArg(abort_.get(), first, sizeof status, &status), "clSetKernelArg(status)");
    std::vector<tf::ExtraArg> extra = tf::abortExtraArgs(range_, launchId);
    for (size_t e = 0; e < extra.size(); e++)
        check(clSetKernelArg(abort_.get(), first + 1 + static_cast<cl_uint>(e), extra[e].size, extra[e].value.data()),
              "clSetKernelArg(abort extra)");
}

BufferSet Harness::runReference(const BufferSet& init)
{
    std::vector<cltest::Mem> buffers = makeBuffers(cpu_.context.get(), init);
    setAppArgs(reference_.get(), buffers);
    enqueueFull(cpu_.queue.get(), reference_.get());
    return readBuffers(cpu_.queue.get(), buffers, bufferArgs());
}

BufferSet Harness::runOriginalFromVariants(const BufferSet& init)
{
    std::vector<cltest::Mem> buffers = makeBuffers(cpu_.context.get(), init);
    setAppArgs(originalInVariants_.get(), buffers);
    enqueueFull(cpu_.queue.get(), originalInVariants_.get());
    return readBuffers(cpu_.queue.get(), buffers, bufferArgs());
}

BufferSet Harness::runChunksOnly(const BufferSet& init, const std::vector<Chunk>& chunks)
{
    std::vector<cltest::Mem> buffers = makeBuffers(cpu_.context.get(), init);
    setAppArgs(chunk_.get(), buffers);
    for (const Chunk& chunk : chunks)
        enqueueChunk(cpu_.queue.get(), chunk);
    return readBuffers(cpu_.queue.get(), buffers, bufferArgs());
}

BufferSet Harness::runAbortable(const BufferSet& init, uint32_t status0, uint32_t status1, uint32_t launchId)
{
    std::vector<cltest::Mem> buffers = makeBuffers(gpu_.context.get(), init);
    status_[1] = status1;
    status_[0] = status0;
    setAbortArgs(buffers, launchId);
    auto start = std::chrono::steady_clock::now();
    enqueueFull(gpu_.queue.get(), abort_.get());
    check(clFinish(gpu_.queue.get()), "clFinish");
    abortableUs_ = static_cast<unsigned>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count());
    return readBuffers(gpu_.queue.get(), buffers, bufferArgs());
}

SplitOutcome Harness::runSplit(const BufferSet& init, const Schedule& schedule, uint32_t launchId)
{
    std::vector<cltest::Mem> cpuBuffers = makeBuffers(cpu_.context.get(), init);
    std::vector<cltest::Mem> gpuBuffers = makeBuffers(gpu_.context.get(), init);
    setAppArgs(chunk_.get(), cpuBuffers);
    setAbortArgs(gpuBuffers, launchId);
    // A fresh launch: nothing is done by the CPU yet.
    status_[1] = static_cast<uint32_t>(numGroups_);
    status_[0] = launchId;

    const std::vector<size_t> written = writtenArgs();
    std::mutex lock;             // orders "publish a chunk" against "the abortable kernel ended"
    bool gpuDone = false;
    BufferSet received = init;   // what has reached the GPU side: CPU data of completed chunks (H3)
    SplitOutcome outcome;
    std::thread gpu;
    std::exception_ptr gpuError;
    std::atomic<cl_event> gpuEvent{nullptr};  // set once the abortable kernel is enqueued
    auto startGpu = [&] {
        gpu = std::thread([&] {
            try {
                sleepUs(schedule.gpuLaunchDelayUs);
                uint32_t atLaunch = status_[1];
                cl_event event = nullptr;
                check(clEnqueueNDRangeKernel(gpu_.queue.get(), abort_.get(), range_.dims, range_.offset,
                                             range_.global, range_.local, 0, nullptr, &event),
                      "clEnqueueNDRangeKernel(abortable)");
                check(clFlush(gpu_.queue.get()), "clFlush");
                gpuEvent.store(event);
                check(clFinish(gpu_.queue.get()), "clFinish(abortable)");
                std::lock_guard<std::mutex> guard(lock);
                gpuDone = true;
                outcome.finalLowest = status_[1];
                outcome.statusChangedWhileRunning = outcome.finalLowest != atLaunch;
                outcome.merged = received;  // the merge uses exactly what had arrived (H4)
            } catch (...) {
                std::lock_guard<std::mutex> guard(lock);
                gpuDone = true;
                gpuError = std::current_exception();
            }
        });
    };

    std::exception_ptr cpuError;
    try {
        if (schedule.cpuAhead) {
            std::vector<BufferSet> snapshots;
            for (const Chunk& chunk : schedule.chunks) {
                enqueueChunk(cpu_.queue.get(), chunk);
                check(clFinish(cpu_.queue.get()), "clFinish(chunk)");
                snapshots.push_back(readBuffers(cpu_.queue.get(), cpuBuffers, written));
            }
            startGpu();
            // Start publishing once the abortable kernel runs, so the status word moves under it.
            while (schedule.waitForRunning) {
                cl_event event = gpuEvent.load();
                cl_int state = CL_QUEUED;
                if (event)
                    check(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, nullptr),
                          "clGetEventInfo");
                if (state <= CL_RUNNING)
                    break;
                {
                    std::lock_guard<std::mutex> guard(lock);
                    if (gpuDone)
                        break;
                }
                std::this_thread::yield();
            }
            for (size_t c = 0; c < schedule.chunks.size(); c++) {
                sleepUs(schedule.publishDelayUs[c]);
                std::lock_guard<std::mutex> guard(lock);
                if (gpuDone) {
                    outcome.chunksDiscarded += schedule.chunks.size() - c;
                    break;
                }
                for (size_t i : written)
                    received[i] = std::move(snapshots[c][i]);
                status_[1] = static_cast<uint32_t>(schedule.chunks[c].first);
                outcome.chunksPublished++;
            }
        }
        if (!schedule.cpuAhead && schedule.gpuStartAfter == 0)
            startGpu();
        for (size_t c = 0; !schedule.cpuAhead && c < schedule.chunks.size(); c++) {
            {
                std::lock_guard<std::mutex> guard(lock);
                if (gpuDone)
                    break;
            }
            enqueueChunk(cpu_.queue.get(), schedule.chunks[c]);
            check(clFinish(cpu_.queue.get()), "clFinish(chunk)");
            // Snapshot taken only after the chunk finished, never the live buffer (H3).
            BufferSet snapshot = readBuffers(cpu_.queue.get(), cpuBuffers, written);
            sleepUs(schedule.publishDelayUs[c]);
            {
                std::lock_guard<std::mutex> guard(lock);
                if (gpuDone) {
                    outcome.chunksDiscarded++;  // arrived after the merge started (H4)
                    break;
                }
                for (size_t i : written)
                    received[i] = std::move(snapshot[i]);
                status_[1] = static_cast<uint32_t>(schedule.chunks[c].first);  // data first, then status
                outcome.chunksPublished++;
            }
            if (c + 1 == schedule.gpuStartAfter)
                startGpu();
        }
        if (!gpu.joinable())
            startGpu();
    } catch (...) {
        cpuError = std::current_exception();
    }
    if (gpu.joinable())
        gpu.join();
    if (cl_event event = gpuEvent.load())
        clReleaseEvent(event);
    clFinish(cpu_.queue.get());
    if (cpuError)
        std::rethrow_exception(cpuError);
    if (gpuError)
        std::rethrow_exception(gpuError);

    BufferSet gpuResult = readBuffers(gpu_.queue.get(), gpuBuffers, bufferArgs());
    outcome.merged = merge(init, outcome.merged, gpuResult);
    return outcome;
}

BufferSet Harness::merge(const BufferSet& orig, const BufferSet& recv, const BufferSet& gpu) const
{
    BufferSet out = gpu;
    for (size_t i : writtenArgs()) {
        size_t elem = mergeElementSize(i);
        if (!elem || orig[i].size() % elem)
            throw std::runtime_error("bad merge element size for " + spec_.args[i].name);
        for (size_t at = 0; at < orig[i].size(); at += elem)
            if (std::memcmp(&recv[i][at], &orig[i][at], elem) != 0)
                std::memcpy(&out[i][at], &recv[i][at], elem);
    }
    return out;
}

std::string Harness::difference(const BufferSet& expected, const BufferSet& actual, size_t arg) const
{
    const Bytes& a = expected.at(arg);
    const Bytes& b = actual.at(arg);
    if (a == b)
        return {};
    if (a.size() != b.size())
        return spec_.args[arg].name + ": sizes differ";
    size_t elem = spec_.args[arg].scalarSize;
    size_t first = SIZE_MAX, count = 0;
    for (size_t at = 0; at < a.size(); at += elem) {
        if (std::memcmp(&a[at], &b[at], elem) != 0) {
            if (first == SIZE_MAX)
                first = at;
            count++;
        }
    }
    std::ostringstream text;
    text << spec_.args[arg].name << ": " << count << " of " << a.size() / elem << " scalars differ; first at scalar "
         << first / elem << ": expected 0x";
    for (size_t k = elem; k-- > 0;)
        text << std::hex << (a[first + k] >> 4) << (a[first + k] & 15);
    text << " got 0x";
    for (size_t k = elem; k-- > 0;)
        text << std::hex << (b[first + k] >> 4) << (b[first + k] & 15);
    return text.str();
}

}  // namespace splittest
