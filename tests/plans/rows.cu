// Rows by the runtime's 2D calls, which a pitched matrix's code makes: a memset of rows and a
// device-to-device copy of rows, one step each, in order with the launch between them.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t row = (size_t)rows * sizeof(float);
    cudaMemset2D(out, row, 0, row, (size_t)cols);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
    /* the first column of in into out's first row, a float a row */
    cudaMemcpy2DAsync(out, sizeof(float), in, (size_t)cols * sizeof(float), sizeof(float), (size_t)rows,
                      cudaMemcpyDeviceToDevice, 0);
}
