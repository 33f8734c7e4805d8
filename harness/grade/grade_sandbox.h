/*
 * The command line that starts one grader's command in its sandbox
 * (grade_command.c): bubblewrap's view of the machine, or setpriv's
 * user of its own where bubblewrap cannot run, or, where neither can, none.
 *
 * Every field is the grader's, given once; the argument list is built from them
 * and the command's mode alone, so two commands of one grading see the same
 * machine. The modes:
 *   build  the hand-in's build folder is writable;
 *   link   so is it, and the compiled references show (the bench and the
 *          measuring programs link them beside the hand-in's own object);
 *   run    nothing is writable but the command's own /tmp;
 *   perf   the measurement's folder (dir) is writable too.
 * The kit's build folder is hidden, with every reference object in it, but for
 * the two tools a hand-in's command runs (the GPU probe, grade-confine).
 */
#ifndef TILELAB_GRADE_SANDBOX_H
#define TILELAB_GRADE_SANDBOX_H

#include <stddef.h>

#define TL_SANDBOX_SEARCH 4 /* CPATH, LIBRARY_PATH, LD_LIBRARY_PATH, VALGRIND_LIB */

typedef struct {
    const char *kind;        /* bwrap, setpriv or none */
    const char *root;        /* the kit's folder */
    const char *tools;       /* the grader's build: its programs, grade-build */
    const char *out;         /* the folder of every hand-in's results */
    const char *work;        /* this hand-in's: submission/, build/, records/ */
    const char *records;     /* where grade-run makes done.fifo (a lab's own, graded side by side) */
    const char *prebuilt;    /* the compiled references */
    const char *submissions; /* grade-all's folder of hand-ins, or "" */
    const char *hidden;      /* the held-back cases' file, or "" */
    const char *path;        /* the grader's PATH */
    const char *search[TL_SANDBOX_SEARCH]; /* NAME=VALUE: the grader's search paths that are set */
    int n_search;
    const char *compilers[3]; /* cc, nvcc, valgrind as the grader names them: their installations show */
    int gpu;                  /* the GPU's device nodes bound in */
    long tmp_limit;           /* bytes of a command's /tmp (bwrap's tmpfs) */
    /* setpriv */
    int uid;                 /* the hand-in's user */
    const char *private_tmp; /* the command's own folder: its /tmp */
    const char *namespaces;  /* private (grade-private's view), net (no network alone) or none */
} tl_sandbox;

typedef struct {
    char **v;
    size_t n, cap;
} tl_argv;

/* The fields the grader's environment gives, as the Makefile gives it to grade.sh:
 * TOOLS, PREBUILT, SUBMISSIONS, HIDDEN, PATH, the search paths (CPATH,
 * LIBRARY_PATH, LD_LIBRARY_PATH, VALGRIND_LIB), and CC, NVCC and VALGRIND, whose
 * installations the sandbox shows. 0, or -1 where TOOLS or PREBUILT is not set. */
int tl_sandbox_environment(tl_sandbox *sb);

/* Appends the sandbox's command line for mode (dir: perf's folder) to out; the
 * command itself follows it. Returns 0, or -1 (why on stderr) for a mode
 * unknown or a fact of the machine that cannot be read. */
int tl_sandbox_argv(const tl_sandbox *sb, const char *mode, const char *dir, tl_argv *out);

/* Where bubblewrap cannot run (setpriv), what its view leaves out, as paths to close to
 * every user but root: the kit's folder but its own sources (the solutions, .git,
 * hand-ins kept there), the grader's build but the tools student code runs and the
 * graded hand-ins' folder, the class's hand-ins, the held-back cases, and the folder
 * that holds this hand-in (submission), unless it is one every user shares (/tmp,
 * /home, the grader's home). Appended to out. */
int tl_sandbox_closed(const tl_sandbox *sb, const char *submission, const char *home, tl_argv *out);

void tl_argv_add(tl_argv *a, const char *s);
void tl_argv_free(tl_argv *a);

#endif
