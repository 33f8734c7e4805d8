/*
 * The running side of a launch plan (plan.h): the lab's device code loaded
 * from its compiled form, and each step of a plan done on the default
 * stream of this process's GPU context. Nothing of the lab's host code is
 * in this process.
 */
#ifndef TILELAB_PLAN_RUN_H
#define TILELAB_PLAN_RUN_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "plan.h"

typedef struct tl_plan_module tl_plan_module;

/*
 * The device code in `path` (a fat binary, as nvcc puts into an object's
 * .nv_fatbin section) loaded into the current device's primary context,
 * with the table of its kernels and their parameters. NULL, with why, when
 * it cannot be loaded.
 */
tl_plan_module *tl_plan_load(const char *path, char *why, size_t why_len);
/* The table, each kernel's limits as they are now (plan.h), for a request. */
const tl_plan_table *tl_plan_kernels(tl_plan_module *m);

/*
 * The plan's steps, in order, on the default stream, without waiting: each
 * launch goes into the launch log (launch.h) first. A step that names a
 * kernel or parameters the table does not hold, or memory that is not one
 * device allocation of this context, is refused, with why. A launch the
 * recording refused (its step's refused) is logged and not run. cudaSuccess
 * or, after the steps, the error the call left (plan->error); or the first
 * error: a launch's error leaves why as it was (the launch log says more of
 * it, gpu.c).
 */
cudaError_t tl_plan_run(const tl_plan_module *m, const tl_plan *plan, char *why, size_t why_len);

#endif
