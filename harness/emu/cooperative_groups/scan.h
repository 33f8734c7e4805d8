/*
 * cg::inclusive_scan and cg::exclusive_scan for the emulator (CUDA's
 * cooperative_groups/scan.h) over a tile: each thread gets the combination
 * of the values of the ranks up to its own (inclusive) or before it.
 */
#ifndef TILELAB_EMU_CG_SCAN_H
#define TILELAB_EMU_CG_SCAN_H

#include "reduce.h"

namespace cooperative_groups {
namespace {

template <unsigned int Size, class P, class T, class Op = plus<typename std::decay<T>::type>>
static inline typename std::decay<T>::type inclusive_scan(const thread_block_tile<Size, P> &g, T &&val,
                                                         Op &&op = Op())
{
    typename std::decay<T>::type v = val;
    for (unsigned int d = 1; d < Size; d *= 2) {
        typename std::decay<T>::type t = g.shfl_up(v, d);
        if (g.thread_rank() >= d)
            v = op(t, v);
    }
    return v;
}

/* Rank 0 gets T's value-initialised one. */
template <unsigned int Size, class P, class T, class Op = plus<typename std::decay<T>::type>>
static inline typename std::decay<T>::type exclusive_scan(const thread_block_tile<Size, P> &g, T &&val,
                                                         Op &&op = Op())
{
    typename std::decay<T>::type v = inclusive_scan(g, val, op), before = g.shfl_up(v, 1);
    return g.thread_rank() == 0 ? typename std::decay<T>::type() : before;
}

} /* namespace */
} /* namespace cooperative_groups */

#endif
