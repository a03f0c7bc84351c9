// Small things both split engines (discrete_split, unified_split) use.
#pragma once

#include <CL/cl.h>

namespace hetero {

// A slot's compute units (at least 1): the smallest chunk worth giving it.
cl_uint computeUnits(unsigned slot);

// Seconds on the steady clock, for the split history's timings.
double splitClock();

}  // namespace hetero
