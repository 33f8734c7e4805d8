/*
 * Kernels with a known flaw or a known access pattern, for the emulator's
 * own tests (tests/emu_test.c). Each launcher has C linkage.
 */
#include <assert.h>

#include "lab.h"

#define N 32

__global__ void race(float *out, const float *in)
{
    __shared__ float tile[N];
    tile[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = tile[N - 1 - threadIdx.x]; /* no __syncthreads() between */
}

__global__ void synced(float *out, const float *in)
{
    __shared__ float tile[N];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

__global__ void no_bounds_check(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void shared_off_by_one(float *out)
{
    __shared__ float s[N];
    s[threadIdx.x + 1] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

/* One block of 32 x 32 threads over a 32 x 32 matrix: 32 warps, one row each. */
__global__ void copy_rows(float *out, const float *in)
{
    out[threadIdx.y * N + threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
}

__global__ void store_columns(float *out, const float *in)
{
    out[threadIdx.x * N + threadIdx.y] = in[threadIdx.y * N + threadIdx.x];
}

__global__ void shared_columns(float *out, const float *in)
{
    __shared__ float tile[N][N];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void shared_columns_padded(float *out, const float *in)
{
    __shared__ float tile[N][N + 1];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

/* 32 threads, a float4 each: one 16-byte access per thread, as on a GPU. */
__global__ void copy_float4(float *out, const float *in)
{
    ((float4 *)out)[threadIdx.x] = ((const float4 *)in)[threadIdx.x];
}

/* Odd lanes load once in a loop first: a warp's common load is still one request. */
__global__ void uneven_then_common(float *out, const float *in)
{
    float acc = 0.0f;
    for (unsigned i = 0; i < threadIdx.x % 2; i++)
        acc += in[64 + i];
    out[threadIdx.x] = acc + in[threadIdx.x];
}

/* 32 float2 stores to shared memory: 256 bytes, two passes of 128 without a conflict. */
__global__ void shared_float2(float *out)
{
    __shared__ float2 t[N];
    t[threadIdx.x] = make_float2(1.0f, 2.0f);
    __syncthreads();
    out[threadIdx.x] = t[N - 1 - threadIdx.x].y;
}

/* Four scalar stores a thread, neighbours 16 bytes apart: nvcc makes them one STS.128. */
extern "C" const int four_scalar_stores_line = __LINE__ + 5;
__global__ void four_scalar_stores(float *out)
{
    __shared__ __align__(16) float t[4 * N];
    for (int i = 0; i < 4; i++)
        t[threadIdx.x * 4 + i] = (float)i;
    __syncthreads();
    out[threadIdx.x] = t[threadIdx.x];
}

/* Even threads wait at one barrier, odd ones at another: undefined on a GPU. */
__global__ void split_barrier(float *out)
{
    if (threadIdx.x % 2 == 0) {
        out[threadIdx.x] = 1.0f;
        __syncthreads(); /* BARRIER_EVEN */
    } else {
        __syncthreads(); /* BARRIER_ODD */
        out[threadIdx.x] = 2.0f;
    }
}

__global__ void failing_assert(float *out)
{
    assert(threadIdx.x < 16);
    out[threadIdx.x] = 1.0f;
}

__global__ void take_int(float *out, int v)
{
    out[threadIdx.x] = (float)v;
}

__global__ void read_through(float *out, const int *p)
{
    out[threadIdx.x] = (float)*p;
}

/* Thread i reads what thread i - 1 wrote, with no barrier between: a race. */
__global__ void race_backwards(float *out)
{
    __shared__ float t[N];
    t[threadIdx.x] = (float)threadIdx.x;
    out[threadIdx.x] = threadIdx.x ? t[threadIdx.x - 1] : 0.0f;
}

/* Two tiles of a template kernel; past < 0 indexes t right into u (there is no red zone). */
template <int M> __global__ void template_shared(float *out, int past)
{
    __shared__ float t[M], u[M];
    t[(int)threadIdx.x + (past < 0 ? (int)(u - t) : past)] = (float)threadIdx.x;
    u[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = t[M - 1 - threadIdx.x] + u[threadIdx.x];
}

static int evaluations;
static int evaluate(void)
{
    return ++evaluations;
}

/* Float4 reads of shared memory as lab 8's reference makes them: a row that
 * 16 lanes share (tx = lane % 16, ty = lane / 16), then 16 neighbouring
 * float4s that each half-warp reads alike. */
__global__ void shared_float4_reads(float *out)
{
    __shared__ __align__(16) float t[4 * N];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    for (int i = 0; i < 4; i++)
        t[threadIdx.x * 4 + i] = (float)i;
    __syncthreads();
    float4 a = *(const float4 *)&t[ty * 4];
    float4 b = *(const float4 *)&t[tx * 4];
    out[threadIdx.x] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
}

/* Lab 8's warp-tile reads: a float4 that each quarter-warp's 8 lanes share
 * (lane / 8), then 8 neighbouring float4s that both quarters of each
 * half-warp read alike (lane % 8). */
__global__ void quarter_warp_float4_reads(float *out)
{
    __shared__ __align__(16) float t[4 * N];
    for (int i = 0; i < 4; i++)
        t[threadIdx.x * 4 + i] = (float)i;
    __syncthreads();
    float4 a = *(const float4 *)&t[threadIdx.x / 8 * 4];
    float4 b = *(const float4 *)&t[threadIdx.x % 8 * 4];
    out[threadIdx.x] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
}

/* Shared reads with lanes in pairs on one address, as ncu counted them on
 * the H100 (plots/data/ncu-lds-pairs-h100/): float4s, lanes l and l ^ 1
 * paired (16 float4s) and l and l ^ 2 paired (8); float2s 16 bytes apart,
 * lanes l and l ^ 1 paired (8 words), then unpaired (lane % 8, 8 words). */
__global__ void paired_lane_reads(float *out)
{
    __shared__ __align__(16) float t[4 * N];
    int l = threadIdx.x % 32;
    for (int i = 0; i < 4; i++)
        t[threadIdx.x * 4 + i] = (float)i;
    __syncthreads();
    float4 a = *(const float4 *)&t[(l >> 1) * 4];
    float4 b = *(const float4 *)&t[((l & 1) | (l >> 2) << 1) * 4];
    float2 c = *(const float2 *)&t[((l >> 1) & 7) * 4];
    float2 d = *(const float2 *)&t[(l & 7) * 4];
    out[threadIdx.x] = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + d.x + d.y;
}

/* A thread reads two rows of 4 floats, interleaved: row r's float p, then
 * row r + 16's, for p = 0 .. 3. nvcc gathers each row into one LDS.128
 * (two a thread, SASS for sm_90); as the accesses come, no two neighbours
 * are one after another. */
__global__ void interleaved_row_reads(float *out)
{
    __shared__ __align__(16) float t[N][4];
    for (int i = 0; i < 4; i++)
        t[threadIdx.x][i] = (float)i;
    __syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < 4; p++)
#pragma unroll
        for (int i = 0; i < 2; i++)
            s += t[(threadIdx.x + 16 * i) % N][p] * (float)(i + 1);
    out[threadIdx.x] = s;
}

/* A float4 of which the kernel uses one float: nvcc loads that float alone (an LDS). */
__global__ void float4_read_for_one_float(float *out)
{
    __shared__ __align__(16) float t[4 * N];
    t[threadIdx.x] = t[threadIdx.x + N] = t[threadIdx.x + 2 * N] = t[threadIdx.x + 3 * N] = 1.0f;
    __syncthreads();
    float4 a = *(const float4 *)&t[threadIdx.x * 4];
    out[threadIdx.x] = a.y;
}

/* A block's work besides memory, counted: two barriers, a shuffle and a __syncwarp() a warp,
 * a read-modify-write of shared memory (whose store gcc leaves unchecked), and one store a
 * warp from its lane 0 (a divergent request). */
__global__ void block_work(float *out)
{
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = (float)t;
    __syncthreads();
    s[t] += 1.0f;
    float v = s[t];
    v += __shfl_down_sync(0xffffffffu, v, 16);
    __syncwarp();
    if (t % 32 == 0)
        out[blockIdx.x * 2 + t / 32] = v;
    __syncthreads();
}

/* Thread i copies in[from + i] to out[i], and stores 1 at out[to + i]: offsets past the ends. */
__global__ void read_and_store_at(float *out, const float *in, size_t from, size_t to)
{
    out[threadIdx.x] = in[from + threadIdx.x];
    out[to + threadIdx.x] = 1.0f;
}

/* 40 elements over a grid of 4 blocks of 32: the last two blocks idle behind the bounds test. */
__global__ void guarded_fill(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 1.0f;
}

extern "C" {
void launch_block_work(float *out) { block_work<<<2, 64>>>(out); }
void launch_guarded_fill(float *out) { guarded_fill<<<4, 32>>>(out, 40); }
void launch_uneven_then_common(float *out, const float *in) { uneven_then_common<<<1, N>>>(out, in); }
void launch_shared_float2(float *out) { shared_float2<<<1, N>>>(out); }
void launch_four_scalar_stores(float *out) { four_scalar_stores<<<1, N>>>(out); }
void launch_shared_float4_reads(float *out) { shared_float4_reads<<<1, N>>>(out); }
void launch_quarter_warp_float4_reads(float *out) { quarter_warp_float4_reads<<<1, N>>>(out); }
void launch_paired_lane_reads(float *out) { paired_lane_reads<<<1, N>>>(out); }
void launch_interleaved_row_reads(float *out) { interleaved_row_reads<<<1, N>>>(out); }
void launch_float4_read_for_one_float(float *out) { float4_read_for_one_float<<<1, N>>>(out); }
void launch_split_barrier(float *out) { split_barrier<<<1, N>>>(out); }
void launch_failing_assert(float *out) { failing_assert<<<1, N>>>(out); }
int launch_counting_evaluations(float *out)
{
    evaluations = 0;
    take_int<<<1, N>>>(out, evaluate());
    return evaluations;
}
void launch_host_stack(float *out)
{
    int on_the_stack = 3;
    read_through<<<1, N>>>(out, &on_the_stack);
}
void launch_race_backwards(float *out) { race_backwards<<<1, N>>>(out); }
void launch_template_shared(float *out, int past) { template_shared<N><<<1, N>>>(out, past); }
cudaError_t blocks_per_sm(int *blocks, int threads, size_t dynamic_shared)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, template_shared<N>, threads,
                                                         dynamic_shared);
}

void launch_copy_float4(float *out, const float *in) { copy_float4<<<1, N>>>(out, in); }
void launch_race(float *out, const float *in) { race<<<1, N>>>(out, in); }
void launch_synced(float *out, const float *in) { synced<<<1, N>>>(out, in); }
void launch_no_bounds_check(float *out, int blocks, int threads)
{
    no_bounds_check<<<blocks, threads>>>(out);
}
void launch_read_and_store_at(float *out, const float *in, size_t from, size_t to)
{
    read_and_store_at<<<1, N>>>(out, in, from, to);
}
void launch_shared_off_by_one(float *out) { shared_off_by_one<<<1, N>>>(out); }
void launch_too_many_threads(float *out) { no_bounds_check<<<1, 1025>>>(out); }
void launch_grid_too_tall(float *out) { no_bounds_check<<<dim3(1, 65536), 1>>>(out); }
void launch_pattern(int which, float *out, const float *in)
{
    dim3 block(N, N);
    switch (which) {
    case 0: copy_rows<<<1, block>>>(out, in); break;
    case 1: store_columns<<<1, block>>>(out, in); break;
    case 2: shared_columns<<<1, block>>>(out, in); break;
    default: shared_columns_padded<<<1, block>>>(out, in); break;
    }
}
}

/* Each lane swaps m[t] with m[N + t]: a load and a store of each address with no call between,
 * whose stores gcc leaves unchecked (lab 9's step 1). */
__global__ void swap_halves(float *m)
{
    float t = m[threadIdx.x];
    m[threadIdx.x] = m[N + threadIdx.x];
    m[N + threadIdx.x] = t;
}
extern "C" void launch_swap_halves(float *m) { swap_halves<<<1, N>>>(m); }
