#include "platform/split/resources.hpp"

#include "devices/backend_objects.hpp"
#include "devices/distinct_build.hpp"
#include "devices/kernel_lanes.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/kept_binaries.hpp"
#include "platform/observe/trace.hpp"

namespace hetero {

namespace {
backend::Queue internalQueue(Context& context, unsigned s) {
    // Profiled only for the trace, which draws the split's kernels on the devices' clocks.
    return backend::queue(context.backend(s), Device::instance()->slots()[s].device,
                          trace::enabled() ? CL_QUEUE_PROFILING_ENABLE : 0);
}
}  // namespace

SplitResources::Slot& SplitResources::slot(unsigned s) {
    std::lock_guard lock(mutex);
    Slot& r = *slots[s];
    if (!r.queue) {
        r.queue = internalQueue(*context, s);
        if (!r.queue) fail(CL_OUT_OF_RESOURCES);
    }
    return r;
}

cl_command_queue SplitResources::takeAheadQueue(unsigned s) {
    std::lock_guard lock(mutex);
    Slot& r = *slots[s];
    if (r.aheadTaken) return nullptr;
    if (!r.aheadQueue) r.aheadQueue = internalQueue(*context, s);
    if (!r.aheadQueue) return nullptr;
    r.aheadTaken = true;
    return r.aheadQueue.get();
}

void SplitResources::giveAheadQueue(unsigned s) {
    std::lock_guard lock(mutex);
    slots[s]->aheadTaken = false;
}

SplitResources::~SplitResources() {
    // No clFinish (see Queue::~Queue): this may run on a backend's callback thread, when the
    // context goes with an event's last reference. The split threads that used the queue waited
    // for their work before letting go of these resources.
    // The queues go first, before the merge kernels and pooled buffers.
    for (auto& r : slots) {
        r->queue.reset();
        r->aheadQueue.reset();
    }
}

std::shared_ptr<SplitResources> Context::sharedSplitResources() {
    std::call_once(splitOnce_, [this] {
        auto r = std::make_shared<SplitResources>();
        r->context = this;
        for (unsigned s = 0; s < slotCount(); ++s) {
            const hetero::Slot& slot = Device::instance()->slots()[s];
            cl_context c = backend(s);
            // The merge kernels come from a kept binary like any program (NVIDIA: 4-5 ms against 2).
            // They run with offsets and sizes that change from merge to merge: on a PoCL device
            // another context's must not share their kernel hash (distinct_build.hpp), nor the
            // commands of another queue in flight at once (a lane's build, kernel_lanes.hpp); such
            // builds are made from source (see ProgramVariants::build). The names are held as long
            // as the kernels (the builder lives in them; it runs under the set's lock).
            auto names = std::make_shared<std::vector<std::unique_ptr<DistinctBuild>>>();
            auto build = [slot, c, names](const std::string& source, unsigned lane) {
                names->push_back(std::make_unique<DistinctBuild>(slot, source, laneBuildOptions("", lane)));
                const std::string& options = names->back()->options();
                return kept_binaries::build(slot, c, source, options, options.empty());
            };
            r->slots.push_back(std::make_unique<SplitResources::Slot>(build, slot.isPocl()));
        }
        split_ = std::move(r);
    });
    return split_;
}

}  // namespace hetero
