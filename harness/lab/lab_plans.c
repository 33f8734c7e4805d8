/*
 * lab.h's entry points in a program that runs a student's GPU lab without
 * holding its host code, called by their handles (op.h, call.h's
 * tl_call_invoke): each call asks the lab process for the call's
 * launch plan (plan.h) and runs the plan here. The lab's kernels come from
 * its device code alone (lab.fatbin), loaded into this process; its host
 * code runs only in the lab process. Two programs link this:
 *
 * - the grader's bench (grade-bench), the lab process built beside it in
 *   student/. As soon as a plan has come, the lab process and every
 *   process it started are ended (lab_client.c): nothing of the student's
 *   runs on the host, or holds a GPU context, while anything is timed or
 *   any result is written. A call with the arguments of one made before
 *   runs that call's plan again, without asking: a lab's function launches
 *   the same work for the same arguments (lab.h). The bench gives each
 *   timed call inputs at new addresses, and has all their plans made, by
 *   one lab process, before it times any (tl_gpu_lab_plans_ahead): the
 *   events time the kernels alone, and no call that is timed waits for a
 *   plan.
 * - a suite built for a GPU, the lab process beside it, once
 *   tl_lab_plans_backend has been asked for (lab_client.h). The lab
 *   process stays (nothing is timed), each call asks for its own plan, and
 *   the launch log holds the last call's launches, as this process ran
 *   them: the launches a technique check reads are those of a run whose
 *   output the suite checked.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu.h"
#include "lab_client.h"
#include "plan_run.h"

static tl_plan_module *module;
static char load_failed[1024];
static int in_suite;

static void run_entry(int entry, const tl_call *c, float *const m[TL_CALL_MATRICES], tl_shape s);

/* A suite's calls reach the plans through here too, whatever ran first: the suite's
 * server serves from a constructor of its own (suite_server.c). */
const tl_backend *tl_lab_plans_backend(void)
{
    in_suite = 1;
    tl_call_handle_entries(run_entry);
    return &tl_gpu_backend;
}

/* The plans made outside a suite, each with the call it is for: the key is
 * the call's arguments as the entry point below passes them on. */
typedef struct {
    void (*entry)(void);
    tl_shape s;
    unsigned long long device[3];
    tl_plan *plan;
} made_plan;
static made_plan *made;
static int n_made, room;
static tl_plan suite_plan; /* a suite's call: asked for each time */
static int ahead;          /* between tl_gpu_lab_plans_ahead(1) and (0) */

/* What the last call left: its error, and what the kit said of it. */
static cudaError_t pending;
static char said[1024];

cudaError_t tl_gpu_lab_error(const char **text)
{
    static char given[sizeof said]; /* what *text points to, until the next call */
    cudaError_t err = pending ? pending : cudaGetLastError();
    snprintf(given, sizeof given, "%s", said);
    if (text)
        *text = pending && given[0] ? given : NULL;
    pending = cudaSuccess;
    said[0] = '\0';
    return err;
}

/* The lab process's files: beside a suite, in student/ beside the bench. */
static int load(void)
{
    char fatbin[4096];
    if (module)
        return 0;
    if (load_failed[0])
        return -1;
    if (!in_suite)
        tl_lab_runner_at("student/lab-runner");
    if (tl_lab_beside(fatbin, sizeof fatbin, in_suite ? "lab.fatbin" : "student/lab.fatbin") != 0) {
        snprintf(load_failed, sizeof load_failed, "tilelab: cannot find this program's own folder");
        return -1;
    }
    module = tl_plan_load(fatbin, load_failed, sizeof load_failed);
    return module ? 0 : -1;
}

static void fail(cudaError_t err, const char *text)
{
    pending = err;
    snprintf(said, sizeof said, "%s", text);
}

/* The plan of entry on these buffers and shape: one made before for the
 * same arguments, else asked for now. NULL with the error pending. */
static const tl_plan *plan_for(void (*entry)(void), tl_shape s, const void *d0, const void *d1, const void *d2)
{
    unsigned long long device[3] = {(uintptr_t)d0, (uintptr_t)d1, (uintptr_t)d2};
    char why[2048] = "";
    if (load() != 0) {
        fail(cudaErrorInvalidSource, load_failed);
        return NULL;
    }
    for (int i = 0; !in_suite && i < n_made; i++)
        if (made[i].entry == entry && !memcmp(&made[i].s, &s, sizeof s) &&
            !memcmp(made[i].device, device, sizeof device))
            return made[i].plan;
    if (!in_suite && n_made == room) {
        room = room ? 2 * room : 32;
        made = realloc(made, (size_t)room * sizeof *made);
    }
    tl_plan *plan = in_suite ? &suite_plan : malloc(sizeof *plan);
    if ((!in_suite && !made) || !plan) {
        fail(cudaErrorMemoryAllocation, "tilelab: out of host memory for launch plans");
        return NULL;
    }
    int rc = tl_lab_plan(entry, s, device, tl_plan_kernels(module), plan, why, sizeof why);
    if (!in_suite && !ahead)
        tl_lab_stop();
    if (rc != 0) {
        fail(cudaErrorLaunchFailure, why);
        if (!in_suite)
            free(plan);
        return NULL;
    }
    if (!in_suite)
        made[n_made++] = (made_plan){entry, s, {device[0], device[1], device[2]}, plan};
    return plan;
}

int tl_lab_plans_usable(void)
{
    cudaGetLastError(); /* a refused launch's error is its call's alone */
    return cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess;
}

int tl_gpu_lab_plans_ahead(int on)
{
    if (in_suite)
        return 0;
    ahead = on;
    if (!on)
        tl_lab_stop();
    return 1;
}

static void call(void (*entry)(void), tl_shape s, const void *d0, const void *d1, const void *d2)
{
    char why[2048] = "";
    if (in_suite)
        tl_launch_reset();
    const tl_plan *plan = plan_for(entry, s, d0, d1, d2);
    if (!plan || ahead)
        return;
    if (plan->refused[0]) {
        fail(cudaErrorNotSupported, plan->refused);
        return;
    }
    cudaError_t err = tl_plan_run(module, plan, why, sizeof why);
    if (err)
        fail(err, why);
}

/* lab.h's entry points, called by their handles (op.h), as plans: on the call's device
 * buffers, those it takes, and its shape as the operation has it (a 2-D one has depth 1). */
static void run_entry(int entry, const tl_call *c, float *const m[TL_CALL_MATRICES], tl_shape s)
{
    const void *d[TL_CALL_MATRICES] = {NULL, NULL, NULL};
    for (int i = 0; i < c->matrices; i++)
        d[i] = m[i];
    if (tl_entry_op(entry)->dims != 3)
        s.depth = 1;
    call(tl_entry_handle(entry), s, d[0], d[1], d[2]);
}

/* Before the suite's server's constructor (priority 102, suite_server.c), which serves its
 * calls from there and never returns: a server with no handler aborted at its first call. */
__attribute__((constructor(101))) static void handle_entries(void)
{
    tl_call_handle_entries(run_entry);
}
