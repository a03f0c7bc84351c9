/* Hetero's vendor extension: counters of what the engine did, and the per-context memory model.
 * Obtain the function with clGetExtensionFunctionAddressForPlatform(platform, "clGetHeteroCountersEXT").
 */
#ifndef CL_EXT_HETERO_H
#define CL_EXT_HETERO_H

#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CL_HETERO_COUNTERS_EXTENSION_NAME "cl_hetero_counters"

/* Indices into the array filled by clGetHeteroCountersEXT (see platform/observe/counters.hpp). */
#define CL_HETERO_BYTES_HOST_TO_DEVICE      0
#define CL_HETERO_BYTES_DEVICE_TO_HOST      1
#define CL_HETERO_BYTES_BETWEEN_DEVICES     2
#define CL_HETERO_MERGES                    3
#define CL_HETERO_LAUNCHES_WHOLE            4
#define CL_HETERO_LAUNCHES_SPLIT_DISCRETE   5
#define CL_HETERO_LAUNCHES_SPLIT_UNIFIED    6
#define CL_HETERO_WORK_GROUPS_TOTAL         7
#define CL_HETERO_WORK_GROUPS_CPU           8
#define CL_HETERO_NS_HOST_TO_DEVICE         9   /* time threads waited for uploads (from pinned host copies: none) */
#define CL_HETERO_NS_DEVICE_TO_HOST         10  /* time of the downloads counted in BYTES_DEVICE_TO_HOST */
#define CL_HETERO_PINNED_BYTES_ALLOCATED    11  /* page-locked memory pinned for host copies */
#define CL_HETERO_PINNED_REUSES             12  /* host copies that reused a kept pinned block */
#define CL_HETERO_HOST_COPIES_UNPINNED      13  /* host copies in ordinary memory (pinning failed, budget spent) */
#define CL_HETERO_BACKEND_KERNEL_ARGS       14  /* arguments given to backend kernels (their clSetKernelArg calls) */
#define CL_HETERO_LAUNCHES_SPLIT_NWAY       15  /* launches split over several GPU slots */
/* Work-groups run on slot 0 (whole, or its part of a split), slot 1 at +1, ... up to slot 7. */
#define CL_HETERO_WORK_GROUPS_SLOT0         16
#define CL_HETERO_WORK_GROUPS_SLOTS         8
#define CL_HETERO_PROGRAMS_FROM_KEPT_BINARIES 24  /* backend builds that loaded a binary kept by an earlier build */
#define CL_HETERO_MERGES_AHEAD              25  /* of MERGES, enqueued while the GPU kernel still ran */
#define CL_HETERO_VARIANT_BUILDS            26  /* builds of a program's split variants that ended */
#define CL_HETERO_SPLIT_CHUNKS              27  /* chunks the split engines enqueued on a CPU slot */
#define CL_HETERO_CHUNKS_REFUSED_AT_EXIT    28  /* of those, refused because the process was exiting */
#define CL_HETERO_COUNTER_COUNT             29

/* Copies up to `count` counters (process-wide, since start) into `values`; returns how many exist
 * in *count_ret. CL_INVALID_PLATFORM for a platform other than Hetero's; CL_INVALID_VALUE when
 * values is NULL with count > 0. */
typedef cl_int(CL_API_CALL* clGetHeteroCountersEXT_fn)(cl_platform_id platform, cl_uint count, cl_ulong* values,
                                                        cl_uint* count_ret);

/* Context property: the memory model of one context, overriding HETERO_MEMORY and detection. */
#define CL_CONTEXT_MEMORY_MODEL_HETERO      0x4F10
#define CL_MEMORY_MODEL_AUTO_HETERO         0
#define CL_MEMORY_MODEL_DISCRETE_HETERO     1
#define CL_MEMORY_MODEL_UNIFIED_HETERO      2

#ifdef __cplusplus
}
#endif

#endif
