/*
 * What a warp collective computes, once its lanes have met (emulator.c
 * holds each lane until the lanes its mask names are all there): shuffles
 * by the PTX ISA's rule for shfl.sync (the lane each reads, by mode, offset
 * and segment width), votes, matches and reductions over the lanes that
 * take part. A lane that reads from one that takes no part (it has exited,
 * the mask leaves it out, or the block has no such lane) gets a value CUDA
 * leaves undefined: 0, what the H100 gives it each time
 * (plots/data/undefined-shuffles-h100.txt), so that the verdict is the
 * GPU's; emulator.c says so on stderr.
 */
#include "cuda_runtime.h"
#include "emu.h"
#include "emulator.h"

static const char *const names[TL_WARP_OPS] = {
    [TL_WARP_SHFL_IDX] = "__shfl_sync",
    [TL_WARP_SHFL_UP] = "__shfl_up_sync",
    [TL_WARP_SHFL_DOWN] = "__shfl_down_sync",
    [TL_WARP_SHFL_XOR] = "__shfl_xor_sync",
    [TL_WARP_BALLOT] = "__ballot_sync",
    [TL_WARP_ANY] = "__any_sync",
    [TL_WARP_ALL] = "__all_sync",
    [TL_WARP_SYNC] = "__syncwarp",
    [TL_WARP_ACTIVEMASK] = "__activemask",
    [TL_WARP_MATCH_ANY] = "__match_any_sync",
    [TL_WARP_MATCH_ALL] = "__match_all_sync",
    [TL_WARP_REDUCE_ADD] = "__reduce_add_sync",
    [TL_WARP_REDUCE_MIN] = "__reduce_min_sync",
    [TL_WARP_REDUCE_MAX] = "__reduce_max_sync",
    [TL_WARP_REDUCE_UMIN] = "__reduce_min_sync",
    [TL_WARP_REDUCE_UMAX] = "__reduce_max_sync",
    [TL_WARP_REDUCE_AND] = "__reduce_and_sync",
    [TL_WARP_REDUCE_OR] = "__reduce_or_sync",
    [TL_WARP_REDUCE_XOR] = "__reduce_xor_sync",
};

const char *tl_emu_warp_name(int op)
{
    return op >= 0 && op < TL_WARP_OPS ? names[op] : "a warp collective";
}

/*
 * The lane lane reads in shfl.sync (PTX ISA): b is its lane, offset or
 * lane mask, c the width packed as CUDA's header packs it (the segment's
 * mask in bits 12:8, the clamp in 4:0). Out of its segment, its own.
 */
static int source_lane(int op, int lane, int b, int c)
{
    int bval = b & 31, cval = c & 31, segmask = (c >> 8) & 31;
    int max_lane = (lane & segmask) | (cval & ~segmask), min_lane = lane & segmask, j, in;
    switch (op) {
    case TL_WARP_SHFL_UP: j = lane - bval, in = j >= max_lane; break;
    case TL_WARP_SHFL_DOWN: j = lane + bval, in = j <= max_lane; break;
    case TL_WARP_SHFL_XOR: j = lane ^ bval, in = j <= max_lane; break;
    default: j = min_lane | (bval & ~segmask), in = j <= max_lane; break;
    }
    return in ? j : lane;
}

/* Bits of size bytes as a signed number. */
static long long as_signed(unsigned long long v, unsigned size)
{
    return size == 8 ? (long long)v : (long long)(int)(unsigned)v;
}

static unsigned long long reduce(int op, unsigned long long a, unsigned long long b, unsigned size)
{
    unsigned long long mask = size == 8 ? ~0ull : 0xffffffffull;
    switch (op) {
    case TL_WARP_REDUCE_ADD: return (a + b) & mask;
    case TL_WARP_REDUCE_MIN: return as_signed(a, size) < as_signed(b, size) ? a : b;
    case TL_WARP_REDUCE_MAX: return as_signed(a, size) > as_signed(b, size) ? a : b;
    case TL_WARP_REDUCE_UMIN: return a < b ? a : b;
    case TL_WARP_REDUCE_UMAX: return a > b ? a : b;
    case TL_WARP_REDUCE_AND: return a & b;
    case TL_WARP_REDUCE_OR: return a | b;
    default: return a ^ b;
    }
}

void tl_emu_warp_exchange(tl_emu_warp_call *const call[32], unsigned group, int *reader)
{
    int first = __builtin_ctz(group);
    int op = call[first]->op;
    unsigned size = call[first]->size;
    unsigned ballot = 0;
    unsigned long long folded = call[first]->value;
    int same = 1;
    for (int l = 0; l < 32; l++) {
        if (!(group >> l & 1))
            continue;
        ballot |= (unsigned)(call[l]->value != 0) << l;
        same &= call[l]->value == call[first]->value;
        if (l != first)
            folded = reduce(op, folded, call[l]->value, size);
    }
    if (reader)
        *reader = -1;
    for (int l = 0; l < 32; l++) {
        if (!(group >> l & 1))
            continue;
        tl_emu_warp_call *c = call[l];
        switch (op) {
        case TL_WARP_SHFL_IDX:
        case TL_WARP_SHFL_UP:
        case TL_WARP_SHFL_DOWN:
        case TL_WARP_SHFL_XOR: {
            int j = source_lane(op, l, c->b, c->c);
            if (group >> j & 1) {
                c->result = call[j]->value;
            } else {
                c->result = 0;
                if (reader && *reader < 0)
                    *reader = l;
            }
            break;
        }
        case TL_WARP_BALLOT: c->result = ballot; break;
        case TL_WARP_ANY: c->result = ballot != 0; break;
        case TL_WARP_ALL: c->result = ballot == group; break;
        case TL_WARP_MATCH_ANY: {
            unsigned equal = 0;
            for (int m = 0; m < 32; m++)
                if ((group >> m & 1) && call[m]->value == c->value)
                    equal |= 1u << m;
            c->result = equal;
            break;
        }
        case TL_WARP_MATCH_ALL:
            /* PTX's match.all: the mask itself where all agree, else 0. */
            c->result = same ? c->mask : 0;
            c->pred = same;
            break;
        case TL_WARP_SYNC: c->result = 0; break;
        default: c->result = folded; break;
        }
    }
}

unsigned long long tl_emu_cuda_warp(int op, unsigned mask, unsigned long long value, unsigned size,
                                    int b, int c, int *pred, const char *file, int line)
{
    tl_emu_warp_call call = {op, mask, size, b, c, value, 0, 0, file, line};
    tl_emu_warp_wait(&call);
    if (pred)
        *pred = call.pred;
    return call.result;
}
