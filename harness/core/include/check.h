/*
 * Correctness of a transpose, with a message that says what went wrong.
 * The tests, the bench (correctness before timing) and the grader all call
 * this one checker.
 */
#ifndef TILELAB_CHECK_H
#define TILELAB_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "call.h"
#include "matrix.h"
#include "shapes.h"

typedef void (*tl_transpose_fn)(float *out, const float *in, int rows, int cols);
typedef void (*tl_matmul_fn)(float *c, const float *a, const float *b, int m, int n, int k);
typedef void (*tl_inplace_fn)(float *mat, int n);

/* Where a lab's code runs: the CPU directly, or a GPU through copies. */
typedef struct {
    const char *name;
    int on_gpu; /* 1 when fn runs as kernels on a grid: the hints speak of grids and blocks */
    /*
     * Runs fn, a call of its kind (call.h), with the data of the matrices m,
     * call->matrices of them in lab.h's order (or with device copies of the
     * whole buffers, margins included, copied back afterwards). 0, or -1
     * with a reason written to why (a CUDA error by name, with its usual
     * cause).
     */
    int (*run)(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s, char *why,
               size_t why_len);
} tl_backend;

extern const tl_backend tl_cpu_backend;

/*
 * The checker speaks of shapes and indices; where a hint says what to
 * write, it names what the lab's code is built around in the lab's own
 * words, which its caller gives (lab_words.h has the labs'): the sizes its
 * tunables set, and where its handout tells each step. A field a check does
 * not use may be NULL.
 */
typedef struct {
    const char *tile;       /* the side of a square tile, its blocks blockIdx * tile apart */
    const char *block_rows; /* the rows of threads of a block that covers a tile in steps */
    const char *cpu_block;  /* the side of a CPU loop's block */
    /* An in-place transpose, where the handout tells it: pairs of elements swapped once,
     * pairs of tiles, both, and the section on tiles swapped in pairs. */
    const char *pairs_step, *tiles_step, *both_steps, *tiles_in_pairs;
} tl_lab_words;

typedef struct {
    int ok;
    size_t wrong;          /* output elements that differ from the expected bits */
    int ok_but_nan_bits;   /* wrong only where a NaN came out as another NaN: what a library's
                              arithmetic (x * 1.0f) may do, a copy may not */
    int run_failed;        /* the backend could not run the call (a CUDA error before or after
                              the kernels, the lab process ended): the message says why */
    char message[8192];    /* empty when ok */
} tl_verdict;

void tl_check_transpose(tl_verdict *v, tl_transpose_fn fn, const tl_backend *backend,
                        tl_shape s, uint64_t seed, const tl_lab_words *words);

/*
 * The square n x n matrix transposed in its own memory (check_inplace.c),
 * with the diagnoses of the in-place mistakes: pairs swapped twice, tiles
 * transposed where they lie instead of with their mirror, a swap that
 * lost one side.
 */
void tl_check_inplace(tl_verdict *v, tl_inplace_fn fn, const tl_backend *backend, int n,
                      uint64_t seed, const tl_lab_words *words);

/*
 * C = A B for m x k A and k x n B, against a double-precision product.
 * tiled: 1 when fn's kernel works through shared tiles, 0 when it has none
 * (one thread an element of C, straight from A and B): the hints speak of
 * tiles and barriers only for the first.
 */
void tl_check_matmul(tl_verdict *v, tl_matmul_fn fn, int tiled, const tl_backend *backend,
                     tl_shape s, uint64_t seed, const tl_lab_words *words);

/* How far a float sum of k products may stray from the exact one, whose
 * magnitudes sum |a_ip b_pj| add up to `bound` (see check_matmul.c). */
double tl_matmul_tolerance(int k, double bound);

/*
 * Whole rows at the bottom and whole columns at the right of a rows x cols
 * matrix that hold TL_POISON_BITS, and no poison elsewhere: a loop that
 * skipped the tail. 1 when so, with the strips' sizes.
 */
int tl_unwritten_tail(const float *m, int rows, int cols, int *strip_rows, int *strip_cols);

/*
 * The tiled transpose that transposes each t x t tile but leaves it at its
 * own place instead of its mirror's across the diagonal: got (in's
 * transpose, cols x rows; the n x n matrix itself in place) holds at (r, c)
 * element (r - r mod t + c mod t, c - c mod t + r mod t) of the rows x cols
 * in, where it should hold (c, r). The tile side t > 1 that explains the
 * value at index `first` of got so, and every element besides whose source
 * lies in in and that was written at all, or 0.
 */
int tl_tiles_left_in_place(const float *got, const float *in, int rows, int cols, size_t first);

/*
 * Patterns of a tiled GPU transpose that moves one element a thread of a
 * t x t tile (check_blocks.c); out is in's transpose as it came back.
 * tl_short_block: exactly the elements of in at a tile row and column below
 * by came through, as when the block has by < t rows of threads.
 * tl_returned_before_store: exactly the elements of out whose storing thread
 * loads from outside in were never written, as when a thread outside in
 * returns before the store. 1 when so, with some element wrong; else 0.
 */
int tl_short_block(const float *out, const float *in, int rows, int cols, unsigned t, unsigned by);
int tl_returned_before_store(const float *out, const float *in, int rows, int cols, unsigned t);

/* The side of a tile, as the first launch's blocks are wide (0: no launch, or not on_gpu). */
int tl_launched_tile(int on_gpu);

/* What a float's bits say, for a message: its value, or which marker NaN it is. */
void tl_describe_bits(char *buf, size_t len, uint32_t bits);

/* A count of elements written in a margin, for a message: "N element(s)", or, where the
 * count filled the margin (TL_MARGIN), "at least N elements": writes past it go uncounted. */
const char *tl_count_guarded(char *buf, size_t len, size_t count);

/* Elements of m's margins that no longer hold `bits`, before and after the
 * data, with the farthest before and the nearest after. */
void tl_scan_margins(const tl_matrix *m, uint32_t bits, size_t *before, size_t *after,
                     size_t *last_before, size_t *first_after);

/*
 * After a lab's code ran: adds to msg what TODO() recorded and, when it did
 * not run (ran != 0), why. Returns the TODO message, or NULL.
 */
const char *tl_note_run(char *msg, size_t len, int ran, const char *why);

/* What TODO() recorded since the last reset, or NULL. */
const char *tl_todo_message(void);
void tl_todo_reset(void);
/* What TODO() recorded in the lab's own process (lab_process.h), here. */
void tl_todo_set(const char *message);

/* snprintf that appends to what buf already holds. */
void tl_appendf(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
