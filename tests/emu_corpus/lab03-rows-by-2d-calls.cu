// expect: pass
// A transpose around the runtime's 2D calls, as code for pitched matrices
// writes them: out cleared by cudaMemset2D (cols rows of rows floats), the
// naive kernel for every row of out but the first, then in's first column
// copied into out's first row by cudaMemcpy2DAsync (a float a row, device to
// device). Right only if the three run, in the order asked for: on the kit's
// GPU path the 2D calls went to the runtime at once, in the lab process,
// where the kit's buffers are not, and out's first row was never written
// (session 16); now they are steps of the launch plan.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c > 0 && c < cols) /* out's row c; row 0 is the copy's */
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t row = (size_t)rows * sizeof(float);
    cudaMemset2D(out, row, 0, row, (size_t)cols);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
    cudaMemcpy2DAsync(out, sizeof(float), in, (size_t)cols * sizeof(float), sizeof(float), (size_t)rows,
                      cudaMemcpyDeviceToDevice, 0);
}
