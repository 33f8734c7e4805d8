/*
 * A suite's side of the lab process (lab_process.h): the backend that runs
 * each check's lab code there, and the technique checks' one call.
 */
#ifndef TILELAB_LAB_CLIENT_H
#define TILELAB_LAB_CLIENT_H

#include <stddef.h>

#include "check.h"
#include "plan.h"

/*
 * The backend of this suite's lab, run in the lab process: 1 and *backend
 * when it can run the lab here; 0 when it cannot (a GPU lab on a machine
 * without one), and -1 when the lab process failed; why says why.
 */
int tl_lab_backend(const tl_backend **backend, char *why, size_t why_len);

/*
 * The entry point (one of lab.h's, cast) run once in the lab process on
 * zeroed device buffers of shape s: afterwards the launch log (launch.h)
 * and TODO's message (check.h) are those of that run. 0, or -1 with why.
 */
int tl_lab_first_launch(void (*entry)(void), tl_shape s, char *why, size_t why_len);

/*
 * The launch plan (plan.h) of the entry point called in the lab process on
 * the device buffers device[] of shape s, its kernels' parameters laid out
 * as table says: 0 with *plan (plan->refused says what the recording
 * refused), or -1 with why; TODO's message is the call's.
 */
int tl_lab_plan(void (*entry)(void), tl_shape s, const unsigned long long device[3],
                const tl_plan_table *table, tl_plan *plan, char *why, size_t why_len);

/* Ends the lab process, and every process it started. */
void tl_lab_stop(void);

/* The lab process's program; by default lab-runner beside this one. */
void tl_lab_runner_at(const char *path);

/* What a signal that kills a process running lab code usually means. */
const char *tl_signal_meaning(int sig);

#endif
