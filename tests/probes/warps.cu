// A probe of what CUDA gives on a GPU for the warp collectives and
// cooperative groups tests/emu_warp_test.c and tests/emu_cg_test.c hold the
// emulator to (the same kernels). Run on the H100 as
//
//   nvcc -arch=sm_90 tests/probes/warps.cu -o build/warps && build/warps
//
// and compare with plots/data/warps-h100.txt.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;
#define FULL 0xffffffffu

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

__global__ void partial_warp(unsigned *out)
{
    int l = threadIdx.x % 32;
    unsigned b = __ballot_sync(FULL, 1);
    unsigned v = __shfl_down_sync(FULL, (unsigned)l, 8);
    out[threadIdx.x] = b;
    out[48 + threadIdx.x] = v;
}

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

static void show(const char *what, const unsigned *d, int n)
{
    unsigned h[128];
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost);
    printf("%s:", what);
    for (int i = 0; i < n; i++)
        printf(" %x", h[i]);
    printf("\n");
}

int main()
{
    unsigned *d;
    char what[32];
    cudaMalloc(&d, 128 * sizeof *d);
    for (int which = 0; which <= 16; which++) {
        shuffles<<<1, 32>>>(d, which);
        snprintf(what, sizeof what, "shuffles %d", which);
        show(what, d, 32);
    }
    cudaMemset(d, 0, 128 * sizeof *d);
    active_lanes<<<1, 32>>>(d);
    show("active_lanes", d, 20);
    partial_warp<<<1, 48>>>(d);
    show("partial_warp", d, 96);
    tiles_of_8<<<1, 64>>>(d);
    show("tiles_of_8", d, 64);
    coalesced<<<1, 32>>>(d);
    show("coalesced", d, 32);
    return 0;
}
