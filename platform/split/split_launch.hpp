// What every split launch in discrete memory holds while its thread runs, whichever engine splits
// it (discrete_split.cpp: the GPU + CPU pair; nway_split.cpp: several GPUs): the objects it keeps
// alive, its geometry, and when it began.
#pragma once

#include "devices/backend_commands.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/split/decision.hpp"
#include "platform/split/launch_geometry.hpp"
#include "platform/split/resources.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hetero {

struct SplitLaunch {
    Ref<Context> context;
    std::shared_ptr<SplitResources> resources;  // outlives the context while the launch's thread runs
    Ref<Kernel> kernel;
    std::shared_ptr<KernelVariants> variants;
    std::vector<KernelArg> args;  // keeps the memory objects alive
    std::string name;
    LaunchGeometry launch;        // with a local size chosen where the application gave none
    transform::NDRange range;
    uint64_t groups = 0;
    std::shared_ptr<ProbeTicket> probe;  // the launch is a probe (auto mode)
    double started = 0;                  // splitClock() at submission, for the history
    double traceBegin = 0;               // trace::now() at the same moment
    // Held from submission until the CPU part is done, where the split has one: waits block rather
    // than spin meanwhile (devices/backend_commands.hpp). The engine releases it.
    backend::QuietWaits quiet;

    // Fills all of the above for `kernel` launched as `launch` with `args`, as `decision` decided.
    void begin(Kernel& kernel, const std::vector<KernelArg>& args, const LaunchGeometry& launch,
               const SplitDecision& decision);

    // Enqueues `slot`'s chunk variant over the work-groups [lo, hi) on `queue`, each work-group run
    // as `groupSplit` smaller ones (transform::chunkLaunches), after `wait`; `done` becomes the last
    // sub-launch's event. Throws Error. [lo, hi) must not be empty.
    // With `objectsOf`: over that slot's memory objects and samplers (one backend context:
    // Kernel::applyArgs).
    void enqueueChunk(unsigned slot, cl_command_queue queue, uint64_t lo, uint64_t hi, unsigned groupSplit,
                      const std::vector<cl_event>& wait, backend::Event& done) const {
        enqueueChunk(slot, queue, lo, hi, groupSplit, wait, done, slot);
    }
    void enqueueChunk(unsigned slot, cl_command_queue queue, uint64_t lo, uint64_t hi, unsigned groupSplit,
                      const std::vector<cl_event>& wait, backend::Event& done, unsigned objectsOf) const;

    // An N-way split's part (nway_split.hpp, one_device_split.hpp): enqueueChunk over [lo, hi) as
    // it is, a marker where it is empty. Under the chaos knob its work-groups run split at random.
    void enqueuePart(unsigned slot, cl_command_queue queue, uint64_t lo, uint64_t hi, const std::vector<cl_event>& wait,
                     backend::Event& done, unsigned objectsOf) const;
};

}  // namespace hetero
