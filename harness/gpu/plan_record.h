/*
 * The recording side of a launch plan (plan.h): linked into a GPU lab's lab
 * process, in front of the CUDA runtime.
 */
#ifndef TILELAB_PLAN_RECORD_H
#define TILELAB_PLAN_RECORD_H

#include <cuda_runtime_api.h>

#include "plan.h"

/*
 * From begin to end, what the lab's code asks of the runtime is written
 * into plan (the kernels' parameters laid out as table says) and not done;
 * plan->refused says what could not be recorded. Both stay the caller's.
 */
void tl_plan_record_begin(const tl_plan_table *table, tl_plan *plan);
void tl_plan_record_end(void);

/* The bytes the lab's __device__ and __constant__ variables hold, as the CUDA module
 * registered them. */
size_t tl_plan_variable_bytes(void);

#endif
