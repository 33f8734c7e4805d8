/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: an L2 persisting window that
 * survives the bench's flush (pygpubench#49).
 * control: naive-transpose.cu
 *
 * The naive transpose, whose host code sets aside L2 for persisting lines and
 * marks its input persisting on the default stream, so that a matrix read
 * again and again would stay in L2 through the flush between repetitions.
 * A lab's function may only launch (lab.h): on a GPU its plan records no
 * such call, and the kit's stream has no window; each timed call's input is
 * new anyway. The emulator has no L2 to reserve.
 */
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 32u << 20);
    cudaStreamAttrValue window = {};
    window.accessPolicyWindow.base_ptr = (void *)in;
    window.accessPolicyWindow.num_bytes = (size_t)rows * cols * sizeof(float);
    window.accessPolicyWindow.hitRatio = 1.0f;
    window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &window);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block>>>(out, in, rows, cols);
}
