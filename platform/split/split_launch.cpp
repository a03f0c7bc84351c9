// What every split launch in discrete memory starts with (split_launch.hpp).
#include "platform/split/split_launch.hpp"

#include "platform/observe/trace.hpp"
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
    if (!launch.hasLocal) chooseLocalSize(launch, k.maxWorkGroupSize() ? k.maxWorkGroupSize() : 1);
    range = toNDRange(launch);
    groups = range.numGroups();
}

}  // namespace hetero
