/*
 * Lab 6 reference: TILE_DIM x BLOCK_ROWS threads per TILE_DIM x TILE_DIM
 * tile, each moving TILE_DIM / BLOCK_ROWS elements, through a padded
 * (bank-conflict-free) shared tile. TILE_DIM = 64, BLOCK_ROWS = 8: the
 * best pair of `make lab6 sweep` on an H100 at its default size, 8192 x
 * 8192 (at 2048 x 2048, 64 x 4: the last point below).
 *
 * Tiles that lie wholly inside the matrix, nearly all of them, take a path
 * without bounds tests: the compiler then issues all of a thread's loads
 * before the first one returns, which is what keeps enough bytes in flight
 * to match a memory copy; where the rows of `out` start on sectors their
 * stores need no test either. Only the partial tiles at the edges test
 * every element.
 *
 * Three things the plain tiled kernel of lab 5 does not do, all measured:
 * two for odd shapes (README.md, "Odd shapes"), one for a grid just too
 * large for one wave ("One wave").
 *
 * - Blocks are numbered down the rows of `in` first, so blocks that run at
 *   the same time write neighbouring pieces of the same rows of `out`.
 * - When the rows of `out` do not start on a 32-byte sector (rows not a
 *   multiple of 8 floats), a warp's 32 floats would straddle the sector
 *   boundaries and half-fill a sector at each end, which the memory system
 *   pays for dearly. Instead each row of `out` is cut at sector
 *   boundaries: a block writes, in out row c, the TILE_DIM floats from the
 *   sector boundary at or before its tile, and so it loads up to SECTOR
 *   rows of `in` above its tile as well.
 * - A grid that the GPU cannot hold all at once runs in waves, and a grid
 *   just too big for one (2048 x 2048: 1024 tiles, 528 blocks of 512
 *   threads at a time on an H100) waits for a second, nearly full wave.
 *   When the grid needs more than one wave of BLOCK_ROWS-row blocks and
 *   fits in one of BLOCK_ROWS / 2 rows, the reference launches those (the
 *   pair the sweep picks at that size, 64 x 4). A sweep (TL_SWEEP) times
 *   each pair as it is named.
 */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
/* Half of BLOCK_ROWS, where it is a whole number of rows; an odd BLOCK_ROWS
 * (1 included) is not halved, and the one-wave rule is off. */
#define HALF_ROWS (BLOCK_ROWS > 1 && BLOCK_ROWS % 2 == 0 ? BLOCK_ROWS / 2 : BLOCK_ROWS)
/* Floats in a 32-byte sector. */
#define SECTOR 8

/* extra: 0 when every row of out starts on a sector, else SECTOR rows of in
 * loaded above the tile. ROWS: the rows of threads of a block. */
template <int ROWS>
__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols, int extra,
                                   int tiles_down)
{
    __shared__ float tile[TILE_DIM + SECTOR][TILE_DIM + 1];

    /* Consecutive blocks walk down a column of tiles of in: across a row of out. */
    int tile_r = (blockIdx.x % tiles_down) * TILE_DIM, tile_c = (blockIdx.x / tiles_down) * TILE_DIM;
    int top = tile_r - extra; /* the first row of in this block loads */
    int x = threadIdx.x, y = threadIdx.y;
    int whole = top >= 0 && tile_r + TILE_DIM <= rows && tile_c + TILE_DIM <= cols;

    /* tile[extra + i] holds row tile_r + i of in, and tile[0 .. extra) the rows above it. */
    if (whole) {
#pragma unroll
        for (int j = 0; j < TILE_DIM; j += ROWS)
            tile[extra + y + j][x] = in[(size_t)(tile_r + y + j) * cols + tile_c + x];
        for (int j = 0; extra && y + j < SECTOR; j += ROWS)
            tile[y + j][x] = in[(size_t)(top + y + j) * cols + tile_c + x];
    } else {
        for (int j = 0; y + j < TILE_DIM + extra; j += ROWS)
            if (top + y + j >= 0 && top + y + j < rows && tile_c + x < cols)
                tile[y + j][x] = in[(size_t)(top + y + j) * cols + tile_c + x];
    }

    __syncthreads();

    /* Row tile_c + y + j of out holds column tile_c + y + j of in. A whole
     * tile with rows on sectors stores as it loaded: no tests, no shift. */
    if (whole && !extra) {
#pragma unroll
        for (int j = 0; j < TILE_DIM; j += ROWS)
            out[(size_t)(tile_c + y + j) * rows + tile_r + x] = tile[x][y + j];
        return;
    }
    /* Otherwise the block writes the TILE_DIM floats of the row that start
     * `shift` before tile_r, those inside the matrix. */
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += ROWS) {
        int c = tile_c + y + j;
        float *row = out + (size_t)c * rows;
        int shift = extra ? (int)((uintptr_t)(row + tile_r) / sizeof(float) % SECTOR) : 0;
        int r = tile_r - shift + x;
        if (c < cols && r >= 0 && r < rows)
            row[r] = tile[extra - shift + x][y + j];
    }
}

/* How many blocks of TILE_DIM x rows threads the GPU holds at once (0 if it
 * cannot say): its SMs times the blocks of this kernel that fit on one. */
template <typename Kernel>
static int resident_blocks(Kernel kernel, int rows)
{
    int device, sms, per_sm;
    if (cudaGetDevice(&device) != cudaSuccess
        || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess
        || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, TILE_DIM * rows, 0)
               != cudaSuccess)
        return 0;
    return sms * per_sm;
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    /* Cutting rows at sectors takes tiles a whole number of sectors long:
     * then every block of a row of out shifts by the same amount and their
     * pieces meet. Smaller or odd tiles (TILE_DIM=4, 12) write as they lie. */
    int aligned = rows % SECTOR == 0 && (uintptr_t)d_out % (SECTOR * sizeof(float)) == 0;
    int extra = aligned || TILE_DIM % SECTOR ? 0 : SECTOR;
    int tiles_down = (rows + extra + TILE_DIM - 1) / TILE_DIM;
    int tiles_across = (cols + TILE_DIM - 1) / TILE_DIM;
    int tiles = tiles_down * tiles_across;
    int one_wave_halved = 0; /* more than one wave of BLOCK_ROWS blocks, one of HALF_ROWS */
#ifndef TL_SWEEP
    one_wave_halved = HALF_ROWS < BLOCK_ROWS
                      && tiles > resident_blocks(transpose_unrolled<BLOCK_ROWS>, BLOCK_ROWS)
                      && tiles <= resident_blocks(transpose_unrolled<HALF_ROWS>, HALF_ROWS);
#endif
    if (one_wave_halved)
        transpose_unrolled<HALF_ROWS>
            <<<tiles, dim3(TILE_DIM, HALF_ROWS)>>>(d_out, d_in, rows, cols, extra, tiles_down);
    else
        transpose_unrolled<BLOCK_ROWS>
            <<<tiles, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_out, d_in, rows, cols, extra, tiles_down);
}
