/*
 * Lab 2 reference: cache blocking plus a register micro-tile.
 *
 * Reading in along its rows means writing out down its columns, so every
 * store lands in a different cache line of out. BLOCK x BLOCK tiles keep
 * the lines a tile touches in cache until they are used up. Inside a tile,
 * micro-tiles of 16 rows by 8 columns (4 without AVX) are loaded as rows,
 * transposed in registers as 8x8 squares (4x4) and stored as rows, so each
 * load and store moves a whole vector instead of one float. Each out row
 * of a micro-tile is 16 floats: one 64-byte cache line, stored at once.
 *
 * out is only written, never read, so when its rows are whole lines the
 * stores are non-temporal: they go straight to memory instead of first
 * reading each line into the cache, which saves a third of the memory
 * traffic on matrices bigger than the cache. Edges that are not a whole
 * micro-tile are copied one float at a time.
 */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

/* Best a multiple of 16: what is left of a tile past the last whole
 * micro-tile is copied one float at a time. */
#ifndef BLOCK
#define BLOCK 128
#endif

#define LINE 16 /* floats in a 64-byte cache line: the micro-tile's height */

#if defined(__AVX__)
#include <immintrin.h>
#define MICRO 8
typedef __m256 vec;

/* Transposes the 8x8 square at in into t[0..7], one out row each. */
static inline void square(vec t[MICRO], const float *in, size_t cols)
{
    __m256 r0 = _mm256_loadu_ps(in), r1 = _mm256_loadu_ps(in + cols);
    __m256 r2 = _mm256_loadu_ps(in + 2 * cols), r3 = _mm256_loadu_ps(in + 3 * cols);
    __m256 r4 = _mm256_loadu_ps(in + 4 * cols), r5 = _mm256_loadu_ps(in + 5 * cols);
    __m256 r6 = _mm256_loadu_ps(in + 6 * cols), r7 = _mm256_loadu_ps(in + 7 * cols);
    /* Interleave pairs of rows, then pairs of pairs: each 128-bit half now
     * holds a 4x4 transpose, which the last step puts in the right rows. */
    __m256 a0 = _mm256_unpacklo_ps(r0, r1), a1 = _mm256_unpackhi_ps(r0, r1);
    __m256 a2 = _mm256_unpacklo_ps(r2, r3), a3 = _mm256_unpackhi_ps(r2, r3);
    __m256 a4 = _mm256_unpacklo_ps(r4, r5), a5 = _mm256_unpackhi_ps(r4, r5);
    __m256 a6 = _mm256_unpacklo_ps(r6, r7), a7 = _mm256_unpackhi_ps(r6, r7);
    __m256 b0 = _mm256_shuffle_ps(a0, a2, 0x44), b1 = _mm256_shuffle_ps(a0, a2, 0xEE);
    __m256 b2 = _mm256_shuffle_ps(a1, a3, 0x44), b3 = _mm256_shuffle_ps(a1, a3, 0xEE);
    __m256 b4 = _mm256_shuffle_ps(a4, a6, 0x44), b5 = _mm256_shuffle_ps(a4, a6, 0xEE);
    __m256 b6 = _mm256_shuffle_ps(a5, a7, 0x44), b7 = _mm256_shuffle_ps(a5, a7, 0xEE);
    t[0] = _mm256_permute2f128_ps(b0, b4, 0x20);
    t[1] = _mm256_permute2f128_ps(b1, b5, 0x20);
    t[2] = _mm256_permute2f128_ps(b2, b6, 0x20);
    t[3] = _mm256_permute2f128_ps(b3, b7, 0x20);
    t[4] = _mm256_permute2f128_ps(b0, b4, 0x31);
    t[5] = _mm256_permute2f128_ps(b1, b5, 0x31);
    t[6] = _mm256_permute2f128_ps(b2, b6, 0x31);
    t[7] = _mm256_permute2f128_ps(b3, b7, 0x31);
}

static inline void store(float *p, vec v, int stream)
{
    if (stream)
        _mm256_stream_ps(p, v);
    else
        _mm256_storeu_ps(p, v);
}
#elif defined(__SSE__)
#include <xmmintrin.h>
#define MICRO 4
typedef __m128 vec;

static inline void square(vec t[MICRO], const float *in, size_t cols)
{
    __m128 a = _mm_loadu_ps(in);
    __m128 b = _mm_loadu_ps(in + cols);
    __m128 c = _mm_loadu_ps(in + 2 * cols);
    __m128 d = _mm_loadu_ps(in + 3 * cols);
    _MM_TRANSPOSE4_PS(a, b, c, d);
    t[0] = a, t[1] = b, t[2] = c, t[3] = d;
}

static inline void store(float *p, vec v, int stream)
{
    if (stream)
        _mm_stream_ps(p, v);
    else
        _mm_storeu_ps(p, v);
}
#endif

#if defined(__SSE__)
/* A stack of squares down the 16 rows: their rows side by side are
 * 16-float rows of out. */
static inline void micro_tile(float *out, const float *in, size_t rows, size_t cols, int stream)
{
    vec t[LINE / MICRO][MICRO];
    for (size_t k = 0; k < LINE / MICRO; k++)
        square(t[k], in + k * MICRO * cols, cols);
    for (size_t j = 0; j < MICRO; j++)
        for (size_t k = 0; k < LINE / MICRO; k++)
            store(out + j * rows + k * MICRO, t[k][j], stream);
}

static void finish_stores(void)
{
    _mm_sfence(); /* non-temporal stores are weakly ordered: drain them */
}
#else
/* No vectors here: one float at a time, and no non-temporal stores. */
#define MICRO 1

static inline void micro_tile(float *out, const float *in, size_t rows, size_t cols, int stream)
{
    (void)stream, (void)rows;
    for (size_t r = 0; r < LINE; r++)
        out[r] = in[r * cols];
}

static void finish_stores(void)
{
}
#endif

static void scalar_tile(float *out, const float *in, size_t rows, size_t cols, size_t r0,
                        size_t r1, size_t c0, size_t c1)
{
    for (size_t r = r0; r < r1; r++)
        for (size_t c = c0; c < c1; c++)
            out[c * rows + r] = in[r * cols + c];
}

static inline void block(float *out, const float *in, size_t rows, size_t cols, size_t r0,
                         size_t r1, size_t c0, size_t c1, int stream)
{
    size_t rm = r0 + (r1 - r0) / LINE * LINE, cm = c0 + (c1 - c0) / LINE * LINE;
    if (stream) {
        /* Nothing of out stays in cache, so go down 16-column strips: each
         * line of in is used whole at once, and each out row is written in
         * address order. */
        for (size_t c = c0; c < cm; c += LINE)
            for (size_t r = r0; r < rm; r += LINE)
                for (size_t m = c; m < c + LINE; m += MICRO)
                    micro_tile(out + m * rows + r, in + r * cols + m, rows, cols, stream);
    } else {
        /* Read in in address order, and leave the out lines that the next
         * 16 rows will finish in cache (rows of out need not start on a
         * line). */
        for (size_t r = r0; r < rm; r += LINE)
            for (size_t c = c0; c < cm; c += MICRO)
                micro_tile(out + c * rows + r, in + r * cols + c, rows, cols, stream);
    }
    scalar_tile(out, in, rows, cols, rm, r1, c0, c1);
    scalar_tile(out, in, rows, cols, r0, rm, cm, c1);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t nr = (size_t)rows, nc = (size_t)cols;
    /* Non-temporal stores pay only for whole lines: every row of out must
     * start on one. */
    int stream = BLOCK % LINE == 0 && nr % LINE == 0 &&
                 (uintptr_t)out % (LINE * sizeof(float)) == 0;
    for (size_t r = 0; r < nr; r += BLOCK)
        for (size_t c = 0; c < nc; c += BLOCK) {
            size_t r1 = r + BLOCK < nr ? r + BLOCK : nr, c1 = c + BLOCK < nc ? c + BLOCK : nc;
            /* Two calls with a constant, so the compiler makes two copies
             * of block() with no test left in the inner loop. */
            if (stream)
                block(out, in, nr, nc, r, r1, c, c1, 1);
            else
                block(out, in, nr, nc, r, r1, c, c1, 0);
        }
    if (stream)
        finish_stores();
}
