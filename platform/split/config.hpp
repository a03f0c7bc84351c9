// How splitting is configured: HETERO_SPLIT and HETERO_CPU_SHARE (etc/hetero.conf documents both).
#pragma once

namespace hetero {

enum class SplitMode { Off, Auto, Always };

// HETERO_SPLIT: off, auto (split where the history says it pays) or always. Read once.
SplitMode splitMode();

// HETERO_CPU_SHARE in [0,1]: a fixed share of the work-groups for the CPU (static split); <0: adaptive.
double cpuShare();

// HETERO_SPLIT_BUILD: eager builds a program's split variants with the program; lazy (default)
// when a launch of one of its kernels first wants to split.
bool eagerVariantBuilds();

}  // namespace hetero
