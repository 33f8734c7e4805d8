/*
 * cg::memcpy_async, cg::wait and cg::wait_prior for the emulator (CUDA's
 * cooperative_groups/memcpy_async.h): the group copies, each thread its
 * share of 16-, 4- or 1-byte pieces (by the pointers' alignment), as plain
 * loads and stores that the emulator checks and counts; wait is the
 * group's sync, after which every thread sees the whole copy. The copy is
 * done by the time memcpy_async returns: a kernel that reads the
 * destination before wait reads it filled here, where a GPU may not have
 * (a known limit, harness/emu/README.md).
 */
#ifndef TILELAB_EMU_CG_MEMCPY_ASYNC_H
#define TILELAB_EMU_CG_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cuda {
/* A size its user promises is a multiple of N, at addresses aligned to N (<cuda/barrier>'s). */
template <size_t N> struct aligned_size_t {
    static constexpr size_t align = N;
    size_t value;
    constexpr explicit aligned_size_t(size_t v) : value(v) {}
    constexpr operator size_t() const { return value; }
};
} /* namespace cuda */

namespace cooperative_groups {
namespace {

template <class Piece, class G>
static inline void tl_copy_pieces(const G &g, void *dst, const void *src, size_t bytes)
{
    Piece *d = (Piece *)dst;
    const Piece *s = (const Piece *)src;
    for (size_t i = g.thread_rank(); i < bytes / sizeof(Piece); i += g.num_threads())
        d[i] = s[i];
}

template <class G> static inline void memcpy_async(const G &g, void *dst, const void *src, size_t bytes)
{
    struct alignas(16) sixteen { unsigned int w[4]; };
    uintptr_t all = (uintptr_t)dst | (uintptr_t)src | bytes;
    if (all % 16 == 0)
        tl_copy_pieces<sixteen>(g, dst, src, bytes);
    else if (all % 4 == 0)
        tl_copy_pieces<unsigned int>(g, dst, src, bytes);
    else
        tl_copy_pieces<unsigned char>(g, dst, src, bytes);
}

template <class G, size_t N>
static inline void memcpy_async(const G &g, void *dst, const void *src, cuda::aligned_size_t<N> bytes)
{
    memcpy_async(g, dst, src, (size_t)bytes);
}

template <class G, class T>
static inline void memcpy_async(const G &g, T *dst, size_t dst_count, const T *src, size_t src_count)
{
    memcpy_async(g, (void *)dst, (const void *)src, (dst_count < src_count ? dst_count : src_count) * sizeof(T));
}

template <class G> static inline void wait(const G &g, TL_EMU_AT) { g.sync(tl_file, tl_line); }
template <unsigned int N, class G> static inline void wait_prior(const G &g, TL_EMU_AT) { g.sync(tl_file, tl_line); }

} /* namespace */
} /* namespace cooperative_groups */

#endif
