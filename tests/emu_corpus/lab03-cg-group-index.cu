// expect: pass
// Correct: the block and thread coordinates come from cooperative groups
// (group_index() and thread_index() of this_thread_block()) instead of the
// built-ins, a 16 x 16 block, __restrict__ pointers.
#include <cooperative_groups.h>
#include "lab.h"

namespace cg = cooperative_groups;

__global__ void naive_cg(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    dim3 b = block.group_index(), t = block.thread_index(), d = block.group_dim();
    int c = b.x * d.x + t.x;
    int r = b.y * d.y + t.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(16, 16);
    dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
    naive_cg<<<grid, block>>>(out, in, rows, cols);
}
