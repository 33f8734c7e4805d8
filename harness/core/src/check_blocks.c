/*
 * What a launch's block explains of a tiled transpose that went wrong: the
 * exact patterns that a kernel moving one element a thread through a t x t
 * tile leaves when its block has fewer rows of threads than the tile, or
 * when its threads return before the store. Each is a whole-matrix test:
 * every element is wrong exactly where the mistake says, and right
 * elsewhere, so a hint built on it names what happened.
 */
#include "check.h"

/* Element (r, c) of in came through to out (cols x rows), bit for bit. */
static int came_through(const float *out, const float *in, int rows, int cols, int r, int c)
{
    return tl_float_bits(out[(size_t)c * rows + r]) == tl_float_bits(in[(size_t)r * cols + c]);
}

int tl_short_block(const float *out, const float *in, int rows, int cols, unsigned t, unsigned by)
{
    int wrong = 0;
    if (by == 0 || by >= t)
        return 0;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int reached = (unsigned)r % t < by && (unsigned)c % t < by;
            int through = came_through(out, in, rows, cols, r, c);
            if (through != reached)
                return 0;
            wrong += !through;
        }
    return wrong > 0;
}

/*
 * Out's element (R, C) is stored by thread (C mod t, R mod t) of block
 * (R / t, C / t); that thread loads in's element (C - C mod t + R mod t,
 * R - R mod t + C mod t), another one unless the two lie on the tile's
 * diagonal.
 */
int tl_returned_before_store(const float *out, const float *in, int rows, int cols, unsigned t)
{
    int wrong = 0;
    if (t < 2)
        return 0;
    for (int R = 0; R < cols; R++)
        for (int C = 0; C < rows; C++) {
            unsigned lr = (unsigned)C / t * t + (unsigned)R % t, lc = (unsigned)R / t * t + (unsigned)C % t;
            int outside = lr >= (unsigned)rows || lc >= (unsigned)cols;
            uint32_t bits = tl_float_bits(out[(size_t)R * rows + C]);
            int through = bits == tl_float_bits(in[(size_t)C * cols + R]);
            if (outside ? bits != TL_POISON_BITS : !through)
                return 0;
            wrong += outside;
        }
    return wrong > 0;
}
