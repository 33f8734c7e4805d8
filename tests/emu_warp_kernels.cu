/*
 * Kernels of warp collectives for the emulator's tests (tests/emu_warp_test.c):
 * each writes what each lane got back, so a test can hold it against CUDA's
 * rule. Launchers have C linkage.
 */
#include "lab.h"

#define FULL 0xffffffffu

/* Each lane's result of one collective, by case: unsigned bits in out[lane]. */
__global__ void shuffles(unsigned *out, int which)
{
    int l = threadIdx.x % 32;
    unsigned r = 0;
    switch (which) {
    case 0: r = __shfl_down_sync(FULL, (unsigned)l, 1); break;
    case 1: r = __shfl_up_sync(FULL, (unsigned)l, 1); break;
    case 2: r = __shfl_xor_sync(FULL, (unsigned)l, 8, 16); break;
    case 3: r = __shfl_sync(FULL, (unsigned)l, 3, 8); break;
    case 4: r = __shfl_sync(FULL, (unsigned)l, -1); break;
    case 5: r = __shfl_up_sync(FULL, (unsigned)l, 2, 8); break;
    case 6: r = __shfl_down_sync(FULL, (unsigned)l, 3, 8); break;
    case 7: r = __shfl_xor_sync(FULL, (unsigned)l, 16, 16); break; /* leaves its segment downwards */
    case 8: r = __ballot_sync(FULL, l % 3 == 0); break;
    case 9: r = (unsigned)__any_sync(FULL, l == 31) | (unsigned)__all_sync(FULL, l < 31) << 1 |
                (unsigned)__all_sync(FULL, l < 32) << 2;
        break;
    case 10: r = __match_any_sync(FULL, l / 4); break;
    case 11: {
        int pred = -1;
        unsigned m = __match_all_sync(FULL, 7.0f, &pred);
        int pred2 = -1;
        unsigned m2 = __match_all_sync(FULL, l == 9 ? 1.0 : 2.0, &pred2);
        r = (m == FULL && pred == 1 && m2 == 0 && pred2 == 0) ? 1u : 0u;
        break;
    }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800 /* compute capability 8.0 on, as the H100 */
    case 12: r = (unsigned)__reduce_add_sync(FULL, l); break;
    case 13: r = (unsigned)__reduce_min_sync(FULL, l - 5); break;
    case 14: r = __reduce_max_sync(FULL, (unsigned)l * 3u); break;
    case 15: r = __reduce_or_sync(FULL, 1u << l) ^ __reduce_and_sync(FULL, ~(1u << l)) ^
                 __reduce_xor_sync(FULL, (unsigned)l);
        break;
#endif
    default: r = __activemask(); break;
    }
    out[threadIdx.x] = r;
}

/* 64-bit and floating values go whole: high bits and all. */
__global__ void wide_shuffles(double *d, long long *ll, unsigned long long *ull, float *f)
{
    int l = threadIdx.x;
    d[l] = __shfl_sync(FULL, 1.0e300 + l, 5);
    ll[l] = __shfl_xor_sync(FULL, -((1ll << 40) + l), 1);
    ull[l] = __shfl_down_sync(FULL, (1ull << 63) + (unsigned long long)l, 4);
    f[l] = __shfl_up_sync(FULL, 0.5f + (float)l, 4);
}

/* The textbook warp sum: lane 0 holds the warp's total, 31 * 32 / 2. */
__global__ void warp_sum(float *out)
{
    float v = (float)(threadIdx.x % 32);
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL, v, offset);
    out[threadIdx.x] = v;
}

/* Lanes write shared memory, meet at __syncwarp(), and read a neighbour's word:
 * without the meeting, lane 0 would read lane 1's word before lane 1 wrote it. */
__global__ void syncwarp_orders_memory(float *out)
{
    __shared__ float s[32];
    int l = threadIdx.x;
    s[l] = (float)l;
    __syncwarp();
    out[l] = s[(l + 1) % 32];
}

/* The lanes that take a branch are the active ones there; exited lanes take no part. */
__global__ void active_lanes(unsigned *out)
{
    int l = threadIdx.x;
    if (l >= 20)
        return;
    unsigned all = __activemask();
    unsigned some = 0;
    if (l < 10)
        some = __activemask();
    out[l] = l < 10 ? some : all;
}

/* Two half-warps, each with its own mask, meet apart: each gets its own half's lane 0. */
__global__ void half_warps(unsigned *out)
{
    int l = threadIdx.x;
    if (l < 16)
        out[l] = __shfl_sync(0x0000ffffu, (unsigned)l + 100, 0);
    else
        out[l] = __shfl_sync(0xffff0000u, (unsigned)l + 200, 16);
}

/* A lane that has returned takes no part: the others still meet. */
__global__ void lane_exits_first(unsigned *out)
{
    int l = threadIdx.x;
    if (l == 5)
        return;
    out[l] = __ballot_sync(FULL, 1);
}

/* Lanes read an exited lane, and a lane outside their mask: undefined, 0 on the H100. */
__global__ void reads_of_absent_lanes(unsigned *out)
{
    unsigned l = threadIdx.x;
    if (l == 5 || l == 6)
        return;
    out[l] = __shfl_sync(FULL, 1000 + l, 5);
    out[32 + l] = l < 16 ? __shfl_sync(0x0000ffffu, 2000 + l, 20) : __shfl_sync(0xffff0000u, 2000 + l, 3);
}

/* A block of 48 threads: its second warp has 16 lanes; a full mask names lanes that
 * never were, and reading one gives poison. */
__global__ void partial_warp(unsigned *out)
{
    int l = threadIdx.x % 32;
    unsigned b = __ballot_sync(FULL, 1);
    unsigned v = __shfl_down_sync(FULL, (unsigned)l, 8);
    out[threadIdx.x] = b;
    out[48 + threadIdx.x] = v;
}

__global__ void count_barrier(int *out)
{
    int n = __syncthreads_count(threadIdx.x % 3 == 0);
    int a = __syncthreads_and(threadIdx.x < 1000);
    int o = __syncthreads_or(threadIdx.x == 63);
    out[threadIdx.x] = n * 100 + a * 10 + o;
}

/* ---- undefined: each must fail the kernel, never hang */

/* Lanes 16-31 call with a mask that leaves them out. */
__global__ void own_lane_left_out(unsigned *out)
{
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, 1u, 0);
}

/* Lanes 0-15 wait at a shuffle of the whole warp, lanes 16-31 at __syncthreads(). */
extern "C" const int shuffle_beside_barrier_line = __LINE__ + 5;
__global__ void shuffle_beside_barrier(unsigned *out)
{
    unsigned v = threadIdx.x;
    if (threadIdx.x < 16)
        v = __shfl_sync(FULL, v, 0); /* shuffle_beside_barrier_line */
    __syncthreads();
    out[threadIdx.x] = v;
}

/* Even lanes vote, odd lanes shuffle, each with the whole warp's mask. */
extern "C" const int vote_beside_shuffle_line = __LINE__ + 5;
__global__ void vote_beside_shuffle(unsigned *out)
{
    unsigned v = threadIdx.x;
    if (threadIdx.x % 2 == 0)
        v = __ballot_sync(FULL, 1); /* vote_beside_shuffle_line */
    else
        v = __shfl_sync(FULL, v, 0); /* + 2 */
    out[threadIdx.x] = v;
}

extern "C" {
void launch_shuffles(unsigned *out, int which) { shuffles<<<1, 32>>>(out, which); }
void launch_wide_shuffles(double *d, long long *ll, unsigned long long *ull, float *f)
{
    wide_shuffles<<<1, 32>>>(d, ll, ull, f);
}
void launch_warp_sum(float *out, int threads) { warp_sum<<<1, threads>>>(out); }
void launch_syncwarp_orders_memory(float *out) { syncwarp_orders_memory<<<1, 32>>>(out); }
void launch_active_lanes(unsigned *out) { active_lanes<<<1, 32>>>(out); }
void launch_half_warps(unsigned *out) { half_warps<<<1, 32>>>(out); }
void launch_lane_exits_first(unsigned *out) { lane_exits_first<<<1, 32>>>(out); }
void launch_partial_warp(unsigned *out) { partial_warp<<<1, 48>>>(out); }
void launch_reads_of_absent_lanes(unsigned *out) { reads_of_absent_lanes<<<1, 32>>>(out); }
void launch_count_barrier(int *out) { count_barrier<<<1, 64>>>(out); }
void launch_own_lane_left_out(unsigned *out) { own_lane_left_out<<<1, 32>>>(out); }
void launch_shuffle_beside_barrier(unsigned *out) { shuffle_beside_barrier<<<1, 32>>>(out); }
void launch_vote_beside_shuffle(unsigned *out) { vote_beside_shuffle<<<1, 32>>>(out); }
}
