/*
 * The suite's server (lab_process.h says why there is one): one process a
 * suite run, the suite's own program run again, that runs every test's
 * requests through the suite's backend: on a GPU, one CUDA context for the
 * whole run, where each test's process opened its own; each test gets a
 * fresh lab process all the same.
 *
 * suite_server_start.c holds its two ends: the suite's main process starts
 * and stops it, a test's process joins it. suite_server.c is the server.
 */
#ifndef TILELAB_SUITE_SERVER_H
#define TILELAB_SUITE_SERVER_H

#include <stddef.h>

/* The user's switch: "1" gives a suite run one test at a time (--jobs 1) a server where
 * it would have none (the emulator's suites, the CPU labs'), "0" takes it from a GPU suite. */
#define TL_SUITE_SERVER_ENV "TILELAB_SUITE_SERVER"
/* Set by the suite's main process for its tests: the server's socket. */
#define TL_SUITE_SOCKET_ENV "TILELAB_SUITE_SOCKET"
/* Set for the server alone: its listening socket's descriptor, and the connections it had
 * taken when it ran itself afresh ("3" or "3,7,8"). The server's constructor looks for it. */
#define TL_SUITE_SERVER_FD_ENV "TILELAB_SUITE_SERVER_FD"
/* The handshake: a test's process says it, with its memfd; the server says it back. */
#define TL_SUITE_HELLO "tilelab suite server 1"
/* FILE: a line for each process started to run the lab's code ("lab-runner PID") and each
 * start of the server ("suite-server PID"), which the kit's own tests count. */
#define TL_LAB_PROCESS_LOG_ENV "TILELAB_LAB_PROCESS_LOG"

/* Defined where the server is linked (suite_server.c): a program without it starts none,
 * since its own program run again would not be one. */
extern const char tl_suite_server_linked __attribute__((weak));

/*
 * In the suite's main process, before any test runs: the server started,
 * when `wanted` (a GPU suite) or the user's switch says so, and the run goes
 * one test at a time (jobs, Criterion's --jobs, is 1); its socket is then
 * in the environment the tests inherit. Where it cannot start, it says so
 * once, and each test runs its lab process as without it.
 */
void tl_suite_server_start(int wanted, unsigned jobs);

/* The server ended and its folder removed, where this process started one. */
void tl_suite_server_stop(void);

/*
 * In a test's process: the server's connection, the matrices' memfd handed
 * over, once it has taken this process's requests on; -1 where this run
 * has no server, or it cannot be reached (said once for the run).
 */
int tl_suite_server_join(int matrices);

/* A server that went away while it had a request of this process's: why says so, and this
 * process joins it no more (its later calls start a lab process of its own). */
void tl_suite_server_lost(char *why, size_t why_len, const char *what);

/* A line in TILELAB_LAB_PROCESS_LOG's file, where it names one: "WHAT PID". */
void tl_lab_process_log(const char *what, int pid);

#endif
