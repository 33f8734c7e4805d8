/*
 * The warp-level functions of CUDA C (the Programming Guide's warp shuffle,
 * vote, match and reduce functions, __syncwarp, __activemask) and the
 * block's __syncthreads_count/_and/_or, for the emulator.
 *
 * Each is a meeting: the lane that calls it waits (emulator.c) until every
 * lane of its warp that the mask names, and that has not exited, has come
 * to one with the same mask, and then they exchange as a GPU's do
 * (warp.c). Where they never meet (a lane of the mask waits at another
 * collective, or at __syncthreads()) the kernel fails naming both lines,
 * where a GPU's behaviour is undefined. Lanes that call none of these run
 * one after another as any thread does. The call's file and line come
 * from g++'s __builtin_FILE()/__builtin_LINE() as default arguments.
 */
#ifndef TILELAB_EMU_SM_30_INTRINSICS_H
#define TILELAB_EMU_SM_30_INTRINSICS_H

#include "cuda_runtime.h"

#ifdef __cplusplus

#define TL_EMU_AT const char *tl_file = __builtin_FILE(), int tl_line = __builtin_LINE()

template <class T> static inline unsigned long long tl_emu_bits(T v)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a warp exchanges 4 or 8 bytes a lane");
    if constexpr (sizeof(T) == 4)
        return __builtin_bit_cast(unsigned int, v);
    else
        return __builtin_bit_cast(unsigned long long, v);
}

template <class T> static inline T tl_emu_from_bits(unsigned long long bits)
{
    if constexpr (sizeof(T) == 4)
        return __builtin_bit_cast(T, (unsigned int)bits);
    else
        return __builtin_bit_cast(T, bits);
}

template <class T>
static inline T tl_emu_shfl(int op, unsigned mask, T var, int b, int c, const char *file, int line)
{
    return tl_emu_from_bits<T>(
        tl_emu_cuda_warp(op, mask, tl_emu_bits(var), sizeof(T), b, c, 0, file, line));
}

/* The width packed as CUDA's own header packs it for shfl.sync: the segment's mask in
 * bits 12:8 and, but for __shfl_up_sync, the clamp 31 in bits 4:0. */
#define TL_EMU_SHFL(T)                                                                          \
    static inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize,         \
                                TL_EMU_AT)                                                     \
    {                                                                                          \
        return tl_emu_shfl(TL_WARP_SHFL_IDX, mask, var, srcLane, ((warpSize - width) << 8) | 0x1f, \
                           tl_file, tl_line);                                                  \
    }                                                                                          \
    static inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize, \
                                   TL_EMU_AT)                                                  \
    {                                                                                          \
        return tl_emu_shfl(TL_WARP_SHFL_UP, mask, var, (int)delta, (warpSize - width) << 8,     \
                           tl_file, tl_line);                                                  \
    }                                                                                          \
    static inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta,                  \
                                     int width = warpSize, TL_EMU_AT)                          \
    {                                                                                          \
        return tl_emu_shfl(TL_WARP_SHFL_DOWN, mask, var, (int)delta,                            \
                           ((warpSize - width) << 8) | 0x1f, tl_file, tl_line);                \
    }                                                                                          \
    static inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize,    \
                                    TL_EMU_AT)                                                 \
    {                                                                                          \
        return tl_emu_shfl(TL_WARP_SHFL_XOR, mask, var, laneMask, ((warpSize - width) << 8) | 0x1f, \
                           tl_file, tl_line);                                                  \
    }                                                                                          \
    static inline unsigned int __match_any_sync(unsigned mask, T value, TL_EMU_AT)              \
    {                                                                                          \
        return (unsigned int)tl_emu_cuda_warp(TL_WARP_MATCH_ANY, mask, tl_emu_bits(value),      \
                                              sizeof(T), 0, 0, 0, tl_file, tl_line);           \
    }                                                                                          \
    static inline unsigned int __match_all_sync(unsigned mask, T value, int *pred, TL_EMU_AT)   \
    {                                                                                          \
        return (unsigned int)tl_emu_cuda_warp(TL_WARP_MATCH_ALL, mask, tl_emu_bits(value),      \
                                              sizeof(T), 0, 0, pred, tl_file, tl_line);        \
    }
TL_EMU_SHFL(int)
TL_EMU_SHFL(unsigned int)
TL_EMU_SHFL(long)
TL_EMU_SHFL(unsigned long)
TL_EMU_SHFL(long long)
TL_EMU_SHFL(unsigned long long)
TL_EMU_SHFL(float)
TL_EMU_SHFL(double)
#undef TL_EMU_SHFL

static inline unsigned int __ballot_sync(unsigned mask, int predicate, TL_EMU_AT)
{
    return (unsigned int)tl_emu_cuda_warp(TL_WARP_BALLOT, mask, predicate != 0, 4, 0, 0, 0,
                                          tl_file, tl_line);
}
static inline int __any_sync(unsigned mask, int predicate, TL_EMU_AT)
{
    return (int)tl_emu_cuda_warp(TL_WARP_ANY, mask, predicate != 0, 4, 0, 0, 0, tl_file, tl_line);
}
static inline int __all_sync(unsigned mask, int predicate, TL_EMU_AT)
{
    return (int)tl_emu_cuda_warp(TL_WARP_ALL, mask, predicate != 0, 4, 0, 0, 0, tl_file, tl_line);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, TL_EMU_AT)
{
    tl_emu_cuda_warp(TL_WARP_SYNC, mask, 0, 4, 0, 0, 0, tl_file, tl_line);
}
/* The lanes that run here together: those that come to this same __activemask(). */
static inline unsigned int __activemask(TL_EMU_AT)
{
    return (unsigned int)tl_emu_cuda_warp(TL_WARP_ACTIVEMASK, 0, 0, 4, 0, 0, 0, tl_file, tl_line);
}

/* __reduce_*_sync (compute capability 8.0 and later): int and unsigned, and/or/xor unsigned. */
#define TL_EMU_REDUCE(name, T, op)                                                              \
    static inline T name(unsigned mask, T value, TL_EMU_AT)                                     \
    {                                                                                          \
        return (T)tl_emu_cuda_warp(op, mask, (unsigned int)value, 4, 0, 0, 0, tl_file, tl_line); \
    }
TL_EMU_REDUCE(__reduce_add_sync, unsigned, TL_WARP_REDUCE_ADD)
TL_EMU_REDUCE(__reduce_add_sync, int, TL_WARP_REDUCE_ADD)
TL_EMU_REDUCE(__reduce_min_sync, unsigned, TL_WARP_REDUCE_UMIN)
TL_EMU_REDUCE(__reduce_min_sync, int, TL_WARP_REDUCE_MIN)
TL_EMU_REDUCE(__reduce_max_sync, unsigned, TL_WARP_REDUCE_UMAX)
TL_EMU_REDUCE(__reduce_max_sync, int, TL_WARP_REDUCE_MAX)
TL_EMU_REDUCE(__reduce_and_sync, unsigned, TL_WARP_REDUCE_AND)
TL_EMU_REDUCE(__reduce_or_sync, unsigned, TL_WARP_REDUCE_OR)
TL_EMU_REDUCE(__reduce_xor_sync, unsigned, TL_WARP_REDUCE_XOR)
#undef TL_EMU_REDUCE

/* A barrier of the block that also counts, ANDs or ORs a predicate over its threads. */
static inline int __syncthreads_count(int predicate, TL_EMU_AT)
{
    return tl_emu_cuda_syncthreads(TL_SYNC_COUNT, predicate, tl_file, tl_line);
}
static inline int __syncthreads_and(int predicate, TL_EMU_AT)
{
    return tl_emu_cuda_syncthreads(TL_SYNC_AND, predicate, tl_file, tl_line);
}
static inline int __syncthreads_or(int predicate, TL_EMU_AT)
{
    return tl_emu_cuda_syncthreads(TL_SYNC_OR, predicate, tl_file, tl_line);
}

#endif /* __cplusplus */

#endif
