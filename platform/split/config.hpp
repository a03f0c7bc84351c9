// How splitting is configured: HETERO_SPLIT, HETERO_CPU_SHARE, HETERO_SPLIT_NWAY(_CPU), HETERO_QUIET_WAITS
// and HETERO_GPU_SLOTS
// (etc/hetero.conf documents them).
#pragma once


namespace hetero {

enum class SplitMode { Off, Auto, Always };

// HETERO_SPLIT: off, auto (split where the history says it pays) or always. Read once.
SplitMode splitMode();

// HETERO_CPU_SHARE in [0,1]: a fixed share of the work-groups for the CPU (static split); <0: adaptive.
double cpuShare();

// HETERO_SPLIT_NWAY: on (default) or off. On, a launch that splits in discrete memory from one of
// two or more GPU slots (Backends::gpuSlots) is split over all of them (nway_split.hpp); off, between one GPU
// and one CPU as before. Read once.
bool nwaySplits();

// HETERO_SPLIT_NWAY_CPU: on (default) or off. On, the CPU slot joins an N-way split over GPUs of
// their own with an exclusive range at the top of the work-groups, sized from the speeds measured
// in earlier splits (decision.cpp, nwayCpuJoins); off, N-way splits are GPUs only. Read once.
bool nwayCpuJoins();

// HETERO_QUIET_WAITS: on (default) or off. On, while a split's CPU part may run, Hetero's waits for
// backend commands sleep instead of spinning (devices/backend_commands.hpp, QuietWaits): the CPU
// part runs faster and steadier on the H100 machine (docs/results/h100-session27, -session28). Read once.
bool quietWaits();

// HETERO_SPLIT_BUILD: eager builds a program's split variants with the program; lazy (default)
// when a launch of one of its kernels first wants to split, or where auto mode's history says one
// will (SplitHistory::prebuildVariants).
bool eagerVariantBuilds();

// HETERO_TEST_SPLIT_ONLY=gpu|cpu: a measuring knob whose RESULTS ARE WRONG on purpose (bench/run's
// real-ideal configurations only). With HETERO_CPU_SHARE=s, every launch of a splittable kernel runs
// only one side of that static split: gpu, the GPU slot's abortable kernel skipping the top s of the
// work-groups from the start, as a static split's GPU side does; cpu, the CPU slot's chunks over
// the top s. The other groups are never computed. Variants are built eagerly. Read once; a warning
// says so when set. Off without HETERO_CPU_SHARE.
enum class OnlySide { Off, Gpu, Cpu };
OnlySide testOnlySide();

}  // namespace hetero
