/*
 * A lab's code runs in a process of its own: the lab process.
 *
 * A suite's test never calls a lab file's code itself. Its checks (check.c)
 * run on a backend as usual, but the backend a suite gets (lab_client.c)
 * hands each run to the lab process, a program built beside the suite from
 * the lab file and the real backend (lab_runner.c, `lab-runner`): the
 * matrices go over in shared memory, the lab's code runs there, on the CPU,
 * the GPU or the emulator, and the matrices come back with what the run
 * said (its error, its TODO() and its launches). The suite's process then
 * compares, and only it reports to Criterion.
 *
 * So whatever a lab file does (a constructor, exit(), a write to any file
 * descriptor it can find, memory it should not touch), it does it in the lab
 * process, which holds no test's result and cannot reach the suite's: the
 * suite's processes are not dumpable, so /proc/PID/fd and ptrace are closed
 * to it, and it may signal no process but itself (lab_runner.c: one
 * kill(-1) once ended the tests beside it). What decides a pass is
 * computed where the lab's code never ran.
 *
 * The two talk over a SOCK_SEQPACKET socket, one request and one reply a
 * message; the matrices lie in a memfd that both map.
 *
 * Who starts the lab process. Criterion runs each test in a process of its
 * own, and by itself each such process starts a lab process of its own: on
 * a GPU that is a CUDA context a test for the work it replays, besides the
 * lab process's where the lab's host code opens one (an occupancy query),
 * and a GPU driver opens contexts one at a time. So a suite run one test at
 * a time (--jobs 1: every GPU suite, the grader's runs; an emulator's or
 * CPU suite with TILELAB_SUITE_SERVER=1) has a server (suite_server.c),
 * which replays every test's calls in one context for the whole run:
 *
 *   suite's main process (Criterion's; tests/tl_test.h starts and stops the server)
 *   |- test process, one a test: checks and records; no lab code, no CUDA
 *   |    |  the same requests and replies as below, its memfd passed on connect
 *   |    v
 *   `- keeper (suite_server_start.c: reaps the server, so that Criterion never sees it end)
 *       `- the server: the suite's own program run again (/proc/self/exe), the
 *           |  kit's code only. It answers each request through the suite's
 *           |  backend, as the test process did without it: on a GPU, the plan
 *           |  asked of the lab process, replayed here (lab_plans.c); else, the
 *           |  run in the lab process.
 *           `- the lab process: lab-runner, the lab file's code, a fresh one a test
 *
 * Each dies with the one above it (PR_SET_PDEATHSIG). The server answers
 * the suite's own processes alone (its peer is the main process or a child
 * of it), one test at a time; the lab process, its child, is turned away.
 * The watch on a call's CPU time (tl_lab_watch) travels with each request
 * and runs in the server, which knows the lab process. After each test the
 * lab process is ended, and the next test gets a fresh one: nothing the
 * lab's code keeps reaches another test. After an error that leaves the
 * server's GPU context unusable, or a call its test gave up on (a kernel
 * that never ends), the server runs itself afresh. A test process that cannot reach the server starts its own lab
 * process, as without one, and the run says so once.
 */
#ifndef TILELAB_LAB_PROCESS_H
#define TILELAB_LAB_PROCESS_H

#include <stddef.h>

#include "../emu/emu.h"
#include "check.h"
#include "launch.h"
#include "op.h"
#include "plan.h"
#include "shapes.h"

/* The lab process's descriptors: the socket, and the matrices' memfd. */
#define TL_LAB_SOCKET_FD 3
#define TL_LAB_MATRICES_FD 4
/* The lab process's exit status where the lab's code overflowed its stack (lab_runner.c), which
 * a SIGSEGV alone does not tell from an index out of bounds. */
#define TL_LAB_STACK_OVERFLOW 125
/* Its exit status where the lab's code tried to signal another process, which it may not
 * (lab_runner.c): the call was refused, and the process ended. */
#define TL_LAB_SIGNAL_REFUSED 123

typedef enum {
    TL_ASK_BACKEND,      /* which backend runs the lab here, and whether it can */
    TL_ASK_RUN,          /* the entry point on the matrices, through the backend (check.h) */
    TL_ASK_PLAN,         /* on a GPU: the entry point's launch plan (plan.h) for device[] */
    TL_ASK_PROFILE,      /* on the emulator: TL_ASK_RUN, counted (tl_lab_profile at profile_at) */
} tl_ask;

typedef struct {
    tl_ask ask;
    int entry;      /* the entry point, by its number in the table of operations (op.h) */
    tl_shape shape; /* rows, cols, depth; an in-place transpose is rows x rows */
    int matrices;   /* how many of m[] the run takes, in the backend's order */
    struct {
        size_t offset, total, count; /* in floats: where in the memfd, margins included, data */
    } m[3];
    size_t floats; /* the memfd's size */
    /* TL_ASK_PLAN: the device buffers the call is given, as numbers; the
     * memfd holds the kernels' table (tl_plan_table) and, after it, room for
     * the plan (tl_plan), which the lab process fills. */
    unsigned long long device[3];
    /* TL_ASK_PROFILE: where in the memfd, in bytes, after the matrices, the counts go. */
    size_t profile_at;
    /* For the suite's server (suite_server.c), which watches the lab process for the test:
     * the CPU seconds a call may take there, and the test (tl_lab_watch). lab-runner ignores them. */
    double watch;
    char test[256];
} tl_lab_request;

/* What the emulator counted of a run (emu.h), as TL_ASK_PROFILE returns it: kernel by kernel,
 * all their launches together; and the launches and copies that made the output, each alone
 * (tl_emu_made_count: -1, more than the emulator tells apart). */
#define TL_LAB_PROFILE_KERNELS 8
#define TL_LAB_PROFILE_MADE 16
typedef struct {
    char name[128];
    tl_emu_stats stats; /* its kernel field NULL: the name is above */
} tl_lab_counted;
typedef struct {
    int kernels; /* counted; the first TL_LAB_PROFILE_KERNELS in kernel[] */
    tl_lab_counted kernel[TL_LAB_PROFILE_KERNELS];
    int made; /* the first TL_LAB_PROFILE_MADE in made[] */
    tl_lab_counted made_by[TL_LAB_PROFILE_MADE];
} tl_lab_profile;

/* Where TL_ASK_PLAN's plan lies in the memfd, in bytes; and the memfd's size. */
#define TL_LAB_PLAN_OFFSET ((sizeof(tl_plan_table) + 63) / 64 * 64)
#define TL_LAB_PLAN_BYTES (TL_LAB_PLAN_OFFSET + sizeof(tl_plan))

typedef struct {
    int rc;        /* the backend's answer: 0, or -1 with why */
    int available; /* TL_ASK_BACKEND: 1 when it can run the lab here */
    int on_gpu;
    int plans;     /* TL_ASK_BACKEND: 1 when it answers TL_ASK_PLAN (a GPU lab built for a GPU) */
    char backend[64];
    char why[4096];
    char todo[512]; /* what TODO() recorded, or "" */
    int launches;   /* launches counted; the first TL_MAX_LAUNCHES in launch[] */
    tl_launch launch[TL_MAX_LAUNCHES];
} tl_lab_reply;

/*
 * What both ends of a request that runs an entry point read alike (lab_request.c): the
 * lab process, and the suite's server, which runs the request through the suite's backend.
 */
/* An entry point's name ("transpose") and how it is called (call.h); "?" and NULL for none. */
const char *tl_lab_entry_name(int entry);
const tl_call *tl_lab_entry_call(int entry);
/* The request's matrices as views of its memfd, mapped at base: 0, or -1 where the request
 * does not describe the matrices of its entry point's call within the memfd. */
int tl_lab_request_views(const tl_lab_request *rq, float *base, tl_matrix m[3]);
/* 1 where TL_ASK_PROFILE's counts fit in the memfd at rq->profile_at. */
int tl_lab_request_counts_fit(const tl_lab_request *rq);
/* The request's entry point, fn, called on the views through backend b: b's 0, or -1 with why. */
int tl_lab_request_run(const tl_backend *b, const tl_lab_request *rq, tl_entry_fn fn, tl_matrix *m,
                       char *why, size_t why_len);

#endif
