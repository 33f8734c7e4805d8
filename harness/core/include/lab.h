/*
 * tilelab: the entry points a lab file defines, and the one helper it may call.
 *
 * Every matrix is float, row-major and densely packed: element (r, c) of a
 * matrix with `cols` columns sits at index (size_t)r * cols + c.
 *
 * The declarations have C linkage so that the C harness can call a lab
 * written in CUDA C (a .cu file is compiled as C++).
 */
#ifndef TILELAB_LAB_H
#define TILELAB_LAB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Labs 1-2 (host pointers) and labs 3-6 (device pointers):
 * in is rows x cols, out is cols x rows, out[c][r] = in[r][c].
 * A GPU lab launches its kernel(s) on the default stream and returns
 * without synchronising; the harness checks the launch and waits. Besides
 * launches it may set and copy device memory (cudaMemset, cudaMemcpy device
 * to device, and their 2D forms), set its own __constant__ and __device__
 * variables (cudaMemcpyToSymbol, from the host too), and use streams and
 * events, but allocates and frees nothing and copies nothing else from or to
 * the host: the kit runs a lab from a plan of these calls (plan.h), after
 * the function returns. So neither may it make texture or surface objects
 * (gone by then), nor launch other than with <<< >>>, cudaLaunchKernel or
 * cudaLaunchKernelEx (no cooperative launch, host function or graph):
 * lab_refusals.h has what a call that does is told, on a GPU and on the
 * emulator alike.
 */
void transpose(float *out, const float *in, int rows, int cols);

/* Lab 7: C[m x n] = A[m x k] * B[k x n], device pointers. */
void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);

/* Lab 8, the extension: the same product, as fast as you can make it. */
void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);

/*
 * Lab 9, the in-place extension: the square n x n matrix d_mat, on the GPU,
 * replaced by its transpose in its own memory: mat[c][r] takes mat[r][c].
 * In its own memory means no second matrix: neither cudaMalloc (refused in
 * every lab) nor the file's own __device__ or __constant__ variables, nor
 * the device's heap (malloc in a kernel), which may hold TL_INPLACE_OWN_BYTES
 * together (a counter, a few flags); a call of a file whose variables hold
 * more is refused, and on the emulator a kernel's malloc past them.
 */
#define TL_INPLACE_OWN_BYTES (16 * 1024)
void transpose_inplace(float *d_mat, int n);

/*
 * Lab 10, the reduction: *d_out = d_in[0] + ... + d_in[n - 1], device
 * pointers, n >= 0 (0: the sum is 0) and past 2^31 too. d_in is const;
 * partial sums go where the lab's own code keeps them (shared memory,
 * registers, a __device__ array), never in d_in or past *d_out.
 */
void reduce(float *d_out, const float *d_in, size_t n);

/*
 * An entry point of an operation that lab.h does not list (harness/core/ops/):
 * its lab file declares it so, with C linkage, in the stub's header.
 */
#ifdef __cplusplus
#define TILELAB_ENTRY extern "C"
#else
#define TILELAB_ENTRY
#endif

/*
 * A stub marks what is left to write with TODO("what to do"). The tests
 * print the message, with the file and line, before anything else.
 */
void tilelab_todo(const char *file, int line, const char *what);
#define TODO(what) tilelab_todo(__FILE__, __LINE__, (what))

#ifdef __cplusplus
}
#endif

#endif
