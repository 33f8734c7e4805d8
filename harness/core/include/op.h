/*
 * What a lab computes, one descriptor an operation (labs.mk's labNN_op):
 * its entry points and how they are called (call.h), its checker, the work
 * of one call and the rate's unit, and the sizes each command runs it at.
 * Each lies in a file of its own, harness/core/ops/NAME.c, which defines
 * `const tl_op tl_operation_NAME`; the table below holds every file of that
 * folder (the build lists them), so a new operation is one file there and
 * its checker. The lab process, the suites, the bench, the profile, the
 * sanitizer's sizes and the GPU glue's messages take what they need from
 * here, by the operation's name (-DTL_LAB_OP) or an entry point's; the
 * grader's timed size through the bench (--grade-size), make labN profile's
 * through the bench and the profile (--profile-size), the held-back
 * keywords from the operations' files (held-back.sh reads .held_back and
 * .held_back_are there, as isolate-symbols.sh reads TL_ENTRY_POINT). Still
 * outside it, until the kit's description of its labs prints it: the
 * figures' unit (the Makefile's PLOT_UNIT, figures.sh).
 */
#ifndef TILELAB_OP_H
#define TILELAB_OP_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"
#include "check.h"
#include "shapes.h"

#define TL_OPERATION_ENTRIES 4

/*
 * One of lab.h's entry points of an operation, and the bench's and the
 * profile's rows of it: the student's and the reference's. student and
 * reference are the program's own functions of that name and of
 * reference_NAME, the lab file's and the reference's (isolate-symbols.sh
 * renames it), where it links them, else NULL: an operation's file refers
 * to them weakly (TL_ENTRY_POINT).
 */
typedef struct {
    const char *name;                     /* "matmul_tiled" */
    tl_entry_fn student, reference;
    const char *variant, *label;          /* "student", "your code" */
    const char *ref_variant, *ref_label;  /* "reference", "reference" */
} tl_op_entry;

/* In an operation's file: the entry point name and its reference, weakly, for its tl_op_entry. */
#define TL_ENTRY_POINT(name)                                                                      \
    extern void name(void) __attribute__((weak));                                                 \
    extern void reference_##name(void) __attribute__((weak))
#define TL_ENTRY_FNS(fn) .name = #fn, .student = fn, .reference = reference_##fn

/* What `make labN bench` runs when no SIZES= is given. */
typedef struct {
    const char *sizes; /* as --sizes takes them */
    int reps;
} tl_op_bench;

/* What a kernel's fault means in an operation's own terms (tl_op's hints). */
typedef struct {
    const char *side, *grid_x, *grid_y, *grid_y_steps, *outside, *small;
} tl_op_hints;

typedef struct tl_op {
    const char *name;    /* "transpose", "matmul", "sgemm", "inplace" */
    const char *summary; /* a few words for a list of the operations */
    const tl_call *call; /* how its entry points are called (call.h): &tl_call_transpose, ... */
    /* lab.h's entry points a lab of this operation defines, the headline first; no name after. */
    tl_op_entry entries[TL_OPERATION_ENTRIES];
    /* The floats of matrix i of a call at shape s, in its call's order (call.h: the output
     * first): what a bench allocates and fills. */
    size_t (*floats)(tl_shape s, int i);
    /* The work of one call at shape s, in unit: bytes read and written (GB/s), or
     * floating-point operations (GFLOP/s); rate_is says how, in the bench's header. */
    double (*work)(tl_shape s);
    const char *unit, *rate_is;
    /* The fewest floats one call can read and write however it is written: the profile's
     * least sectors, below which the grader refuses a count as work the emulator did not see. */
    double (*least_floats)(tl_shape s);
    /* The length of a row of the output (matrix 0), where a message names an element of it
     * as out(row, col); NULL: the output is one row. */
    int (*out_width)(tl_shape s);
    /* a size is a count of elements N (1: carried as a shape of N elements, tl_count_shape),
     * N x N (2: ROWSxCOLS), or MxNxK (3) */
    int dims;
    const char *sizes_are; /* --sizes in the bench's usage: "N (square) or ROWSxCOLS" */
    tl_op_bench bench_cpu, bench_gpu;
    const char *sanitize_sizes; /* compute-sanitizer's: small shapes that end mid-tile */
    tl_shape profile_size;      /* make labN profile's, where PROFILE_SIZE= does not say */
    const char *grade_size;     /* the grader's timing on a GPU: one shape */
    /* The grader's count on the emulator (profile --grade-size): one size, NULL for 256 (a
     * transpose's 256 x 256). A count of elements (dims 1) needs its own: 256 floats are one
     * block, where every kernel of a reduction's ladder moves the same 36 sectors. */
    const char *grade_emu_size;
    /* The held-back cases' keyword in an instructor's file (held-back.sh: shapes, products,
     * sides), and what its shapes look like there. */
    const char *held_back, *held_back_are;
    /* What a kernel's fault means in the operation's own terms, where the GPU glue says why
     * a call failed (gpu.c); NULL where it has nothing to add:
     *   side          the tunable that sets a square block's side ("TILE_DIM")
     *   grid_x/grid_y a grid side that came out 0 rounded up, as the operation's launch has it;
     *                 grid_y_steps, for a block of fewer rows than columns
     *   small         what is smaller than a block where a grid rounds down to 0 ("n is");
     *                 NULL: "the matrix is"
     *   outside       a thread that read or wrote outside the operation's matrices: the bounds
     *                 and indices to check */
    tl_op_hints hints;
    /* Checks one call of fn, the entry point named entry, through backend b on shape s with
     * matrices filled from seed; the hints in the operation's labs' words. */
    void (*check)(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b, tl_shape s,
                  uint64_t seed);
} tl_op;

/* The operation called name, or NULL for none. */
const tl_op *tl_op_named(const char *name);

/* The operation whose entry point is called entry ("matmul_naive"), or NULL for none. */
const tl_op *tl_op_of_entry(const char *entry);

/* The operation of fn: an entry point's function or its reference (op.h), or its handle;
 * NULL for any other function (a library's). */
const tl_op *tl_op_of_fn(tl_entry_fn fn);

/* The i-th operation of the table, from 0; NULL past the last. */
const tl_op *tl_op_at(int i);

/*
 * Every operation's entry points, numbered from 0 in the table's order: how
 * the lab process and the suites name one (lab_process.h). NULL, and -1,
 * for none.
 */
int tl_entry_count(void);
const tl_op_entry *tl_entry_at(int i);
const tl_op *tl_entry_op(int i);
int tl_entry_index(const char *name);

/*
 * A stand-in for entry point i in a program that runs it elsewhere (a suite,
 * whose lab process runs it; the grader's bench, which replays its plans):
 * an address no function has, which tl_entry_handled() knows, and which
 * tl_call_invoke() hands to the handler that program set (call.h).
 */
tl_entry_fn tl_entry_handle(int i);
int tl_entry_handled(tl_entry_fn fn); /* its i, or -1: a function of its own */
/* The entry point named name as this program calls it: its function where it links
 * one, else its handle. */
tl_entry_fn tl_entry_named(const char *name);

/* A shape as an operation of dims dimensions writes it: "97x89", "33x31x17" for dims 3,
 * the count of its elements, "4194304", for dims 1. */
void tl_op_size(const tl_op *op, char *buf, size_t len, tl_shape s);
void tl_size_text(int dims, char *buf, size_t len, tl_shape s);

/* Sizes as people type them for op (its sizes_are), comma-separated: tl_parse_shapes's, or
 * for dims 1 counts of elements. The count, or -1 with a reason. */
int tl_op_parse_sizes(const tl_op *op, const char *text, tl_shape *shapes, int max, char *why,
                      size_t why_len);

#endif
