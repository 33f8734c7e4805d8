// What a plan cannot carry, one call a shape (its rows): each refused, with why.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static void host_side(void *data) { (void)data; }

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    float *mine = NULL;
    size_t pitch;
    cudaResourceDesc res = {};
    cudaTextureDesc tex = {};
    cudaTextureObject_t t = 0;
    void *args[] = {&out, &in, &rows, &cols};
    switch (rows) {
    case 1: cudaMallocAsync((void **)&mine, 64, 0); break;
    case 2: cudaMallocPitch((void **)&mine, &pitch, 64, 2); break;
    case 3: cudaFree(out); break;
    case 4:
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = (void *)in;
        res.res.linear.desc = cudaCreateChannelDesc<float>();
        res.res.linear.sizeInBytes = (size_t)rows * cols * sizeof(float);
        cudaCreateTextureObject(&t, &res, &tex, NULL);
        break;
    case 5: cudaLaunchHostFunc(0, host_side, NULL); break;
    case 6: cudaLaunchCooperativeKernel((const void *)naive, grid, block, args, 0, 0); break;
    default: cudaFree(NULL); /* frees nothing: nothing refused */
    }
    naive<<<grid, block>>>(out, in, rows, cols);
}
