/*
 * The bench: bench.c reads the command line, bench_report.c writes the
 * table and the CSV, and a back end measures the rows of its table in
 * bench_variants.h: bench_cpu.c (labs 1-2), and on a GPU the operation's
 * own, bench_OP.c (bench_transpose.c, bench_inplace.c, bench_matmul.c,
 * bench_sgemm.c and bench_reduce.c, with its device code in bench_reduce.cu),
 * or bench_any.c for an operation with none; their loop over the variants
 * (check, the student's plans made ahead, tl_gpu_time) and --once's buffers
 * are bench_gpu_run.c's, each back end giving it only what is its own. Each
 * lab's bench binary links the student's lab file and the reference's, its
 * entry points renamed reference_*.
 */
#ifndef TILELAB_BENCH_H
#define TILELAB_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "op.h"
#include "lab_words.h"
#include "shapes.h"
#include "timer.h"
#include "bench_variants.h"

/*
 * One call of fn, called as `call` says (call.h), on matrices m0, m1, m2 (those it
 * takes): through tl_call_invoke, so that an entry point this program runs by its handle
 * (the grader's bench: the student's, as plans) runs so.
 */
static inline void tl_bench_invoke(const tl_call *call, tl_entry_fn fn, float *m0, const float *m1,
                                   const float *m2, tl_shape s)
{
    float *const m[TL_CALL_MATRICES] = {m0, (float *)m1, (float *)m2};
    tl_call_invoke(call, fn, m, s);
}

/* One row of results, in the order of the back end's table. */
typedef struct {
    const tl_variant *variant; /* NULL: not selected */
    int measured;       /* 0: not timed, and `note` says why */
    int refused;        /* not timed: a rate above what the hardware gives (tl_bench_refuse) */
    tl_stats stats;     /* seconds per call */
    char note[160];
} tl_result;

typedef struct {
    int reps, warmup;
    const char *only;   /* comma-separated names or roles to run, or NULL for all */
} tl_bench_opts;

/* The back end's table (bench_variants.h), ceiling first: how many. */
int tl_bench_variants(const tl_variant **table);

/* The lab's operation (op.h), which the Makefile names: -DTL_LAB_OP='"transpose"'. */
extern const tl_op *tl_bench_op;

/* The work one call does at size s, in the unit of the rate: the operation's. */
double tl_bench_work(tl_shape s, const char **unit);


/* Prepares the back end (device query, library handles). 0, or -1 with a reason. */
int tl_bench_init(char *why, size_t why_len);

/* Refuses a size that will not fit in memory: 0, or -1 with a reason. */
int tl_bench_fits(tl_shape s, char *why, size_t why_len);

/* Checks, then times, every selected variant at one size. */
int tl_bench_size(tl_shape s, const tl_bench_opts *o, tl_result *results, char *why, size_t why_len);

/* One call of `variant` and nothing else, on buffers of exactly the
 * matrices' size, for valgrind's cache simulation (CPU labs) and
 * compute-sanitizer (GPU labs). 0, or -1 with what went wrong. */
int tl_bench_once(tl_shape s, const tl_variant *v, char *why, size_t why_len);

/* "# key: value" lines describing the machine. */
void tl_bench_describe(FILE *f);

/*
 * The fastest rate the hardware can give one call at size s, in the unit of
 * tl_bench_work, from this run's results r (n rows in the back end's order,
 * ceiling first) or the device's properties, with its margin; 0 where the
 * back end states none (the CPU). A student's or a reference's row above it
 * is refused, not timed: no kernel goes faster, and a result kept from an
 * earlier call, or work the events did not see, does. how names the bound.
 */
double tl_bench_bound(tl_shape s, const tl_result *r, int n, char *how, size_t how_len);

/* Refuses the student's and the reference's rows of r whose rate is above
 * bound (when bound > 0): not measured, their note saying so and naming how. */
void tl_bench_refuse(tl_shape s, tl_result *r, int n, double bound, const char *how);

/*
 * The bench's three outputs of one size for lab `lab`, each where its FILE
 * is not NULL: r holds n results in the back end's order, ceiling first;
 * those with no variant were not asked for. dims 3: sizes are MxNxK (op.h).
 *
 * table   for people: a line a variant, its spread, notes on noise
 * csv     (--csv) a row a timed variant, TL_BENCH_CSV_HEADER's columns: what
 *         the figures, the report and the slides draw
 * record  (--record) a row a variant asked for, timed or not, for the
 *         grader (grade_measure.c), which reads no table: tab-separated
 *         (a note holds commas), TL_BENCH_RECORD_HEADER's columns, which
 *         are the CSV's of the same name and
 *           outcome  timed; untimed (a wrong result, not written yet, too
 *                    large, ...); refused (a rate above what the hardware
 *                    gives, tl_bench_refuse)
 *           note     why it was not timed, as the table says it; empty when timed
 *         rate and ratio_to_reference are empty where the variant was not
 *         timed, the ratio also where its reference was not.
 */
#define TL_BENCH_CSV_HEADER                                                             \
    "lab,variant,rows,cols,depth,reps,median_s,min_s,max_s,rate,unit,share_of_ceiling," \
    "ratio_to_reference,tag,q1_s,q3_s,label,role"
#define TL_BENCH_RECORD_HEADER \
    "lab\tvariant\trole\trows\tcols\tdepth\toutcome\trate\tunit\tratio_to_reference\tnote"
typedef struct {
    FILE *table, *csv, *record;
} tl_bench_out;
void tl_bench_report(const tl_bench_out *out, int lab, int dims, const char *tag, tl_shape s,
                     const tl_result *r, int n);

/* Shared by the back ends: is v selected by o->only, by its name or its role? */
int tl_bench_selected(const tl_bench_opts *o, const tl_variant *v);

/* Shared by the back ends: the checker's verdict as a one-line note. */
void tl_bench_note_verdict(tl_result *r, const tl_verdict *v);

/*
 * Every timed call must do the whole job: the back ends poison the output
 * before each timed repetition and look at it after each, at
 * TL_BENCH_SAMPLES elements drawn at random, and whole after the last one.
 * A kernel that skips work it has done before, or leaves it to another
 * thread, is caught and not timed.
 */
#define TL_BENCH_SAMPLES 64

/* An index in [0, n), from the sampler's state. */
size_t tl_bench_sample(uint64_t *state, size_t n);

/* The index in `in` (rows x cols) of what element `at` of its transpose holds. */
size_t tl_bench_transposed_from(tl_shape s, size_t at);

/* got is want, bit for bit; with nan_any, any NaN for a NaN. */
int tl_bench_same(float got, float want, int nan_any);

/* why = "repetition rep left element `at` wrong" in words, for an output `width` wide. */
void tl_bench_note_skipped(char *why, size_t why_len, int rep, size_t at, int width);

#endif
