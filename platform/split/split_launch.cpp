// What every split launch in discrete memory starts with (split_launch.hpp).
#include "platform/split/split_launch.hpp"

#include "devices/backend_commands.hpp"
#include "platform/observe/trace.hpp"
#include "platform/split/chaos.hpp"
#include "platform/split/config.hpp"
#include "platform/split/split_common.hpp"

namespace hetero {

void SplitLaunch::begin(Kernel& k, const std::vector<KernelArg>& a, const LaunchGeometry& l, const SplitDecision& decision) {
    context = Ref<Context>(k.context());
    resources = context->sharedSplitResources();
    kernel = Ref<Kernel>(&k);
    variants = k.variants();
    args = a;
    name = k.name();
    launch = l;
    probe = decision.probe;
    started = splitClock();
    traceBegin = trace::now();
    const bool cpuPart = decision.nwaySlots.empty() || decision.nwayCpuShare > 0;
    quiet = backend::QuietWaits(cpuPart && quietWaits());
    if (!launch.hasLocal) chooseLocalSize(launch, k.maxWorkGroupSize() ? k.maxWorkGroupSize() : 1);
    range = toNDRange(launch);
    groups = range.numGroups();
}

void SplitLaunch::enqueueChunk(unsigned slot, cl_command_queue queue, uint64_t lo, uint64_t hi, unsigned groupSplit,
                               const std::vector<cl_event>& wait, backend::Event& done, unsigned objectsOf) const {
    const cl_uint numArgs = static_cast<cl_uint>(args.size());
    // Arguments are captured at enqueue: the lock need not cover the chunk's run.
    std::lock_guard lock(variants->mutex);
    if (!variants->chunk[slot]) fail(CL_INVALID_OPERATION);
    KernelVariants::LaneCommand c = variants->chunkOn(slot, queue);
    kernel->applyArgs(c.kernel, slot, args, objectsOf);
    for (const auto& sl : transform::chunkLaunches(range, lo, hi, groupSplit)) {
        setVariantExtraArgs(c.kernel, numArgs, sl.extraArgs);
        check(backend::enqueueKernel(queue, c.kernel, sl.dims, sl.offset, sl.global, sl.local, wait, done.receive()));
    }
    c.choice.ran(done.get());
}

void SplitLaunch::enqueuePart(unsigned slot, cl_command_queue queue, uint64_t lo, uint64_t hi,
                              const std::vector<cl_event>& wait, backend::Event& done, unsigned objectsOf) const {
    if (lo == hi) {
        check(backend::enqueueMarker(queue, wait, done.receive()));
        return;
    }
    const bool maySplitGroups =
        chaos::on() && !variants->fixedWorkGroupSize && transform::groupSplitAllowed(*variants->analysis, range);
    const unsigned groupSplit = maySplitGroups ? transform::groupSplitFor(range, 1, 1 + chaos::below(16)) : 1;
    enqueueChunk(slot, queue, lo, hi, groupSplit, wait, done, objectsOf);
}

}  // namespace hetero
