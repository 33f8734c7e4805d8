/*
 * Kernels with a planted race on shared memory, and their correct twins,
 * for the emulator's race check (tests/emu_race_test.c). Each launcher has
 * C linkage; a kernel's lines that a message must name are exported.
 */
#include "lab.h"

/* Thread (0, 0) writes, thread (0, 1) of the next warp reads: no barrier between. */
extern "C" const int leader_write_line = __LINE__ + 6, leader_read_line = __LINE__ + 9;
__global__ void read_after_write(float *out, int synced)
{
    __shared__ int origin;
    /* origin_c, origin_r in a lab: one int each */
    if (threadIdx.x == 0 && threadIdx.y == 0)
        origin = 7;
    if (synced)
        __syncthreads();
    if (threadIdx.y == 1 || synced) out[threadIdx.y * 32 + threadIdx.x] = (float)origin;
}

/* Warp 0 reads the half of tile that warp 1 writes later: a write after a read. */
extern "C" const int later_write_line = __LINE__ + 4, early_read_line = __LINE__ + 5;
__global__ void write_after_read(float *out)
{
    __shared__ float tile[64];
    tile[threadIdx.x] = (float)threadIdx.x;
    out[threadIdx.x] = tile[63 - threadIdx.x];
}

/* Two threads of different warps write one word. */
__global__ void write_after_write(float *out)
{
    __shared__ float word;
    if (threadIdx.x % 32 == 0)
        word = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = word;
}

/* Lane 0 writes, the other lanes of its warp read: ordered by how (0: nothing,
 * 1: __syncwarp(), 2: a shuffle, 3: __syncwarp() of lanes 0-15 only). */
__global__ void lanes(float *out, int how)
{
    __shared__ float value;
    if (threadIdx.x == 0)
        value = 42.0f;
    if (how == 1)
        __syncwarp();
    if (how == 2)
        out[32 + threadIdx.x] = __shfl_sync(0xffffffffu, 1.0f, 0);
    if (how == 3)
        __syncwarp(threadIdx.x < 16 ? 0x0000ffffu : 0xffff0000u);
    out[threadIdx.x] = value;
}

/* Each step behind a __syncwarp(), lane t sets s[t] from s[t + d], but lane t + d
 * sets its own in the same step: racy unless each step reads, waits, then writes
 * (fixed). (No lane reads s[t] itself: gcc checks a read-modify-write once, as a read.) */
__global__ void shift_down(float *out, int fixed)
{
    __shared__ float s[64];
    s[threadIdx.x] = (float)threadIdx.x;
    s[threadIdx.x + 32] = (float)(threadIdx.x + 32);
    __syncwarp();
    for (int d = 16; d > 0; d /= 2) {
        float v = s[threadIdx.x + d];
        if (fixed)
            __syncwarp();
        s[threadIdx.x] = v + 1.0f;
        __syncwarp();
    }
    out[threadIdx.x] = s[threadIdx.x];
}

/* A read-modify-write by lane 1 of what lane 0 wrote: gcc checks it once, as a read. */
__global__ void add_to_neighbour(float *out)
{
    __shared__ float s[32];
    s[threadIdx.x] = 1.0f;
    __syncwarp();
    if (threadIdx.x == 1)
        s[0] += 1.0f; /* lane 0 reads s[0] below, with nothing between */
    out[threadIdx.x] = s[0];
}

/* The barrier inside the bounds test: threads from `inside` on (or, where inside is -1,
 * all but the first of each warp) skip it and read early. */
extern "C" const int skipped_barrier_line = __LINE__ + 7;
__global__ void barrier_inside_if(float *out, int inside)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    if (inside >= 0 ? t < inside : t % 32 == 0) {
        tile[t] = (float)t;
        __syncthreads();
    }
    out[t] = tile[63 - t];
}

/* Neighbouring bytes of different threads, and atomics on one word: no race. */
__global__ void bytes_and_atomics(float *out)
{
    __shared__ unsigned char bytes[64];
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    bytes[threadIdx.x] = (unsigned char)threadIdx.x;
    atomicAdd(&count, 1);
    __syncthreads();
    out[threadIdx.x] = (float)(bytes[63 - threadIdx.x] + count);
}

/* Dynamic shared memory, read by the next warp before the barrier. */
__global__ void dynamic_race(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = 1.0f;
    out[threadIdx.x] = dyn[(threadIdx.x + 32) % 64];
    __syncthreads();
}

/* Warps 0 and 1 fill a tile each and wait at a __syncthreads() of their own branch:
 * both are the block's barrier, so every thread reads a full tile. */
__global__ void warp_specialised(float *out)
{
    __shared__ float a[32], b[32];
    if (threadIdx.x < 32) {
        a[threadIdx.x] = 1.0f;
        __syncthreads();
    } else {
        b[threadIdx.x - 32] = 2.0f;
        __syncthreads();
    }
    out[threadIdx.x] = a[31 - threadIdx.x % 32] + b[threadIdx.x % 32];
}

/* A template kernel's tile in dynamic shared memory (g++ drops asm labels in templates). */
template <int N> __global__ void template_dynamic(float *out)
{
    extern __shared__ float t[];
    t[threadIdx.x] = (float)(N + threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = t[N - 1 - threadIdx.x];
}

/* Lanes 1, 2 and 3 read s[0]; lanes 2 to 4 meet; lane 4 writes s[0]: lane 1's read races. */
__global__ void forgotten_reader(float *out)
{
    __shared__ float s[1];
    if (threadIdx.x == 0)
        s[0] = 5.0f;
    __syncthreads();
    float v = threadIdx.x >= 1 && threadIdx.x <= 3 ? s[0] : 0.0f;
    if (threadIdx.x >= 2 && threadIdx.x <= 4)
        __syncwarp(0x1cu);
    if (threadIdx.x == 4)
        s[0] = 6.0f;
    out[threadIdx.x] = v;
}

/* A namespace-scope __shared__ int, written by warp 0 and read by warp 1 with no barrier. */
__shared__ int flag;
__global__ void namespace_scope_shared(float *out)
{
    if (threadIdx.x == 0)
        flag = 3;
    if (threadIdx.x == 32)
        out[0] = (float)flag;
}

/* A template kernel's __shared__ array (outside the section: the symbol table has it):
 * lane 1 writes what lane 0 read, with nothing between. */
template <int N> __global__ void template_race(float *out)
{
    __shared__ float t[N];
    t[threadIdx.x % 32] = 1.0f;
    out[threadIdx.x] = t[(threadIdx.x + 1) % 32];
}

/* A tiled loop with one barrier a step: lane 0 sums the tile, runs on to store the next
 * step's and waits at the barrier, while lane 1 still sums the last tile: the barrier missing
 * is a second __syncthreads(), since the other warps read the whole tile too. */
__global__ void one_barrier_a_step(float *out)
{
    __shared__ float tile[64];
    float sum = 0.0f;
    for (int step = 0; step < 2; step++) {
        tile[threadIdx.x] = (float)(step + threadIdx.x);
        __syncthreads();
        for (int i = 0; i < 64; i++)
            sum += tile[i];
    }
    out[threadIdx.x] = sum;
}

/* A tile of 16 x 16 floats indexed by 32 x 32 threads (stud8's lab04-tile-16-hardcoded-block-32):
 * thread (16, 0) and thread (0, 1) store to one element, tile[0][16] being tile[1][0], and from
 * row 16 on the stores run past the array's end, which is what is wrong. */
__global__ void tile_smaller_than_block(float *out)
{
    __shared__ float tile[16][16];
    tile[threadIdx.y][threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (threadIdx.y == 0)
        out[threadIdx.x] = tile[threadIdx.x][0];
}

/* Lanes of warp 0 race first (lane 1 stores over what lane 0 read), then warp 1 stores over what
 * warp 0 read: a __syncwarp() would leave the second race. */
__global__ void lanes_then_warps(float *out)
{
    __shared__ float t[64];
    t[threadIdx.x] = (float)threadIdx.x;
    out[threadIdx.x] = t[threadIdx.x ^ 1u] + t[(threadIdx.x + 32) % 64];
}

/* Each block's tile in a __device__ array, one for the whole grid, where __shared__ belongs;
 * its twin stores a value that no block's order changes; a third writes it once a launch. */
__device__ float block_scratch[64];
__device__ int every_block_ran;

__global__ void device_scratch(float *out, int how)
{
    if (how == 0) {
        block_scratch[threadIdx.x] = (float)(blockIdx.x * 100 + threadIdx.x);
        __syncthreads();
        out[blockIdx.x * 64 + threadIdx.x] = block_scratch[63 - threadIdx.x];
    } else if (how == 1) {
        every_block_ran = 1;
        out[blockIdx.x * 64 + threadIdx.x] = 1.0f;
    } else {
        if (blockIdx.x == 0)
            block_scratch[threadIdx.x] = (float)how;
        out[blockIdx.x * 64 + threadIdx.x] = 2.0f;
    }
}

/* The same mistake in memory from cudaMalloc: a race in a small allocation, unseen in a large. */
__global__ void malloc_scratch(float *out, float *scratch)
{
    scratch[threadIdx.x] = (float)(blockIdx.x * 100 + threadIdx.x);
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = scratch[63 - threadIdx.x];
}

/* A transpose with no bounds test, of a 9 x 5 matrix in blocks of 8 x 8 threads: a thread of
 * row r >= rows reads past the end of in, and writes out[c * rows + r], the element of the next
 * column's row r - rows, which a thread of another block writes too. */
__global__ void transpose_unguarded(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    out[c * rows + r] = in[r * cols + c];
}

/* A block's sum as a tree in shared memory: with a barrier between its rounds (how = 1), or
 * without (0), where thread t reads s[t + k] while thread t + k may still add into it; or
 * (2) two rounds without a barrier whose first adds the 0 of slots 64 on, and so leaves
 * every slot as it was, before the second reads slots 32 .. 63. */
extern "C" const int tree_add_line = __LINE__ + 10;
__global__ void tree_sum(float *out, int how)
{
    __shared__ float partial[128];
    unsigned t = threadIdx.x;
    partial[t] = how == 2 && t >= 64 ? 0.0f : (float)(t + 1);
    __syncthreads();
    for (unsigned k = how == 2 ? 64 : blockDim.x / 2; k > (how == 2 ? 16u : 0u); k >>= 1) {
        /* t + k < blockDim.x: the read stays inside the block's 128 slots */
        if (t < k)
            partial[t] += partial[t + k];
        if (how == 1)
            __syncthreads();
    }
    if (t == 0)
        out[0] = partial[0];
}

/* Threads 0, 32 and 64 write one word with no barrier between: 0 and 32 the same value, 64
 * (where the block has three warps) another. */
__global__ void write_same_twice(float *out)
{
    __shared__ float word;
    if (threadIdx.x % 32 == 0)
        word = threadIdx.x < 64 ? 7.0f : (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = word;
}

extern "C" {
void launch_tree_sum(float *out, int how) { tree_sum<<<1, 128>>>(out, how); }
void launch_device_scratch(float *out, int how) { device_scratch<<<2, 64>>>(out, how); }
void launch_malloc_scratch(float *out, float *scratch) { malloc_scratch<<<2, 64>>>(out, scratch); }
void launch_transpose_unguarded(float *out, const float *in, int rows, int cols)
{
    transpose_unguarded<<<dim3((cols + 7) / 8, (rows + 7) / 8), dim3(8, 8)>>>(out, in, rows, cols);
}
void launch_one_barrier_a_step(float *out) { one_barrier_a_step<<<1, 64>>>(out); }
void launch_tile_smaller_than_block(float *out) { tile_smaller_than_block<<<1, dim3(32, 32)>>>(out); }
void launch_lanes_then_warps(float *out) { lanes_then_warps<<<1, 64>>>(out); }
void launch_read_after_write(float *out, int synced) { read_after_write<<<1, dim3(32, 2)>>>(out, synced); }
void launch_write_after_read(float *out) { write_after_read<<<1, 64>>>(out); }
void launch_write_after_write(float *out) { write_after_write<<<1, 64>>>(out); }
void launch_write_same_twice(float *out, int warps) { write_same_twice<<<1, 32 * warps>>>(out); }
void launch_lanes(float *out, int how) { lanes<<<1, 32>>>(out, how); }
void launch_shift_down(float *out, int fixed) { shift_down<<<1, 32>>>(out, fixed); }
void launch_add_to_neighbour(float *out) { add_to_neighbour<<<1, 32>>>(out); }
void launch_barrier_inside_if(float *out, int inside) { barrier_inside_if<<<1, 64>>>(out, inside); }
void launch_bytes_and_atomics(float *out) { bytes_and_atomics<<<1, 64>>>(out); }
void launch_dynamic_race(float *out) { dynamic_race<<<1, 64, 64 * sizeof(float)>>>(out); }
void launch_warp_specialised(float *out) { warp_specialised<<<1, 64>>>(out); }
void launch_forgotten_reader(float *out) { forgotten_reader<<<1, 32>>>(out); }
void launch_namespace_scope_shared(float *out) { namespace_scope_shared<<<1, 64>>>(out); }
void launch_template_race(float *out) { template_race<32><<<1, 64>>>(out); }
void launch_template_dynamic(float *out) { template_dynamic<64><<<2, 64, 64 * sizeof(float)>>>(out); }
}

/* Every block adds its index + 1 to out[0], not atomically: a read and a store of one word with
 * no call between, whose store gcc leaves unchecked (lab 10's *d_out += sum). */
__global__ void add_to_one_word(float *out)
{
    if (threadIdx.x == 0)
        out[0] += (float)(blockIdx.x + 1);
}
extern "C" void launch_add_to_one_word(float *out) { add_to_one_word<<<4, 32>>>(out); }
