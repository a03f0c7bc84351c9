// Small things the split engines (discrete_split, nway_split, unified_split) use.
#pragma once

#include "platform/engine/event_tail.hpp"

#include <CL/cl.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace hetero {

class DiscreteStorage;
class Storage;
struct KernelArg;

// A slot's compute units (at least 1): the smallest chunk worth giving it.
cl_uint computeUnits(unsigned slot);

// Seconds on the steady clock, for the split history's timings.
double splitClock();

// A storage's copies per slot: a discrete split runs only in a discrete context (launch.cpp,
// decision.cpp), where every object keeps a copy per slot; throws CL_INVALID_OPERATION otherwise.
DiscreteStorage& copiesOf(Storage& s);

// The storages of a launch's memory arguments, each once, locked in address order (as submitWith
// locks them) until `locks` is cleared or this goes.
struct ArgumentStorages {
    std::vector<DiscreteStorage*> storages;
    std::vector<std::unique_lock<std::mutex>> locks;
};
ArgumentStorages lockArgumentStorages(const std::vector<KernelArg>& args);

// The end of a split launch's submission, for both discrete engines: `done` (the user event that
// completes the launch, owned by the run) gets one more reference, returned for the command's
// event; the command completes only when `tail` finishes (it joins `tails`, the submission's);
// `inFlight` counts the launch until its thread, `run` on a split worker, says otherwise.
cl_event handToSplitThread(cl_event done, const std::shared_ptr<Tail>& tail, Tails& tails,
                           std::atomic<unsigned>& inFlight, std::function<void()> run);

// The end of such a thread (nway_split, one_device_split): lets go of `run` first (the context,
// kernel and memory objects it keeps: an application that releases everything once the launch
// completes must see its objects go at once), then completes `done` (owned) with `status`, counts
// the launch out of `inFlight`, and finishes `tail` last: once the application sees the launch
// complete it may exit.
void finishSplitThread(std::shared_ptr<void> run, cl_event done, cl_int status, std::shared_ptr<Tail> tail,
                       std::atomic<unsigned>& inFlight);

}  // namespace hetero
