/*
 * What the emulator tells about the kernels it ran: memory requests per
 * warp, the way a GPU's load/store unit sees them.
 *
 * The k-th global (or shared) access of each of the 32 threads of a warp
 * forms one request. A global request touches some 32-byte sectors: 4 for
 * 32 consecutive floats, 32 when each thread's float lies in its own
 * sector. A shared request takes as many passes (wavefronts) as the most
 * distinct 4-byte words that fall in one of the 32 banks: 1 without bank
 * conflicts, 32 when all 32 threads read one column of a 32 x 32 tile.
 * For 8- and 16-byte shared accesses the count spans the whole warp, where
 * the hardware serves such a request a half or a quarter warp at a time:
 * there it overstates the conflicts.
 */
#ifndef TILELAB_EMU_H
#define TILELAB_EMU_H

typedef struct {
    const char *kernel;
    unsigned long long launches, blocks, threads;
    unsigned long long global_load_requests, global_load_sectors;
    unsigned long long global_store_requests, global_store_sectors;
    unsigned long long shared_load_requests, shared_load_wavefronts;
    unsigned long long shared_store_requests, shared_store_wavefronts;
} tl_emu_stats;

/* Counting costs time: it is off until switched on. */
void tl_emu_profile(int on);
void tl_emu_stats_reset(void);
int tl_emu_stats_count(void);
const tl_emu_stats *tl_emu_stats_get(int i);

/* Every __shared__ array is filled with TL_SHARED_POISON_BITS (matrix.h) before each block runs. */

#endif
