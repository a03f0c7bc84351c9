// Public interface of Hetero's kernel transformation library (transform/).
// The split engine uses only what is declared here; everything else in transform/ is private.
//
// Contract in short: analyze() parses an OpenCL C program with libclang and tells, per kernel,
// what it touches and whether a launch may be split; makeVariants() returns one rewritten program
// source holding, for every splittable kernel K, two extra kernels:
//   K__hetero_chunk  runs on the CPU: a sub-NDRange of the original launch (see chunkLaunches()),
//                    every work-item function returning the original launch's values;
//   K__hetero_abort  runs on the GPU: the whole NDRange; each work-group returns early once the
//                    status word says the CPU has completed it (only where docs/hazards.md H1 allows).
// Both take the application's arguments first, unchanged, then the extra arguments described below,
// so application argument indices stay valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hetero::transform {

enum class AddressSpace { Private, Global, Constant, Local };

struct ParamInfo {
    std::string name;
    std::string typeSpelling;          // as clang spells it, e.g. "__global float *"
    AddressSpace addressSpace = AddressSpace::Private;  // of the pointee for pointers
    bool isPointer = false;
    bool pointeeConst = false;
    bool isRestrict = false;
    bool isImage = false;
    bool isSampler = false;
    size_t elementSize = 0;            // scalar element size of the pointee (float4 -> 4), 0 unknown
    bool mayRead = false;              // global/constant memory reachable through it may be read
    bool mayWrite = false;             // ... may be written
    std::vector<size_t> storeSizes;    // distinct scalar sizes it is written through (H2)
};

struct KernelAnalysis {
    std::string name;
    std::vector<ParamInfo> params;
    bool usesGlobalAtomics = false;
    bool usesLocalAtomics = false;
    bool usesBarrier = false;
    bool usesLocalMemory = false;
    bool usesPrintf = false;
    bool usesImages = false;
    bool usesAsyncCopies = false;      // async_work_group_copy / async_work_group_strided_copy
    bool usesProgramScopeVariables = false;
    bool storesBeforeLoopEnds = false; // a global store can happen inside a loop (limits abort points)
    bool splittable = false;
    std::string reason;                // why not splittable; empty when splittable
};

struct ProgramAnalysis {
    bool parsed = false;               // false: clang could not parse; nothing is splittable
    std::string log;                   // diagnostics and per-kernel reasons, for the build log
    std::vector<KernelAnalysis> kernels;
    const KernelAnalysis* find(const std::string& kernelName) const;
};

// sources: the strings given to clCreateProgramWithSource, in order; options: the build options.
ProgramAnalysis analyze(const std::vector<std::string>& sources, const std::string& options);

struct Variants {
    std::string source;                // original program + the __hetero_chunk/__hetero_abort kernels
    std::string log;
};
// Only kernels that `analysis` calls splittable get variants. The rewritten program is parsed again,
// and a kernel whose variants would not compile is left out (Variants::log says why): treat a missing
// K__hetero_chunk / K__hetero_abort as "run this kernel whole". Build it with the application's options.
Variants makeVariants(const std::vector<std::string>& sources, const std::string& options,
                      const ProgramAnalysis& analysis);

// --- Launch helpers: the extra arguments, computed here so engine and variants agree. ---

struct NDRange {
    unsigned dims = 1;
    size_t offset[3] = {0, 0, 0};
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {1, 1, 1};       // never 0: the engine resolves a NULL local size first
    uint64_t numGroups() const;        // flattened count; the last group per dim may be partial
};

struct ExtraArg {                      // one clSetKernelArg(kernel, firstExtraIndex + i, size, value)
    size_t size = 0;
    std::vector<unsigned char> value;
};

struct SubLaunch {                     // one clEnqueueNDRangeKernel of K__hetero_chunk
    unsigned dims = 1;
    size_t offset[3] = {0, 0, 0};
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {1, 1, 1};
    std::vector<ExtraArg> extraArgs;
};

// The sub-launches that together run exactly the work-groups with flattened IDs in [begin, end)
// (flattened ID = g0 + n0 * (g1 + n1 * g2)). At most 1/3/5 for 1/2/3-D; each has one extra argument
// (the original launch as a ulong16). A sub-launch ending in a partial last group has a global size
// that is not a multiple of the local size (OpenCL 2.0 non-uniform work-groups); only programs built
// for OpenCL C 2.0+ can have such launches in the first place.
// `split` > 1: FluidiCL §6.3, CPU work-group splitting: each work-group runs as `split` smaller ones
// along dimension 0 (local size divided by `split`, which must divide it; else 1), the chunk
// variant's work-item functions still giving the original launch's values. Only where
// groupSplitAllowed().
std::vector<SubLaunch> chunkLaunches(const NDRange& range, uint64_t begin, uint64_t end, unsigned split = 1);

// The flattened work-groups of `range` shared among parts in proportion to `weights`: the first
// work-group of each part, then numGroups() (part i is [bounds[i], bounds[i + 1])). Each inner
// bound is a whole number of rows of work-groups (3-D: of planes, where a plane is small enough),
// so that each part runs as one sub-launch (2-D) or a few big ones (3-D) of chunkLaunches: a part
// that started inside a row would run that row's few work-groups as a launch of their own, which
// leaves a GPU nearly idle for as long as one work-group takes (two H100s, 3mm's second product:
// 6.6 ms for a half that natively takes 5.6). A part under 1/8 of the largest (a CPU's beside GPUs)
// is rounded to whole rows too, to none if under half a row. Unaligned (`aligned` false, or a row
// more than 1/16 of a part): the bounds fall where the weights say.
std::vector<uint64_t> partBounds(const NDRange& range, const std::vector<double>& weights, bool aligned = true);

// Whether the chunk variant of `kernel` may run its work-groups split on this launch: no barriers,
// no local memory, no sub-groups (which see work-items of one group together), and only whole
// work-groups along dimension 0.
bool groupSplitAllowed(const KernelAnalysis& kernel, const NDRange& range);
// The split that keeps `computeUnits` busy with a chunk of `groups` work-groups: the largest
// divisor of the local size along dimension 0 up to ceil(computeUnits / groups); 1 when the
// chunk has work-groups enough.
unsigned groupSplitFor(const NDRange& range, uint64_t groups, unsigned computeUnits);

// The abortable variant's extra arguments: the status buffer (a cl_mem of two cl_uint: launch id,
// lowest flattened work-group ID the CPU has completed; groups >= it are skipped) and this launch's id.
// The caller sets the cl_mem argument itself at index firstExtraIndex; these follow it.
// Protocol: before K__hetero_abort is enqueued the buffer must already hold {launchId, numGroups()}
// (or another launch id), since a work-group may read both words while they change; during the
// launch only status[1] changes, and only downwards, each time after the data it covers has arrived.
// The two words are read as one 8-byte load: pass the buffer itself (offset 0), not a sub-buffer.
std::vector<ExtraArg> abortExtraArgs(const NDRange& range, uint32_t launchId);

}  // namespace hetero::transform
