/*
 * Lab 2 reference: cache blocking plus a register micro-tile.
 *
 * BLOCK x BLOCK tiles keep the lines of out being filled in cache until
 * they are full. Inside a tile, 4x4 micro-tiles are loaded as four rows,
 * transposed in registers and stored as four rows, so each load and store
 * moves 16 bytes instead of 4. Edges that are not a whole micro-tile fall
 * back to scalar copies.
 */
#include "lab.h"

#include <stddef.h>

#ifndef BLOCK
#define BLOCK 64
#endif

#if defined(__SSE__)
#include <xmmintrin.h>

static inline void micro_tile(float *out, const float *in, size_t rows, size_t cols)
{
    __m128 a = _mm_loadu_ps(in);
    __m128 b = _mm_loadu_ps(in + cols);
    __m128 c = _mm_loadu_ps(in + 2 * cols);
    __m128 d = _mm_loadu_ps(in + 3 * cols);
    _MM_TRANSPOSE4_PS(a, b, c, d);
    _mm_storeu_ps(out, a);
    _mm_storeu_ps(out + rows, b);
    _mm_storeu_ps(out + 2 * rows, c);
    _mm_storeu_ps(out + 3 * rows, d);
}
#else
static inline void micro_tile(float *out, const float *in, size_t rows, size_t cols)
{
    float t[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            t[j][i] = in[i * cols + j];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            out[j * rows + i] = t[j][i];
}
#endif

static void scalar_tile(float *out, const float *in, size_t rows, size_t cols, size_t r0,
                        size_t r1, size_t c0, size_t c1)
{
    for (size_t r = r0; r < r1; r++)
        for (size_t c = c0; c < c1; c++)
            out[c * rows + r] = in[r * cols + c];
}

static void block(float *out, const float *in, size_t rows, size_t cols, size_t r0, size_t r1,
                  size_t c0, size_t c1)
{
    size_t r4 = r0 + (r1 - r0) / 4 * 4, c4 = c0 + (c1 - c0) / 4 * 4;
    for (size_t c = c0; c < c4; c += 4)
        for (size_t r = r0; r < r4; r += 4)
            micro_tile(out + c * rows + r, in + r * cols + c, rows, cols);
    scalar_tile(out, in, rows, cols, r4, r1, c0, c1);
    scalar_tile(out, in, rows, cols, r0, r4, c4, c1);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t nr = (size_t)rows, nc = (size_t)cols;
    for (size_t r = 0; r < nr; r += BLOCK)
        for (size_t c = 0; c < nc; c += BLOCK)
            block(out, in, nr, nc, r, r + BLOCK < nr ? r + BLOCK : nr, c,
                  c + BLOCK < nc ? c + BLOCK : nc);
}
