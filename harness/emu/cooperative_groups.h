/*
 * Cooperative groups for the emulator (CUDA's cooperative_groups.h, the
 * Programming Guide's "Cooperative Groups"): the block, its tiles of 1 to
 * 32 threads (tiled_partition<N>, and tiled_partition(parent, n)), the
 * coalesced threads of a warp, their binary and labeled partitions,
 * invoke_one, and the grid's coordinates. A group's sync
 * and collectives are the block's barrier and the warp functions
 * (sm_30_intrinsics.h) with the group's mask and width, so they meet, and
 * fail, as those do. A cooperative launch, which a grid's sync needs, and
 * clusters fail to build: the emulator runs one block at a time; this_grid()
 * .sync() in a launch with <<< >>> fails the kernel, as it does on a GPU.
 */
#ifndef TILELAB_EMU_COOPERATIVE_GROUPS_H
#define TILELAB_EMU_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cooperative_groups {
/* Internal linkage, as the emulator's other templates (cuda_runtime.h says why). */
namespace {

/* The thread's place in its block, threads numbered with x fastest, and its lane. */
static inline unsigned int tl_block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
static inline unsigned int tl_block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
static inline unsigned int tl_lane() { return tl_block_rank() % 32; }

/* Any group: the block, a tile or the coalesced threads of a warp. */
class thread_group {
  public:
    enum { tl_kind_block, tl_kind_tile, tl_kind_coalesced };
    unsigned long long size() const { return tl_size; }
    unsigned long long num_threads() const { return tl_size; }
    unsigned long long thread_rank() const { return tl_rank; }
    unsigned int meta_group_rank() const { return tl_meta_rank; }
    unsigned int meta_group_size() const { return tl_meta_size; }
    unsigned int get_type() const { return (unsigned int)tl_type; }
    void sync(TL_EMU_AT) const
    {
        if (tl_type == tl_kind_block)
            tl_emu_syncthreads_at(tl_file, tl_line);
        else
            __syncwarp(tl_mask, tl_file, tl_line);
    }
    /* For the emulator: the group's lanes in the warp (tiles and coalesced groups). */
    unsigned int tl_lanes() const { return tl_mask; }

  protected:
    thread_group(int type, unsigned int size, unsigned int rank, unsigned int mask,
                 unsigned int meta_rank, unsigned int meta_size)
        : tl_type(type), tl_size(size), tl_rank(rank), tl_mask(mask), tl_meta_rank(meta_rank),
          tl_meta_size(meta_size)
    {
    }
    int tl_type;
    unsigned int tl_size, tl_rank, tl_mask, tl_meta_rank, tl_meta_size;
};

class thread_block : public thread_group {
  public:
    thread_block() : thread_group(tl_kind_block, tl_block_threads(), tl_block_rank(), 0, 0, 1) {}
    static void sync(TL_EMU_AT) { tl_emu_syncthreads_at(tl_file, tl_line); }
    static unsigned int size() { return tl_block_threads(); }
    static unsigned int num_threads() { return tl_block_threads(); }
    static unsigned int thread_rank() { return tl_block_rank(); }
    static dim3 group_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 group_dim() { return blockDim; }
    static dim3 dim_threads() { return blockDim; }
};

static inline thread_block this_thread_block() { return thread_block(); }

/* The grid's coordinates. Its sync needs every block running at once, in a cooperative
 * launch (cudaLaunchCooperativeKernel), which the emulator refuses to build and a lab's
 * call may not make: in a launch with <<< >>>, a GPU fails the kernel at the sync. */
class grid_group : public thread_group {
  public:
    grid_group() : thread_group(tl_kind_block, 0, 0, 0, 0, 1) {}
    static unsigned long long num_threads() { return (unsigned long long)num_blocks() * tl_block_threads(); }
    static unsigned long long size() { return num_threads(); }
    static unsigned long long thread_rank() { return block_rank() * tl_block_threads() + tl_block_rank(); }
    static unsigned long long num_blocks() { return (unsigned long long)gridDim.x * gridDim.y * gridDim.z; }
    static unsigned long long block_rank()
    {
        return blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    static dim3 dim_blocks() { return gridDim; }
    static dim3 group_dim() { return gridDim; }
    static dim3 thread_index() { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    static dim3 dim_threads() { return blockDim; }
    /* A lab's launches are never cooperative (lab.h): the grid cannot sync, and its sync
     * fails the kernel, as a GPU's does in a launch with <<< >>>. */
    bool is_valid() const { return false; }
    void sync(TL_EMU_AT) const { tl_emu_cuda_grid_sync(tl_file, tl_line); }
};
static inline grid_group this_grid() { return grid_group(); }
template <class... A> void this_cluster(A...) TL_EMU_UNSUPPORTED("thread block clusters (this_cluster())");

/* A tile of Size threads (a power of two, at most a warp), from the block or a larger tile. */
template <unsigned int Size> class tl_tile : public thread_group {
    static_assert(Size >= 1 && Size <= 32 && (Size & (Size - 1)) == 0,
                  "tiles of 1 to 32 threads, a power of two: larger tiles are not supported by "
                  "the tilelab CPU emulator (run this lab on a GPU)");
    static unsigned int mask_of_lane(unsigned int lane)
    {
        return Size == 32 ? 0xffffffffu : ((1u << Size) - 1) << (lane / Size * Size);
    }

  public:
    tl_tile(unsigned int meta_rank, unsigned int meta_size)
        : thread_group(tl_kind_tile, Size, tl_block_rank() % Size, mask_of_lane(tl_lane()),
                       meta_rank, meta_size)
    {
    }
    static constexpr unsigned int num_threads() { return Size; }
    static constexpr unsigned int size() { return Size; }
    static unsigned int thread_rank() { return tl_block_rank() % Size; }
    void sync(TL_EMU_AT) const { __syncwarp(tl_mask, tl_file, tl_line); }

    template <class T> T shfl(T var, int src_rank, TL_EMU_AT) const
    {
        return tl_move(var, [&](unsigned int w) { return __shfl_sync(tl_mask, w, src_rank, (int)Size, tl_file, tl_line); });
    }
    template <class T> T shfl_down(T var, unsigned int delta, TL_EMU_AT) const
    {
        return tl_move(var, [&](unsigned int w) { return __shfl_down_sync(tl_mask, w, delta, (int)Size, tl_file, tl_line); });
    }
    template <class T> T shfl_up(T var, unsigned int delta, TL_EMU_AT) const
    {
        return tl_move(var, [&](unsigned int w) { return __shfl_up_sync(tl_mask, w, delta, (int)Size, tl_file, tl_line); });
    }
    template <class T> T shfl_xor(T var, unsigned int lane_mask, TL_EMU_AT) const
    {
        return tl_move(var, [&](unsigned int w) { return __shfl_xor_sync(tl_mask, w, (int)lane_mask, (int)Size, tl_file, tl_line); });
    }
    int any(int predicate, TL_EMU_AT) const { return __any_sync(tl_mask, predicate, tl_file, tl_line); }
    int all(int predicate, TL_EMU_AT) const { return __all_sync(tl_mask, predicate, tl_file, tl_line); }
    /* Bit r for the thread of rank r in the tile. */
    unsigned int ballot(int predicate, TL_EMU_AT) const
    {
        return __ballot_sync(tl_mask, predicate, tl_file, tl_line) >> (tl_lane() / Size * Size);
    }
    template <class T> unsigned int match_any(T value, TL_EMU_AT) const
    {
        return __match_any_sync(tl_mask, value, tl_file, tl_line) >> (tl_lane() / Size * Size);
    }
    template <class T> unsigned int match_all(T value, int &pred, TL_EMU_AT) const
    {
        return __match_all_sync(tl_mask, value, &pred, tl_file, tl_line) >> (tl_lane() / Size * Size);
    }

  private:
    /* Any trivially copyable value moves as its 4-byte words, as CUDA's tiles move it. */
    template <class T, class F> static T tl_move(T var, F word)
    {
        static_assert(std::is_trivially_copyable<T>::value, "a shuffle moves a trivially copyable value");
        unsigned int words[(sizeof(T) + 3) / 4] = {0};
        __builtin_memcpy(words, &var, sizeof(T));
        for (unsigned int &w : words)
            w = word(w);
        __builtin_memcpy(&var, words, sizeof(T));
        return var;
    }
};

template <unsigned int Size, class ParentT = void> class thread_block_tile : public tl_tile<Size> {
  public:
    thread_block_tile(unsigned int meta_rank, unsigned int meta_size) : tl_tile<Size>(meta_rank, meta_size) {}
    /* A tile keeps what it is whatever parent it came from. */
    template <class P>
    thread_block_tile(const thread_block_tile<Size, P> &t) : tl_tile<Size>(t.meta_group_rank(), t.meta_group_size()) {}
};

/* tiled_partition<N>(parent): the parent's threads in tiles of N, each thread in the one of its rank. */
template <unsigned int Size, class ParentT>
static inline thread_block_tile<Size, ParentT> tiled_partition(const ParentT &parent)
{
    unsigned int rank = (unsigned int)parent.thread_rank(), n = (unsigned int)parent.num_threads();
    return thread_block_tile<Size, ParentT>(rank / Size, (n + Size - 1) / Size);
}

/* tiled_partition(parent, n): the same with the size known when it runs. */
static inline thread_group tiled_partition(const thread_group &parent, unsigned int size)
{
    struct tile : thread_group {
        tile(unsigned int size, unsigned int rank, unsigned int n)
            : thread_group(tl_kind_tile, size, tl_block_rank() % size,
                           size >= 32 ? 0xffffffffu : ((1u << size) - 1) << (tl_lane() / size * size),
                           rank / size, (n + size - 1) / size)
        {
        }
    };
    if (size < 1 || size > 32 || (size & (size - 1)))
        size = 32; /* CUDA's tiles are powers of two up to a warp: the emulator holds to that */
    return tile(size, (unsigned int)parent.thread_rank(), (unsigned int)parent.num_threads());
}

/* The threads of the warp that run here together (__activemask()), ranked by lane. */
class coalesced_group : public thread_group {
  public:
    explicit coalesced_group(unsigned int mask, unsigned int meta_rank = 0, unsigned int meta_size = 1)
        : thread_group(tl_kind_coalesced, (unsigned int)__builtin_popcount(mask),
                       (unsigned int)__builtin_popcount(mask & ((1u << tl_lane()) - 1)), mask,
                       meta_rank, meta_size)
    {
    }
    /* The lane of rank r, for the shuffles. */
    unsigned int tl_lane_of(unsigned int r) const { return __fns(tl_mask, 0, (int)r + 1); }
    template <class T> T shfl(T var, unsigned int src_rank, TL_EMU_AT) const
    {
        return __shfl_sync(tl_mask, var, (int)tl_lane_of(src_rank), 32, tl_file, tl_line);
    }
    template <class T> T shfl_down(T var, unsigned int delta, TL_EMU_AT) const
    {
        unsigned int r = tl_rank + delta;
        return __shfl_sync(tl_mask, var, (int)(r < tl_size ? tl_lane_of(r) : tl_lane()), 32, tl_file, tl_line);
    }
    template <class T> T shfl_up(T var, unsigned int delta, TL_EMU_AT) const
    {
        return __shfl_sync(tl_mask, var, (int)(delta <= tl_rank ? tl_lane_of(tl_rank - delta) : tl_lane()),
                           32, tl_file, tl_line);
    }
    int any(int predicate, TL_EMU_AT) const { return __any_sync(tl_mask, predicate, tl_file, tl_line); }
    int all(int predicate, TL_EMU_AT) const { return __all_sync(tl_mask, predicate, tl_file, tl_line); }
    /* Bit r for the thread of rank r. */
    unsigned int ballot(int predicate, TL_EMU_AT) const
    {
        unsigned int lanes = __ballot_sync(tl_mask, predicate, tl_file, tl_line), packed = 0;
        for (unsigned int r = 0; r < tl_size; r++)
            packed |= (lanes >> tl_lane_of(r) & 1u) << r;
        return packed;
    }
};

static inline coalesced_group coalesced_threads(TL_EMU_AT)
{
    return coalesced_group(__activemask(tl_file, tl_line));
}

/* binary_partition(group, pred): a tile's or a coalesced group's threads split by a predicate,
 * each thread in the part of its own (a ballot of the group, as CUDA's); the part of those
 * that hold it is the second of two, unless they are all or none. */
static inline coalesced_group tl_binary_partition(unsigned int lanes, bool pred, const char *tl_file,
                                                  int tl_line)
{
    unsigned int set = __ballot_sync(lanes, pred, tl_file, tl_line);
    if (set == lanes || set == 0)
        return coalesced_group(lanes, 0, 1);
    return coalesced_group(pred ? set : lanes & ~set, pred ? 1 : 0, 2);
}
static inline coalesced_group binary_partition(const coalesced_group &g, bool pred, TL_EMU_AT)
{
    return tl_binary_partition(g.tl_lanes(), pred, tl_file, tl_line);
}
template <unsigned int Size, class P>
static inline coalesced_group binary_partition(const thread_block_tile<Size, P> &g, bool pred, TL_EMU_AT)
{
    return tl_binary_partition(g.tl_lanes(), pred, tl_file, tl_line);
}

/* labeled_partition(group, label): split by an integer or pointer label (a match of the
 * group), the parts ranked by their first lanes. */
static inline coalesced_group tl_labeled_partition(unsigned int lanes, unsigned long long label,
                                                   const char *tl_file, int tl_line)
{
    unsigned int part = __match_any_sync(lanes, label, tl_file, tl_line);
    unsigned int first = (unsigned int)__builtin_ctz(part);
    unsigned int firsts = __ballot_sync(lanes, tl_lane() == first, tl_file, tl_line);
    return coalesced_group(part, (unsigned int)__builtin_popcount(firsts & ((1u << first) - 1)),
                           (unsigned int)__builtin_popcount(firsts));
}
template <class L> static inline unsigned long long tl_label_bits(L label)
{
    static_assert(std::is_integral<L>::value || std::is_pointer<L>::value,
                  "labeled_partition predicate must be an integral or pointer type");
    if constexpr (std::is_pointer<L>::value)
        return (unsigned long long)(uintptr_t)label;
    else
        return (unsigned long long)label;
}
template <class L> static inline coalesced_group labeled_partition(const coalesced_group &g, L label, TL_EMU_AT)
{
    if constexpr (std::is_same<L, bool>::value)
        return tl_binary_partition(g.tl_lanes(), label, tl_file, tl_line);
    else
        return tl_labeled_partition(g.tl_lanes(), tl_label_bits(label), tl_file, tl_line);
}
template <class L, unsigned int Size, class P>
static inline coalesced_group labeled_partition(const thread_block_tile<Size, P> &g, L label, TL_EMU_AT)
{
    if constexpr (std::is_same<L, bool>::value)
        return tl_binary_partition(g.tl_lanes(), label, tl_file, tl_line);
    else
        return tl_labeled_partition(g.tl_lanes(), tl_label_bits(label), tl_file, tl_line);
}

/* invoke_one(group, fn, args...): one thread of the group calls fn, the one of rank 0 (the
 * lowest lane of a tile or coalesced group, where a GPU elects one); invoke_one_broadcast
 * gives every thread of a tile or coalesced group what it returned. */
template <class G, class Fn, class... A> static inline void invoke_one(const G &g, Fn &&fn, A &&...args)
{
    if (g.thread_rank() == 0)
        static_cast<Fn &&>(fn)(static_cast<A &&>(args)...);
}
template <class G, class Fn, class... A>
static inline auto invoke_one_broadcast(const G &g, Fn &&fn, A &&...args) ->
    typename std::remove_reference<decltype(static_cast<Fn &&>(fn)(static_cast<A &&>(args)...))>::type
{
    using R = decltype(static_cast<Fn &&>(fn)(static_cast<A &&>(args)...));
    static_assert(!std::is_same<R, void>::value,
                  "For invocables returning void invoke_one should be used instead");
    typename std::remove_cv<typename std::remove_reference<R>::type>::type result{};
    if (g.thread_rank() == 0)
        result = static_cast<Fn &&>(fn)(static_cast<A &&>(args)...);
    return g.shfl(result, 0);
}

template <class G> static inline void sync(const G &g, TL_EMU_AT) { g.sync(tl_file, tl_line); }
template <class G> static inline unsigned long long thread_rank(const G &g) { return g.thread_rank(); }
template <class G> static inline unsigned long long group_size(const G &g) { return g.num_threads(); }

} /* namespace */
} /* namespace cooperative_groups */

#endif
