/*
 * cg::reduce for the emulator (CUDA's cooperative_groups/reduce.h): a
 * tile's or a coalesced group's values combined by an operation (cg::plus,
 * cg::less, cg::greater, cg::bit_and, cg::bit_or, cg::bit_xor, or any
 * function of two values), the result in every thread, by the group's
 * shuffles; reduce_store_async's result stored by one thread.
 */
#ifndef TILELAB_EMU_CG_REDUCE_H
#define TILELAB_EMU_CG_REDUCE_H

#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace {

template <class T> struct plus { T operator()(const T &a, const T &b) const { return a + b; } };
template <class T> struct less { T operator()(const T &a, const T &b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(const T &a, const T &b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(const T &a, const T &b) const { return a & b; } };
template <class T> struct bit_or { T operator()(const T &a, const T &b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(const T &a, const T &b) const { return a ^ b; } };

/* A tile: the butterfly, each thread combining with the one offset ranks away. */
template <unsigned int Size, class P, class T, class Op>
static inline typename std::decay<T>::type reduce(const thread_block_tile<Size, P> &g, T &&val, Op &&op)
{
    typename std::decay<T>::type v = val;
    for (unsigned int offset = Size / 2; offset > 0; offset /= 2)
        v = op(v, g.shfl_xor(v, offset));
    return v;
}

/* A coalesced group, of any size: every thread combines the values in rank order. */
template <class T, class Op>
static inline typename std::decay<T>::type reduce(const coalesced_group &g, T &&val, Op &&op)
{
    typename std::decay<T>::type v = val, all = g.shfl(v, 0);
    for (unsigned int r = 1; r < g.size(); r++)
        all = op(all, g.shfl(v, r));
    return all;
}

/* reduce_store_async(group, dst, val, op): the group's reduction, stored at dst by one of its
 * threads (CUDA's form with a pointer; those with cuda::atomic need libcu++'s atomics). */
template <class G, class T, class V, class Op>
static inline void reduce_store_async(const G &g, T *dst, V &&val, Op &&op)
{
    T v = reduce(g, static_cast<V &&>(val), static_cast<Op &&>(op));
    if (g.thread_rank() == 0)
        *dst = v;
}

} /* namespace */
} /* namespace cooperative_groups */

#endif
