/*
 * The bench's variants: one table per operation, the only place a variant's
 * name, label and role are written. The bench runs and reports them in the
 * table's order, the ceiling first, and writes name, label and role into
 * every CSV row; the figures, the slides and the grader read them there.
 * `make plots` draws recorded CSVs written before the label and role columns
 * from build/bench/variants.csv, which bench_variants_csv.c prints from
 * these same tables.
 *
 * A row is X(name, label, role, vs, fn):
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

typedef struct {
    const char *name, *label, *role, *vs;
    void (*fn)(void);   /* the back end casts it back to its operation's type */
    const char *symbol; /* fn's name: "reference_matmul_naive" */
} tl_variant;

/* A row of a table as a tl_variant, for a back end's X. */
#define TL_VARIANT(name, label, role, vs, fn) {name, label, role, vs, (void (*)(void))(fn), #fn},

/* The tables of the lab's operation, which the Makefile names (-DTL_LAB_OP=matmul):
 * TL_KERNELS_OF(TL_LAB_OP) is TL_KERNELS_matmul. */
#define TL_CAT_(a, b) a##b
#define TL_CAT(a, b) TL_CAT_(a, b)
#define TL_KERNELS_OF(op) TL_CAT(TL_KERNELS_, op)

#ifdef TL_HAVE_OPENBLAS
#define TL_VARIANT_OPENBLAS_TRANSPOSE(X) \
    X("openblas", "OpenBLAS", "library", "reference", openblas_transpose)
#define TL_CPU_PRODUCT "CPU OpenBLAS"
#else
#define TL_VARIANT_OPENBLAS_TRANSPOSE(X)
#define TL_CPU_PRODUCT "CPU loop"
#endif

/*
 * The lab's own kernels, the reference's and the student's, of each
 * operation: the rows that the emulator's profile counts as well.
 */
#define TL_KERNELS_transpose(X)                                                       \
    X("reference", "reference", "reference", "reference", reference_transpose)        \
    X("student", "your code", "student", "reference", transpose)

#define TL_KERNELS_inplace(X)                                                         \
    X("reference", "reference", "reference", "reference", reference_transpose_inplace)\
    X("student", "your code", "student", "reference", transpose_inplace)

/* Lab 7: the tiled kernels are the headline, the naive ones beside them. */
#define TL_KERNELS_matmul(X)                                                          \
    X("reference", "reference", "reference", "reference", reference_matmul_tiled)     \
    X("student", "your code", "student", "reference", matmul_tiled)                   \
    X("ref_naive", "naive (ref.)", "reference", "reference", reference_matmul_naive)  \
    X("naive", "your naive", "student", "ref_naive", matmul_naive)

#define TL_KERNELS_sgemm(X)                                                           \
    X("reference", "reference", "reference", "reference", reference_sgemm)            \
    X("student", "your code", "student", "reference", sgemm)

/* Labs 1-2: host pointers. */
#define TL_VARIANTS_TRANSPOSE_CPU(X)                                                  \
    X("memcpy", "copy (ceiling)", "ceiling", "reference", NULL)                       \
    TL_KERNELS_transpose(X)                                                           \
    TL_VARIANT_OPENBLAS_TRANSPOSE(X)

/* Labs 3-6: device pointers. */
#define TL_VARIANTS_TRANSPOSE_GPU(X)                                                  \
    X("memcpy", "copy (ceiling)", "ceiling", "reference", NULL)                       \
    TL_KERNELS_transpose(X)                                                           \
    X("cublas", "cuBLAS Sgeam", "library", "reference", cublas_transpose)

/* The in-place transpose (lab 9), beside the out-of-place reference of its
 * baseline lab (labNN_baseline in labs/labs.mk). */
#define TL_VARIANTS_INPLACE_GPU(X)                                                    \
    X("memcpy", "copy (ceiling)", "ceiling", "reference", NULL)                       \
    TL_KERNELS_inplace(X)                                                             \
    X("out_of_place", "out of place", "library", "reference", reference_transpose)

/* The products (labs 7 and 8): the kernels of the lab's operation between cuBLAS and the CPU. */
#define TL_VARIANTS_PRODUCT_GPU(X, kernels)                                           \
    X("cublas", "cuBLAS SGEMM", "ceiling", "reference", cublas_matmul)                \
    kernels(X)                                                                        \
    X("cpu", TL_CPU_PRODUCT, "library", "reference", cpu_matmul)

#define TL_ROLES "ceiling, reference, student, library"

/* The rate's unit: the transposes move bytes, the products compute. */
#define TL_UNIT_TRANSPOSE "GB/s"
#define TL_UNIT_PRODUCT "GFLOP/s"

#endif
