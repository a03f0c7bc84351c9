// Runs one corpus kernel the way the split engine will: the original kernel as the reference, the
// chunk variant over sub-ranges in one context ("CPU"), the abortable variant over the whole
// NDRange in a second context ("GPU") under a live status word, and the host-side merge.
#pragma once

#include "cl_env.hpp"
#include "corpus_spec.hpp"
#include "transform/transform.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace splittest {

using Bytes = std::vector<unsigned char>;
using BufferSet = std::vector<Bytes>;  // per kernel argument; empty for non-buffer arguments
using Chunk = std::pair<uint64_t, uint64_t>;  // flattened work-group range [begin, end)

struct Schedule {
    std::vector<Chunk> chunks;                // highest first, covering [0, numGroups)
    size_t gpuStartAfter = 0;                 // the abortable kernel is enqueued after this many chunks
    unsigned gpuLaunchDelayUs = 0;            // then waits this long before enqueueing
    std::vector<unsigned> publishDelayUs;     // per chunk: pause before publishing it
    // Run every chunk first and only then, while the abortable kernel runs, publish their
    // snapshots one by one: the status word then sweeps down across running work-groups.
    bool cpuAhead = false;
    bool waitForRunning = false;              // cpuAhead: first wait until the kernel's event says RUNNING
    std::string describe() const;
};

// Random chunk sizes taken from the high end downwards, random timing on the scale of the
// abortable kernel's run time (so that the status word often moves while it runs).
Schedule randomSchedule(uint64_t numGroups, std::mt19937_64& rng, unsigned kernelUs);
std::vector<Chunk> randomChunks(uint64_t numGroups, std::mt19937_64& rng);

struct SplitOutcome {
    BufferSet merged;
    uint32_t finalLowest = 0;                 // status[1] when the abortable kernel ended
    size_t chunksPublished = 0;
    size_t chunksDiscarded = 0;               // finished after the abortable kernel (H4)
    bool statusChangedWhileRunning = false;   // status[1] moved between enqueue and finish
};

class Harness {
public:
    // Builds the original program and the variants program (throws with the build log on failure).
    Harness(const corpus::ProgramSpec& program, const corpus::KernelSpec& spec,
            const hetero::transform::KernelAnalysis& analysis, const std::string& variantsSource);
    ~Harness();
    Harness(const Harness&) = delete;
    Harness& operator=(const Harness&) = delete;

    const hetero::transform::NDRange& range() const { return range_; }
    uint64_t numGroups() const { return numGroups_; }

    BufferSet initialBuffers(uint64_t seed) const;
    BufferSet runReference(const BufferSet& init);
    // The original kernel as it stands in the variants program (the rewrite must leave it intact).
    BufferSet runOriginalFromVariants(const BufferSet& init);
    // The chunk variant alone, chunks in the order given, on one set of buffers.
    BufferSet runChunksOnly(const BufferSet& init, const std::vector<Chunk>& chunks);
    // The abortable variant alone with the status word fixed at {status0, status1}.
    BufferSet runAbortable(const BufferSet& init, uint32_t status0, uint32_t status1, uint32_t launchId);
    SplitOutcome runSplit(const BufferSet& init, const Schedule& schedule, uint32_t launchId);
    // Wall time of the last runAbortable() kernel, to scale schedules (never asserted on).
    unsigned abortableMicros() const { return abortableUs_; }

    // out = recv != orig ? recv : gpu per merge element, for every argument the analysis says is
    // written; other buffers are taken from gpu.
    BufferSet merge(const BufferSet& orig, const BufferSet& recv, const BufferSet& gpu) const;
    std::vector<size_t> bufferArgs() const;
    std::vector<size_t> writtenArgs() const;  // per the analysis
    size_t mergeElementSize(size_t arg) const;
    // Empty when equal, else the first differing element and how many differ.
    std::string difference(const BufferSet& expected, const BufferSet& actual, size_t arg) const;

private:
    std::vector<cltest::Mem> makeBuffers(cl_context context, const BufferSet& init) const;
    void setAppArgs(cl_kernel kernel, const std::vector<cltest::Mem>& buffers) const;
    BufferSet readBuffers(cl_command_queue queue, const std::vector<cltest::Mem>& buffers,
                          const std::vector<size_t>& args) const;
    void enqueueChunk(cl_command_queue queue, const Chunk& chunk);
    void setAbortArgs(const std::vector<cltest::Mem>& buffers, uint32_t launchId);
    void enqueueFull(cl_command_queue queue, cl_kernel kernel);

    const corpus::KernelSpec& spec_;
    const hetero::transform::KernelAnalysis& analysis_;
    hetero::transform::NDRange range_;
    uint64_t numGroups_ = 0;
    cltest::ContextAndQueue cpu_, gpu_;
    cltest::Program original_, cpuVariants_, gpuVariants_;
    cltest::Kernel reference_, chunk_, abort_, originalInVariants_;
    volatile uint32_t* status_ = nullptr;     // host memory behind statusMem_ (CL_MEM_USE_HOST_PTR)
    cltest::Mem statusMem_;
    unsigned abortableUs_ = 0;
};

}  // namespace splittest
