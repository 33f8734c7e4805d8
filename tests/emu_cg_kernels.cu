/*
 * Kernels of cooperative groups and asynchronous copies for the emulator's
 * tests (tests/emu_cg_test.c). Launchers have C linkage.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_pipeline.h>

#include "lab.h"

namespace cg = cooperative_groups;

/* The block: its ranks, sizes and coordinates, and its sync (each thread reads its neighbour's word). */
__global__ void block_group(int *out)
{
    __shared__ int s[64];
    cg::thread_block block = cg::this_thread_block();
    s[block.thread_rank()] = (int)block.thread_rank();
    block.sync();
    int next = s[(block.thread_rank() + 1) % block.size()];
    cg::sync(block);
    out[block.group_index().x * 64 + block.thread_rank()] =
        next * 1000 + (int)block.size() * 10 + (int)block.thread_index().y;
}

/* Tiles of 32 from a block of 96: a shuffle sum, its rank and place among the tiles. */
__global__ void tiles_of_32(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = (int)block.thread_rank();
    for (int offset = 16; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    out[block.thread_rank()] = tile.thread_rank() == 0 ? v : (int)(tile.meta_group_rank() * 10 + tile.meta_group_size());
}

/* Tiles of 8 in a block of 64: votes relative to the tile, the tile's leader, tiles of tiles. */
__global__ void tiles_of_8(unsigned *out)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<8>(block);
    unsigned r = block.thread_rank();
    unsigned ballot = tile.ballot(r % 2 == 0);
    unsigned leader = tile.shfl(r, 0);
    int any = tile.any(r == 63), all = tile.all(r < 60);
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> half = cg::tiled_partition<16>(warp);
    out[r] = ballot | leader << 8 | (unsigned)any << 16 | (unsigned)all << 17 | tile.meta_group_rank() << 20 |
             half.meta_group_rank() << 24 | half.meta_group_size() << 26;
}

/* A tile whose size is known only when it runs. */
__global__ void dynamic_tiles(unsigned *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 4);
    tile.sync();
    out[block.thread_rank()] = (unsigned)tile.thread_rank() | (unsigned)tile.size() << 8;
}

struct triple {
    float a, b, c;
};

/* cg::reduce, scans, and a shuffle of a structure. */
__global__ void reductions(float *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int r = (int)tile.thread_rank();
    int sum = cg::reduce(tile, r, cg::plus<int>());
    float most = cg::reduce(tile, (float)((r * 7) % 32), cg::greater<float>());
    auto eight = cg::tiled_partition<8>(block);
    int scan = cg::inclusive_scan(eight, 1);
    int before = cg::exclusive_scan(eight, 2);
    triple t = {(float)r, (float)(2 * r), (float)(3 * r)};
    triple u = tile.shfl(t, 5);
    out[r] = (float)sum * 1000 + most;
    out[32 + r] = (float)(scan * 100 + before);
    out[64 + r] = u.a + u.b + u.c;
}

/* The threads that take a branch together: their count, their ranks, their leader's value. */
__global__ void coalesced(unsigned *out)
{
    unsigned l = threadIdx.x;
    out[l] = 0;
    if (l % 3 == 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        unsigned leader = active.shfl(l + 100, 0);
        unsigned ballot = active.ballot(l >= 15);
        out[l] = (unsigned)active.size() | (unsigned)active.thread_rank() << 8 | leader << 16 | (ballot & 0x7ffu) << 24;
    }
}

/* A warp split by a predicate and by a label (lane / 5), and the leader of each part of the
 * latter, told to all of the part by invoke_one_broadcast. */
__global__ void partitions(unsigned *out)
{
    unsigned l = threadIdx.x;
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    cg::coalesced_group odd = cg::binary_partition(warp, l % 3 == 0);
    cg::coalesced_group fives = cg::labeled_partition(warp, (int)(l / 5));
    unsigned leader = cg::invoke_one_broadcast(fives, [&] { return l; });
    out[l] = (unsigned)odd.size() | (unsigned)odd.thread_rank() << 6 | odd.meta_group_rank() << 12 |
             odd.meta_group_size() << 14;
    out[32 + l] = (unsigned)fives.size() | (unsigned)fives.thread_rank() << 6 |
                  fives.meta_group_rank() << 12 | fives.meta_group_size() << 18 | leader << 24;
}

/* A block copies a row of 256 floats into shared memory, waits, and reads it. */
__global__ void group_copy(float *out, const float *in)
{
    __shared__ float row[256];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, row, in, sizeof row);
    cg::wait(block);
    out[block.thread_rank()] = row[255 - block.thread_rank()];
}

/* Each thread reads the copy's destination before cg::wait: undefined on a GPU. */
__global__ void read_before_wait(float *out, const float *in)
{
    __shared__ float row[32];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, row, in, sizeof row);
    out[threadIdx.x] = row[threadIdx.x]; /* before the wait */
    cg::wait(block);
}

/* Each of 8 threads reads, before cg::wait, the first float of the 16 bytes it copies itself. */
__global__ void read_own_piece_before_wait(float *out, const float *in)
{
    __shared__ float row[32];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, row, in, sizeof row);
    out[threadIdx.x] = row[4 * threadIdx.x]; /* before the wait */
    cg::wait(block);
}

/* A thread's own copy lands when it waits for it, not before. */
__global__ void pipelined(float *out, const float *in)
{
    __shared__ float4 tile[32];
    __pipeline_memcpy_async(&tile[threadIdx.x], &((const float4 *)in)[threadIdx.x], sizeof(float4));
    __pipeline_commit();
    out[threadIdx.x] = tile[threadIdx.x].x; /* not waited for: what was there */
    __pipeline_wait_prior(0);
    out[32 + threadIdx.x] = tile[threadIdx.x].y;
}

__global__ void grid_coordinates(unsigned *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = (unsigned)grid.size() << 16 | (unsigned)grid.block_rank() << 8 | (unsigned)grid.thread_rank();
}

/* A grid's sync in a launch with <<< >>>, which is not cooperative: it fails the kernel, as
 * on a GPU. */
extern "C" const int grid_sync_line = __LINE__ + 5;
__global__ void grid_sync(unsigned *out)
{
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = 1u;
    grid.sync(); /* grid_sync_line */
    out[grid.thread_rank()] = 3u;
}

/* Half a tile waits at its sync, the other half at the block's: they never meet. */
extern "C" const int split_tile_line = __LINE__ + 6;
__global__ void split_tile(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    if (tile.thread_rank() < 16)
        tile.sync(); /* split_tile_line */
    block.sync();
    out[threadIdx.x] = 1;
}

extern "C" {
void launch_block_group(int *out) { block_group<<<2, dim3(32, 2)>>>(out); }
void launch_tiles_of_32(int *out) { tiles_of_32<<<1, 96>>>(out); }
void launch_tiles_of_8(unsigned *out) { tiles_of_8<<<1, 64>>>(out); }
void launch_dynamic_tiles(unsigned *out) { dynamic_tiles<<<1, 32>>>(out); }
void launch_reductions(float *out) { reductions<<<1, 32>>>(out); }
void launch_coalesced(unsigned *out) { coalesced<<<1, 32>>>(out); }
void launch_partitions(unsigned *out) { partitions<<<1, 32>>>(out); }
void launch_group_copy(float *out, const float *in) { group_copy<<<1, 256>>>(out, in); }
void launch_pipelined(float *out, const float *in) { pipelined<<<1, 32>>>(out, in); }
void launch_read_before_wait(float *out, const float *in) { read_before_wait<<<1, 32>>>(out, in); }
void launch_read_own_piece_before_wait(float *out, const float *in) { read_own_piece_before_wait<<<1, 8>>>(out, in); }
void launch_grid_coordinates(unsigned *out) { grid_coordinates<<<2, 4>>>(out); }
void launch_split_tile(int *out) { split_tile<<<1, 32>>>(out); }
void launch_grid_sync(unsigned *out) { grid_sync<<<1, 32>>>(out); }
}
