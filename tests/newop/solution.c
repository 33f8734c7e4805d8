/* Row sums on the CPU: each row's floats in order. */
#include "lab.h"

#include <stddef.h>

TILELAB_ENTRY void row_sum(float *out, const float *in, int rows, int cols);

void row_sum(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++) {
        float sum = 0.0f;
        for (int c = 0; c < cols; c++)
            sum += in[(size_t)r * cols + c];
        out[r] = sum;
    }
}
