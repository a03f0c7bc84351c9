// The OpenCL API as Hetero implements it: the standard prototypes (cl.h, cl_ext.h) are ours;
// the linker version script keeps every one of them private except the ICD entry points.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
