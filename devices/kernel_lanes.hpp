// Which build of one of Hetero's own kernels a command on a PoCL device runs. PoCL 3.1-5.0 give
// back a command's loaded kernel by kernel hash and local size only (distinct_build.hpp): commands
// of one kernel hash in flight at once with different global offsets or sizes abort the process
// ("pocl_release_dlhandle_cache: Assertion `found->ref_count > 0'"). Hetero's own kernels (the
// split variants, the merge kernels) run so: with offsets and sizes that change from command to
// command, from several queues of one context at once (each application queue's launches, the
// split threads' queues). DistinctBuild names each context's and slot's build apart; lanes name
// apart the commands of one build that several queues have in flight.
//
// A kernel's lanes are builds of its program, each with a kernel hash of its own (lane 0: the
// program as first built). A command takes the lane its queue's last command took while that is
// still the lane's last (the queue is in order), else a lane whose last command is over, else a new
// lane, built then (only while several queues run the kernel at once). So a lane's commands in
// flight are all on one queue. Nothing waits across queues: such a wait could close a cycle through
// the events the split threads complete.
//
// Elsewhere than on PoCL every command takes lane 0 and nothing is tracked.
//
// Test knob HETERO_TEST_LANE_CHECK=1: every command's event is kept until it is over, and a lane
// with commands of two queues in flight at once aborts the process with a message (what PoCL's
// abort would be, every time rather than now and then).
#pragma once

#include "devices/backend_commands.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace hetero {

class KernelLanes {
public:
    explicit KernelLanes(bool tracked) : tracked_(tracked) {}
    KernelLanes(const KernelLanes&) = delete;
    KernelLanes& operator=(const KernelLanes&) = delete;

    // A command's lane. Other commands of the kernel wait to choose until `ran`, or until the
    // choice goes without it (the enqueue failed, perhaps after some of its commands went in
    // flight: the lane then stays its queue's).
    class Choice {
    public:
        Choice() = default;
        Choice(Choice&&) = default;
        Choice& operator=(Choice&&) = default;
        ~Choice();
        unsigned lane() const { return lane_; }
        // Where the enqueue puts the command's event: `wanted` (the caller's, may be null), or one
        // of the lanes' own where the lanes need it and the caller does not.
        cl_event* event(cl_event* wanted);
        // The command (its last, where it made several on its queue) is enqueued, with event `done`
        // (a later command's on the same queue will do; null: event()'s own).
        void ran(cl_event done);

    private:
        friend class KernelLanes;
        KernelLanes* owner_ = nullptr;
        cl_command_queue queue_ = nullptr;
        std::unique_lock<std::mutex> lock_;
        unsigned lane_ = 0;
        backend::Event own_;
    };
    Choice choose(cl_command_queue queue);

private:
    struct Lane {
        cl_command_queue queue = nullptr;  // of its last command
        backend::Event last;
        bool bound = false;  // its last command had no event: only its queue takes it again
        std::vector<std::pair<cl_command_queue, backend::Event>> inFlight;  // HETERO_TEST_LANE_CHECK only
    };
    void record(Choice& choice, cl_event done);  // with the choice's lock held; lets it go
    const bool tracked_;
    std::mutex mutex_;
    std::vector<Lane> lanes_;
};

// The options of a lane's build: `options` for lane 0, else with a define of the lane's own.
std::string laneBuildOptions(const std::string& options, unsigned lane);

}  // namespace hetero
