/*
 * Honest control (tests/hostile_test.sh), lab 2: the textbook blocked loop
 * at BLOCK 4, the handout's step 2 with a small tile: about half the
 * reference's simulated misses' worth (0.53), a few performance points.
 */
#include "lab.h"

#include <stddef.h>

#ifndef BLOCK
#define BLOCK 4
#endif

void transpose(float *out, const float *in, int rows, int cols)
{
    for (int rb = 0; rb < rows; rb += BLOCK)
        for (int cb = 0; cb < cols; cb += BLOCK)
            for (int r = rb; r < rb + BLOCK && r < rows; r++)
                for (int c = cb; c < cb + BLOCK && c < cols; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
