// expect: pass
// Correct: both kernels accumulate in double and round once at the end
// (closer to the exact product than a float sum: well inside the bound),
// and matmul_tiled launches on a stream of its own made once, after an
// event recorded on the default stream so that it starts after what came
// before, and the default stream waits for it (a second event) before the
// call returns: the harness's wait on the default stream covers it.
#include "lab.h"

#define TW 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * TW + threadIdx.y, col = blockIdx.x * TW + threadIdx.x;
    if (row < m && col < n) {
        double s = 0.0;
        for (int p = 0; p < k; p++)
            s += (double)a[(size_t)row * k + p] * (double)b[(size_t)p * n + col];
        c[(size_t)row * n + col] = (float)s;
    }
}

__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float sa[TW][TW], sb[TW][TW];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TW + ty, col = blockIdx.x * TW + tx;
    double s = 0.0;
    for (int t = 0; t < k; t += TW) {
        sa[ty][tx] = (row < m && t + tx < k) ? a[(size_t)row * k + t + tx] : 0.0f;
        sb[ty][tx] = (t + ty < k && col < n) ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TW; p++)
            s += (double)sa[ty][p] * (double)sb[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = (float)s;
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW)>>>(c, a, b, m, n, k);
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    static cudaStream_t side;
    static cudaEvent_t before, after;
    if (!side) {
        cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&before, cudaEventDisableTiming);
        cudaEventCreateWithFlags(&after, cudaEventDisableTiming);
    }
    cudaEventRecord(before, 0);
    cudaStreamWaitEvent(side, before, 0);
    tiled<<<dim3((n + TW - 1) / TW, (m + TW - 1) / TW), dim3(TW, TW), 0, side>>>(c, a, b, m, n, k);
    cudaEventRecord(after, side);
    cudaStreamWaitEvent(0, after, 0);
}
