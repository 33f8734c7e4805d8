// expect: fail every multiply-add reads its operands from shared memory again
// gpu-expect: pass
// Sixteen elements of C a thread without register blocking: 16 x 16 threads
// compute a 64 x 64 tile of C, 4 x 4 elements each, and every multiply-add
// reads both its operands from the shared tiles again (through volatile, so
// that no compiler keeps one in a register): lab 7's two shared loads a
// multiply-add. "Each thread computes a tile of C" counted threads and global
// reuse alone and gave this its points (found by a cheater's hand-in,
// 2026-11-28: 8 of 10 where lab 7's kernel handed in as lab 8 scored 6); it
// now also counts the floats read from shared memory a multiply-add: 2.0
// here, where a 4 x 4 register tile reads 0.5 (1.25 where the emulator's g++
// reads one operand again), and more than 1.5 fails. On a GPU the technique
// checks are skipped: its tests pass.
#include "lab.h"

#define T 16
#define R 4
#define BT (T * R)

__global__ void coarse(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float As[BT][T], Bs[T][BT];
    volatile float(*va)[T] = As;
    volatile float(*vb)[BT] = Bs;
    int tx = threadIdx.x, ty = threadIdx.y, r0 = blockIdx.y * BT, c0 = blockIdx.x * BT;
    float acc[R][R] = {};
    for (int p0 = 0; p0 < k; p0 += T) {
        for (int i = 0; i < R; i++) {
            int row = r0 + ty + i * T, col = c0 + tx + i * T;
            As[ty + i * T][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
            Bs[ty][tx + i * T] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < R; i++)
            for (int j = 0; j < R; j++)
                for (int p = 0; p < T; p++)
                    acc[i][j] += va[ty + i * T][p] * vb[p][tx + j * T];
        __syncthreads();
    }
    for (int i = 0; i < R; i++)
        for (int j = 0; j < R; j++) {
            int row = r0 + ty + i * T, col = c0 + tx + j * T;
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(T, T), grid((n + BT - 1) / BT, (m + BT - 1) / BT);
    coarse<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
