/*
 * CUDA's atomic functions, once the emulator has checked and counted the
 * access (emulator.c, tl_emu_cuda_atomic): the operations of the
 * Programming Guide's table, on the types it gives each. Threads run one
 * at a time, so an operation done whole is atomic.
 */
#include "cuda_runtime.h"
#include "emulator.h"

#include <math.h>
#include <string.h>

unsigned tl_emu_atomic_size(int type)
{
    switch (type) {
    case TL_ATOMIC_U16: case TL_ATOMIC_F16: case TL_ATOMIC_BF16: return 2;
    case TL_ATOMIC_I32: case TL_ATOMIC_U32: case TL_ATOMIC_F32: return 4;
    default: return 8;
    }
}

/* The integer operations on T, in unsigned arithmetic where C's signed one could overflow. */
#define INTEGER(T, U)                                                                           \
    {                                                                                          \
        T old, x = (T)v, r;                                                                    \
        memcpy(&old, p, sizeof old);                                                           \
        switch (op) {                                                                          \
        case TL_ATOMIC_ADD: r = (T)((U)old + (U)x); break;                                     \
        case TL_ATOMIC_SUB: r = (T)((U)old - (U)x); break;                                     \
        case TL_ATOMIC_MIN: r = old < x ? old : x; break;                                      \
        case TL_ATOMIC_MAX: r = old > x ? old : x; break;                                      \
        case TL_ATOMIC_INC: r = old >= x ? 0 : (T)(old + 1); break;                            \
        case TL_ATOMIC_DEC: r = old == 0 || old > x ? x : (T)(old - 1); break;                 \
        case TL_ATOMIC_CAS: r = old == (T)compare ? x : old; break;                            \
        case TL_ATOMIC_AND: r = old & x; break;                                                \
        case TL_ATOMIC_OR: r = old | x; break;                                                 \
        case TL_ATOMIC_XOR: r = old ^ x; break;                                                \
        default: r = x; break; /* exchange */                                                  \
        }                                                                                      \
        memcpy(p, &r, sizeof r);                                                               \
        return (unsigned long long)(U)old;                                                     \
    }

/* Floating point: add and exchange, the value's bits in and out; FLUSH(x) what the add
 * makes of an input or result. */
#define FLOATING(T, BITS, FLUSH)                                                                \
    {                                                                                          \
        T old, x, r;                                                                           \
        BITS xb = (BITS)v, ob;                                                                 \
        memcpy(&old, p, sizeof old);                                                           \
        memcpy(&x, &xb, sizeof x);                                                             \
        r = op == TL_ATOMIC_ADD ? FLUSH(FLUSH(old) + FLUSH(x)) : x;                            \
        memcpy(p, &r, sizeof r);                                                               \
        memcpy(&ob, &old, sizeof ob);                                                          \
        return ob;                                                                             \
    }

/*
 * The PTX ISA (atom, red): "atom.add.f32 on global memory flushes subnormal inputs and
 * results to sign-preserving zero; whereas atom.add.f32 on shared memory supports subnormal
 * inputs and results", whatever -ftz says; the f64 add keeps them everywhere. A float
 * atomicAdd onto global memory therefore loses a subnormal input (a copy by atomicAdd onto a
 * zeroed output stores +0 for it) and a subnormal sum.
 */
/* (A GPU's add also gives one NaN, 0x7fffffff, whatever NaN went in; the emulator keeps the
 * NaN's bits, as its other arithmetic does, so that a NaN sum still tells where it came from:
 * check_reduce.c's margin and __shared__ poison, lab 10's corpus.) */
static float flushed(float x)
{
    return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}
#define KEPT(x) (x)

unsigned long long tl_emu_atomic_apply(int op, int type, void *p, unsigned long long v,
                                       unsigned long long compare, int global)
{
    switch (type) {
    case TL_ATOMIC_I32: INTEGER(int, unsigned int)
    case TL_ATOMIC_U32: INTEGER(unsigned int, unsigned int)
    case TL_ATOMIC_I64: INTEGER(long long, unsigned long long)
    case TL_ATOMIC_U64: INTEGER(unsigned long long, unsigned long long)
    case TL_ATOMIC_U16: INTEGER(unsigned short, unsigned short)
    case TL_ATOMIC_F32:
        if (global)
            FLOATING(float, unsigned int, flushed)
        FLOATING(float, unsigned int, KEPT)
    default: FLOATING(double, unsigned long long, KEPT)
    }
}

/* A 16-bit float's value, and a float rounded to one, to nearest even (a NaN is the canonical
 * 0x7fff, as the emulator's other half and bfloat16 arithmetic gives, emu_float16.h); the sum
 * of two of them in float, rounded once more, is the correctly rounded sum. */
static float value16(int type, unsigned short b)
{
    if (type == TL_ATOMIC_BF16) {
        unsigned int u = (unsigned int)b << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return (float)h;
}

static unsigned short round16(int type, float f)
{
    if (f != f)
        return 0x7fff;
    if (type == TL_ATOMIC_BF16) {
        unsigned int u;
        memcpy(&u, &f, sizeof u);
        return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
    }
    _Float16 h = (_Float16)f;
    unsigned short b;
    memcpy(&b, &h, sizeof b);
    return b;
}

/*
 * atomicAdd on a float2, float4, __half2 or __nv_bfloat162 (count values) or on one __half
 * or __nv_bfloat16: each value its own add, the floats' as a float atomicAdd's (global memory
 * flushes subnormals), the 16-bit ones' keeping them (the PTX ISA's atom.add.noftz.f16,
 * .bf16).
 */
void tl_emu_atomic_add_vector(int type, int count, void *p, const void *v, void *old, int global)
{
    unsigned size = tl_emu_atomic_size(type);
    unsigned char *at = p;
    const unsigned char *in = v;
    memcpy(old, p, (size_t)size * count);
    for (int i = 0; i < count; i++, at += size, in += size) {
        if (type == TL_ATOMIC_F32) {
            float a, b, r;
            memcpy(&a, at, sizeof a);
            memcpy(&b, in, sizeof b);
            r = global ? flushed(flushed(a) + flushed(b)) : a + b;
            memcpy(at, &r, sizeof r);
        } else {
            unsigned short a, b, r;
            memcpy(&a, at, sizeof a);
            memcpy(&b, in, sizeof b);
            r = round16(type, value16(type, a) + value16(type, b));
            memcpy(at, &r, sizeof r);
        }
    }
}
