// OpenCL entry points for events and their callbacks: validate, translate handles, hand off to engine/event.hpp.
#include "platform/engine/event.hpp"

#include "platform/api/api.hpp"
#include "platform/engine/queue.hpp"
#include "platform/observe/trace.hpp"
#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include <atomic>
#include <chrono>
#include <cmath>
#include <unordered_map>

using namespace hetero;

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
    return guarded([&] {
        require(num_events > 0 && event_list != nullptr, CL_INVALID_VALUE);
        std::vector<Held<Event>> events;
        for (cl_uint i = 0; i < num_events; ++i) {
            auto e = fromHandle<Event>(event_list[i]);
            require(e != nullptr, CL_INVALID_EVENT);
            require(events.empty() || e->context() == events[0]->context(), CL_INVALID_CONTEXT);
            events.push_back(std::move(e));
        }
        // No implicit flush needed: Hetero hands commands to the backends (and flushes them) as
        // soon as their dependencies allow.
        cl_int result = CL_SUCCESS;
        for (const auto& e : events)
            if (e->waitInOrder() < 0) result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
        return result;
    });
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size, void* param_value,
                                  size_t* param_value_size_ret) {
    return guarded([&] {
        auto e = fromHandle<Event>(event);
        require(e != nullptr, CL_INVALID_EVENT);
        return e->info(param_name, param_value_size, param_value, param_value_size_ret);
    });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
    return guardedCreate(errcode_ret, [&]() -> cl_event {
        auto c = fromHandle<Context>(context);
        require(c != nullptr, CL_INVALID_CONTEXT);
        return (new Event(c, nullptr, CL_COMMAND_USER))->handle();
    });
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
    auto e = fromHandle<Event>(event);
    if (!e) return CL_INVALID_EVENT;
    e->retain();
    return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
    auto e = fromHandle<Event>(event);
    if (!e) return CL_INVALID_EVENT;
    return e->releaseReference() ? CL_SUCCESS : CL_INVALID_EVENT;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
    return guarded([&] {
        auto e = fromHandle<Event>(event);
        require(e != nullptr, CL_INVALID_EVENT);
        e->setUserStatus(execution_status);
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      void(CL_CALLBACK* pfn_notify)(cl_event, cl_int, void*), void* user_data) {
    return guarded([&] {
        auto e = fromHandle<Event>(event);
        require(e != nullptr, CL_INVALID_EVENT);
        require(pfn_notify != nullptr, CL_INVALID_VALUE);
        require(command_exec_callback_type == CL_SUBMITTED || command_exec_callback_type == CL_RUNNING ||
                    command_exec_callback_type == CL_COMPLETE,
                CL_INVALID_VALUE);
        e->addCallback(command_exec_callback_type, pfn_notify, user_data);
        return CL_SUCCESS;
    });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name, size_t param_value_size,
                                           void* param_value, size_t* param_value_size_ret) {
    return guarded([&] {
        auto e = fromHandle<Event>(event);
        require(e != nullptr, CL_INVALID_EVENT);
        return e->profilingInfo(param_name, param_value_size, param_value, param_value_size_ret);
    });
}
