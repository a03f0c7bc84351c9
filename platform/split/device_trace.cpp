#include "platform/split/device_trace.hpp"

#include "platform/engine/backend_clock.hpp"
#include "platform/engine/event.hpp"
#include "platform/objects/context.hpp"
#include "platform/objects/platform.hpp"

namespace hetero {

void calibrateForTrace(Context& context, unsigned slot) {
    if (trace::enabled()) backend_clock::calibrate(slot, context.backend(slot), Device::instance()->slots()[slot].device);
}

void traceOnDeviceClock(unsigned slot, const trace::Lane& lane, const std::string& name, cl_event from,
                        cl_profiling_info fromWhat, cl_event to, std::vector<trace::Arg> args) {
    cl_ulong begin = 0, end = 0;
    if (!trace::enabled() || !from || !to || !backend_clock::known(slot) ||
        backend::profilingTime(from, fromWhat, &begin) != CL_SUCCESS ||
        backend::profilingTime(to, CL_PROFILING_COMMAND_END, &end) != CL_SUCCESS)
        return;
    const double nowUs = trace::now();
    const double nowNs = double(hostNanoseconds());
    auto onTrace = [&](cl_ulong deviceNs) { return nowUs - (nowNs - double(backend_clock::toHost(slot, deviceNs))) * 1e-3; };
    trace::span(lane, name, onTrace(begin), onTrace(end), std::move(args));
}

}  // namespace hetero
