/*
 * Lab 1 reference: the naive transpose. The inner loop walks a row of in,
 * so reads are sequential and each write jumps `rows` floats ahead: every
 * write touches a new cache line once the matrix outgrows the cache.
 */
#include "lab.h"

#include <stddef.h>

void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}
