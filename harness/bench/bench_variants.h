/*
 * The bench's variants: one table per back end, with the kernels of the
 * lab's operation (op.h), the only places a variant's name, label and role
 * are written. The bench runs and reports them in the
 * table's order, the ceiling first, and writes name, label and role into
 * every CSV row; the figures, the slides and the grader read them there.
 * `make plots` draws recorded CSVs written before the label and role columns
 * from build/bench/variants.csv, which bench_variants_csv.c prints from
 * these same tables.
 *
 * A row is X(name, label, role, vs, fn), and so is each of the lab's kernels
 * (op.h's tl_op_entry):
 *   name   what --only, --once and the CSV's variant column say
 *   label  what a figure's legend and a slide's table say (no comma: a CSV field)
 *   role   what it is there for: ceiling (a copy of the same bytes, or the
 *          library's product), reference (the reference's kernels), student
 *          (the student's), library (another implementation to compare with);
 *          --only and --once take roles as well as names. The first variant of
 *          a role is its headline: the one the grader and the ladder compare.
 *   vs     the variant it is compared with in the "vs ref" column
 *   fn     the function a call runs; NULL for the back end's own copy. Only
 *          the back end of the table expands it: a table may name functions
 *          that only its back end declares.
 */
#ifndef TILELAB_BENCH_VARIANTS_H
#define TILELAB_BENCH_VARIANTS_H

#include "check.h"
#include "op.h"

typedef struct {
    const char *name, *label, *role, *vs;
    void (*fn)(void);   /* the back end casts it back to its operation's type */
    const char *entry;  /* the entry point of lab.h it calls ("matmul_naive"), or fn's own name */
} tl_variant;

/* A row of a back end's table as a tl_variant, for its X. */
#define TL_VARIANT(name, label, role, vs, fn) {name, label, role, vs, (void (*)(void))(fn), #fn},

/*
 * A back end's table is its rows before the lab's kernels (the ceiling
 * first), the kernels of the lab's operation (op.h: of each entry point, the
 * reference's and the student's, as the operation names them), and its rows
 * after: TL_BENCH_TABLE(before, after), each an array ended by {0}, defines
 * the back end's tl_bench_variants, its `variants` and N_VARIANTS.
 */
int tl_bench_table(const tl_variant *before, const tl_variant *after, tl_variant *table);
#define TL_BENCH_TABLE(before, after)                                                         \
    static tl_variant variants[TL_MAX_VARIANTS];                                              \
    int tl_bench_variants(const tl_variant **table)                                           \
    {                                                                                         \
        static int n;                                                                         \
        if (!n)                                                                               \
            n = tl_bench_table(before, after, variants);                                      \
        *table = variants;                                                                    \
        return n;                                                                             \
    }
#define N_VARIANTS tl_bench_variants(&(const tl_variant *){NULL})
#define TL_MAX_VARIANTS 8

#ifdef TL_HAVE_OPENBLAS
#define TL_VARIANT_OPENBLAS_TRANSPOSE(X) \
    X("openblas", "OpenBLAS", "library", "reference", openblas_transpose)
#define TL_CPU_PRODUCT "CPU OpenBLAS"
#else
#define TL_VARIANT_OPENBLAS_TRANSPOSE(X)
#define TL_CPU_PRODUCT "CPU loop"
#endif

/* A copy of the same bytes: the ceiling of the labs that move them. */
#define TL_CEILING_COPY(X) X("memcpy", "copy (ceiling)", "ceiling", "reference", NULL)

/* Labs 1-2: host pointers. */
#define TL_LIBRARY_TRANSPOSE_CPU(X) TL_VARIANT_OPENBLAS_TRANSPOSE(X)

/* The CPU back end's rows after the lab's kernels: an operation's own (bench_cpu_OP.c), or none. */
extern const tl_variant tl_bench_cpu_library[];

/* Labs 3-6: device pointers. */
#define TL_LIBRARY_TRANSPOSE_GPU(X) X("cublas", "cuBLAS Sgeam", "library", "reference", cublas_transpose)

/* The in-place transpose (lab 9), beside the out-of-place reference of its
 * baseline lab (labNN_baseline in labs/labs.mk). */
#define TL_LIBRARY_INPLACE_GPU(X) X("out_of_place", "out of place", "library", "reference", reference_transpose)

/* The products (labs 7 and 8). */
#define TL_CEILING_PRODUCT_GPU(X) X("cublas", "cuBLAS SGEMM", "ceiling", "reference", cublas_matmul)
#define TL_LIBRARY_PRODUCT_GPU(X) X("cpu", TL_CPU_PRODUCT, "library", "reference", cpu_matmul)

/* The reduction (lab 10): a read-only stream of the same bytes, its ceiling, the copy that
 * the other labs' rates are shares of, and CUB's sum (bench_reduce.c). */
#define TL_CEILING_READ_GPU(X)                                                             \
    X("stream", "read-only stream (ceiling)", "ceiling", "reference", stream_read)        \
    X("copy", "D2D copy", "library", "reference", NULL)
#define TL_LIBRARY_REDUCE_GPU(X) X("cub", "CUB DeviceReduce::Sum", "library", "reference", cub_sum)

#define TL_ROLES "ceiling, reference, student, library"

#endif
