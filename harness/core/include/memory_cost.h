/*
 * What a kernel's memory work costs, as the kit weighs the emulator's counts: the
 * grader's speed of a GPU lab on the emulator (harness/grade/grade_measure.c) and the
 * emulator's clock, which its events read (harness/emu/streams.c). Global sectors cost
 * a trip to memory; a shared-memory wavefront far less, an eighth of one. A pass of the
 * constant cache (one address a warp) costs as a sector does: a warp that reads 32
 * addresses through it waits for 32 passes, as a strided read waits for 32 sectors.
 * In 32-byte sectors of global memory.
 */
#ifndef TILELAB_MEMORY_COST_H
#define TILELAB_MEMORY_COST_H

static inline double tl_memory_cost(double global_load_sectors, double global_store_sectors,
                                    double constant_load_passes, double shared_wavefronts)
{
    return global_load_sectors + global_store_sectors + constant_load_passes + shared_wavefronts / 8;
}

#endif
