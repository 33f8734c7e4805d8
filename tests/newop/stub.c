/*
 * Lab: row sums on the CPU. in is rows x cols, row-major; out holds rows
 * floats: out[r] = in[r][0] + ... + in[r][cols - 1]. Every size >= 1 occurs.
 */
#include "lab.h"

TILELAB_ENTRY void row_sum(float *out, const float *in, int rows, int cols);

void row_sum(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
    TODO("write a loop over r < rows that sums row r of in into out[r]");
}
