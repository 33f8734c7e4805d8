/*
 * The grading of one hand-in, as grade.sh decides it once, before any lab is
 * graded: its folders, its sandbox, its limits and how a CPU lab is measured.
 * grade.sh writes it to WORK/grading (its write_grading), a name and its
 * value a pair, each ended by a NUL; a list (the measuring command, the
 * simulated caches) names each item. The grader's C programs read it into one
 * tl_grading, which each of their functions is given: nothing of a grading
 * passes through a global. What the Makefile gives the grader in its
 * environment (TOOLS, PREBUILT, ...: tl_sandbox_environment) is read with it.
 *
 * The names (each once, but the lists):
 *   name           the hand-in, as the grader's log names it
 *   root           the kit's folder
 *   out, work      the folder of every hand-in's results; this hand-in's
 *   sandbox        bwrap, setpriv or none (grade_sandbox.h)
 *   namespaces     setpriv's: private, net or none
 *   uid            setpriv's user for the hand-in
 *   gpu            1: the GPU's device nodes shown to student code
 *   gpu-backend    cuda or emu: where the GPU labs run
 *   labs           the labs graded, as make's LABS
 *   manifests      each suite's tests, labNN.tests, from the reference's build
 *   alone-lock     the lock every command holds shared, and a test run again alone alone
 *   output-limit   bytes of output kept of a command
 *   file-limit     bytes of one file a build or a measurement writes
 *   memory-limit   bytes of data of each process, off a GPU
 *   disk-limit     bytes of a hand-in's builds and measurements together
 *   tmp-limit      bytes of a command's /tmp
 *   build-limit    seconds of CPU time to build one lab
 *   test-margin    seconds past a test's own limits before it is killed
 *   retry-scale    a test run again alone gets this many times the reference's CPU time
 *   lab-limit      seconds of CPU time for all the tests of one lab
 *   perf-limit     seconds of CPU time for one measuring run
 *   perf-size      the side of the matrix a CPU lab is measured at
 *   measured       (a list) the command that measures a CPU lab: valgrind's callgrind, confined
 *   cache-sim      (a list) valgrind's flags for the caches it simulates
 */
#ifndef TILELAB_GRADE_GRADING_H
#define TILELAB_GRADE_GRADING_H

#include "grade_sandbox.h"

#define TL_GRADING_LIST 32 /* items of a list */

typedef struct {
    char *text; /* the file, read whole: every string below points into it */
    /* The sandbox of every command: its records and private_tmp are each command's
     * (tl_command_run); the rest is the grading's. */
    tl_sandbox sandbox;
    const char *name, *gpu_backend, *labs, *manifests, *alone_lock;
    /* This program's part of the grading: where its lines of outcomes go, and its records
     * (the lab's own, graded side by side: cpu-labNN, done.fifo, the runs' whole output). */
    const char *outcomes, *records;
    char outputs[4096]; /* WORK/outputs: a fresh file there for each command's output */
    long output_limit, file_limit, memory_limit, disk_limit;
    int build_limit, test_margin, retry_scale, lab_limit, perf_limit, perf_size;
    const char *measured[TL_GRADING_LIST], *cache_sim[TL_GRADING_LIST];
    int n_measured, n_cache_sim;
} tl_grading;

/* Reads the grading at path, and the environment, into g, with outcomes and records
 * as given. 0, or -1 (why on stderr) for a file that cannot be read or lacks a name. */
int tl_grading_read(const char *path, const char *outcomes, const char *records, tl_grading *g);

/* "grade: NAME: " and the formatted text, a line on stderr: the grader's log. */
void tl_grading_log(const tl_grading *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
