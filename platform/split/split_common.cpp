#include "platform/split/split_common.hpp"

#include "devices/backend_objects.hpp"
#include "platform/memory/discrete_storage.hpp"
#include "platform/objects/kernel.hpp"
#include "platform/objects/memobj.hpp"
#include "platform/objects/platform.hpp"
#include "platform/split/split_workers.hpp"
#include "platform/support/error.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace hetero {

cl_uint computeUnits(unsigned slot) {
    // Asked of the backends once: the slots are fixed for the process, and launches ask on their way.
    static const std::vector<cl_uint>* units = [] {
        auto* v = new std::vector<cl_uint>;  // never destroyed: split threads may ask during exit
        for (const auto& s : Device::instance()->slots()) {
            cl_uint n = 1;
            backend::deviceInfo(s.device, CL_DEVICE_MAX_COMPUTE_UNITS, n);
            v->push_back(std::max(1u, n));
        }
        return v;
    }();
    return slot < units->size() ? (*units)[slot] : 1;
}

double splitClock() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

DiscreteStorage& copiesOf(Storage& s) {
    DiscreteStorage* copies = s.discrete();
    if (!copies) fail(CL_INVALID_OPERATION);
    return *copies;
}

ArgumentStorages lockArgumentStorages(const std::vector<KernelArg>& args) {
    ArgumentStorages a;
    for (const auto& arg : args)
        if (arg.mem) a.storages.push_back(&copiesOf(arg.mem->storage()));
    std::sort(a.storages.begin(), a.storages.end());
    a.storages.erase(std::unique(a.storages.begin(), a.storages.end()), a.storages.end());
    for (DiscreteStorage* s : a.storages) a.locks.emplace_back(s->mutex);
    return a;
}

cl_event handToSplitThread(cl_event done, const std::shared_ptr<Tail>& tail, Tails& tails,
                           std::atomic<unsigned>& inFlight, std::function<void()> run) {
    backend::retainEvent(done);  // one for the command's event, one for the thread
    tails.push_back(tail);
    ++inFlight;
    runOnSplitWorker(std::move(run));
    return done;
}

void finishSplitThread(std::shared_ptr<void> run, cl_event done, cl_int status, std::shared_ptr<Tail> tail,
                       std::atomic<unsigned>& inFlight) {
    run.reset();
    backend::complete(done, status);
    backend::releaseEvent(done);
    --inFlight;
    tail->finish();
}

}  // namespace hetero
