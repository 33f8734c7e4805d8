/* Matrix shapes: parsing what people type, and seeded random shapes. */
#ifndef TILELAB_SHAPES_H
#define TILELAB_SHAPES_H

#include <stddef.h>
#include <stdint.h>

/* rows x cols; depth is the k of a matrix product (m x n x k), unused by a transpose. */
typedef struct {
    int rows, cols, depth;
} tl_shape;

/*
 * The largest dimension accepted anywhere: 65535 blocks (CUDA's limit on
 * gridDim.y) of 8 rows, so a plain 2-D launch with 8 or more rows per block
 * covers every size the kit asks for.
 */
#define TL_MAX_DIM (65535 * 8)

/*
 * "4096" is 4096x4096 (and depth 4096); "4097x8191" is 4097 rows, 8191
 * cols (depth = cols); "1000x2000x300" gives the depth too. 0, or -1 with a reason.
 */
int tl_parse_shape(const char *text, tl_shape *shape, char *why, size_t why_len);
/* A comma-separated list of shapes; the count, or -1 with a reason. */
int tl_parse_shapes(const char *text, tl_shape *shapes, int max, char *why, size_t why_len);
/* "4194304": a count of elements >= 1, as tl_count_shape carries it. 0, or -1 with a reason. */
int tl_parse_elements(const char *text, tl_shape *shape, char *why, size_t why_len);
/* A comma-separated list of what parse reads (tl_parse_shape, tl_parse_elements). */
int tl_parse_list(const char *text, int (*parse)(const char *, tl_shape *, char *, size_t),
                  tl_shape *shapes, int max, char *why, size_t why_len);
/* Strict unsigned decimal; 0, or -1 when it is not one. */
int tl_parse_count(const char *text, long max, long *value);

size_t tl_shape_elements(tl_shape s);

/*
 * A count of elements (an operation of one dimension, op.h's dims 1) as a
 * shape of rows x cols = n: 1 x n up to INT_MAX, past it r x n / r for the
 * least r that leaves n / r an int, so that n past 2^31 rides whole in a
 * shape of ints. 0, or -1 where no such r of at most 2^20 exists (a prime
 * past INT_MAX, n past 2^51).
 */
int tl_count_shape(size_t n, tl_shape *s);

/* TILELAB_SEED (decimal or 0x hex) or the kit's fixed default. 0, or -1 with a reason. */
#define TL_DEFAULT_SEED 20261123u
int tl_seed(uint64_t *seed, char *why, size_t why_len);

/* Dimensions spread evenly on a log scale over [1, max_dim]. */
tl_shape tl_random_shape(uint64_t *state, int max_dim);

#endif
