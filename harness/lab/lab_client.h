/*
 * A suite's side of the lab process (lab_process.h): the backend that runs
 * each check's lab code there, or has it plan each call's GPU work.
 */
#ifndef TILELAB_LAB_CLIENT_H
#define TILELAB_LAB_CLIENT_H

#include <stddef.h>

#include "check.h"
#include "lab_process.h"
#include "plan.h"

/*
 * The backend of this suite's lab, run in the lab process (or, for a GPU
 * lab on a GPU, planned there and run here): 1 and *backend when it can
 * run the lab here; 0 when it cannot (a GPU lab on a machine
 * without one), and -1 when the lab process failed; why says why.
 */
int tl_lab_backend(const tl_backend **backend, char *why, size_t why_len);

/*
 * In a suite built for a GPU, lab_plans.c: the GPU backend of this process,
 * through which lab.h's entry points ask the lab process only for each
 * call's launch plan and run it here. tl_lab_backend hands it out when the
 * lab process can record plans, so that what a check compares and the
 * launches a technique check reads are this process's own. Absent (NULL)
 * where nothing defines it: the emulator's suites, plan-test.
 */
const tl_backend *tl_lab_plans_backend(void) __attribute__((weak));

/*
 * In the suite's server (suite_server.c), which runs each test's calls
 * through the backend above, after a call failed: 1 while this process's
 * GPU context still runs work; 0 once a call's kernel left it unusable (an
 * illegal address, a kernel that faulted: a sticky error fails every call
 * after it), and only a fresh process has a context that works. lab_plans.c
 * defines it; absent (NULL) where nothing runs on a GPU here.
 */
int tl_lab_plans_usable(void) __attribute__((weak));

/*
 * The launch plan (plan.h) of the entry point called in the lab process on
 * the device buffers device[] of shape s, its kernels' parameters laid out
 * as table says: 0 with *plan (plan->refused says what the recording
 * refused), or -1 with why; TODO's message is the call's.
 */
int tl_lab_plan(void (*entry)(void), tl_shape s, const unsigned long long device[3],
                const tl_plan_table *table, tl_plan *plan, char *why, size_t why_len);

/*
 * On the emulator: while on, each run the backend hands the lab process is
 * counted there (emu.h), and tl_lab_counts holds the last one's counts,
 * kernel by kernel (all zero when it failed). The grader's profile reads a
 * student's counts so, from a process that holds none of its code.
 */
void tl_lab_count(int on);
const tl_lab_profile *tl_lab_counts(void);

/*
 * Calls that never return. From here on, a run whose call takes the lab
 * process more than cpu_seconds of CPU time (0: no limit) is stopped and
 * run once more in a fresh lab process; stopped again, it fails, saying
 * so, and the hang is put on record for the rest of the suite's run in the
 * file TILELAB_HANG_FILE names (test: which test made the call). CPU time,
 * so that what runs beside it does not count; twice, so that one stop
 * decides nothing.
 */
void tl_lab_watch(double cpu_seconds, const char *test);

/* The hang on record in TILELAB_HANG_FILE (the test, the call, the shape): 1 with what, or 0;
 * and a hang put there, where none is yet (a kernel that never ended in this process). */
int tl_lab_hang_on_record(char *what, size_t len);
void tl_lab_put_hang_on_record(const char *what);

/*
 * While this process waits for the lab process's answer: its own
 * descriptors fds[] (two at most) watched beside it, and news(fd, revents,
 * why) called when one of them has news (poll(2)'s revents): 0 waits on;
 * anything else ends the lab process, and the call fails with why. The
 * suite's server watches so for the test that asked going away, and for
 * processes it turns away while a call runs.
 */
typedef int (*tl_lab_news_fn)(int fd, short revents, char *why, size_t why_len);
void tl_lab_wait_also(const int *fds, int n, tl_lab_news_fn news);

/* "timeout TEST", on the grader's record of the test (TILELAB_DONE_FILE, which the
 * lab process never sees): the test ran past a limit on the clock, so the grader
 * runs it again alone (grade-run's verdict), whatever the output says. Not for the
 * watch above: CPU time is the same on a busy machine, and running alone changes nothing. */
void tl_lab_record_timeout(const char *test);

/* Ends the lab process, and every process it started. */
void tl_lab_stop(void);

/* The lab process's program, as a path from this program's own folder
 * (its default, lab-runner, lies beside it). */
void tl_lab_runner_at(const char *path);

/* NAME, a path from this program's own folder, made whole in path: 0, or
 * -1 when the folder cannot be found or the path does not fit. */
int tl_lab_beside(char *path, size_t len, const char *name);

/* What a signal that kills a process running lab code usually means. */
const char *tl_signal_meaning(int sig);

/* The name of the entry point of lab.h at address fn ("transpose"), or "?". */
const char *tl_lab_entry_of(void (*fn)(void));

#endif
