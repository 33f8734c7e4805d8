/*
 * CUDA's atomic functions for the emulator, on the types of the
 * Programming Guide's table (atomicAdd on int, unsigned int, unsigned long
 * long, float and double; atomicMin/Max also on long long; atomicCAS also
 * on unsigned short; atomicInc/Dec on unsigned int; ...), with their
 * _block and _system forms, and the memory fences. Each is an access the
 * emulator checks (bounds, alignment) and counts apart from loads and
 * stores (emu.h: global_atomic_requests, shared_atomic_requests).
 */
#ifndef TILELAB_EMU_DEVICE_ATOMIC_FUNCTIONS_H
#define TILELAB_EMU_DEVICE_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#ifdef __cplusplus

template <class T> struct tl_emu_atomic_type;
template <> struct tl_emu_atomic_type<int> { enum { code = TL_ATOMIC_I32 }; };
template <> struct tl_emu_atomic_type<unsigned int> { enum { code = TL_ATOMIC_U32 }; };
template <> struct tl_emu_atomic_type<long long> { enum { code = TL_ATOMIC_I64 }; };
template <> struct tl_emu_atomic_type<unsigned long long> { enum { code = TL_ATOMIC_U64 }; };
template <> struct tl_emu_atomic_type<unsigned short> { enum { code = TL_ATOMIC_U16 }; };
template <> struct tl_emu_atomic_type<float> { enum { code = TL_ATOMIC_F32 }; };
template <> struct tl_emu_atomic_type<double> { enum { code = TL_ATOMIC_F64 }; };

static inline unsigned tl_emu_atomic_element_bytes(int type) { return type == TL_ATOMIC_F32 ? 4 : 2; }

template <class T> static inline unsigned long long tl_emu_atomic_bits(T v)
{
    if constexpr (sizeof(T) == 4 && !std::is_integral<T>::value)
        return __builtin_bit_cast(unsigned int, v);
    else if constexpr (sizeof(T) == 8 && !std::is_integral<T>::value)
        return __builtin_bit_cast(unsigned long long, v);
    else
        return (unsigned long long)(typename std::make_unsigned<T>::type)v;
}

template <class T> static inline T tl_emu_atomic_value(unsigned long long bits)
{
    if constexpr (sizeof(T) == 4 && !std::is_integral<T>::value)
        return __builtin_bit_cast(T, (unsigned int)bits);
    else if constexpr (sizeof(T) == 8 && !std::is_integral<T>::value)
        return __builtin_bit_cast(T, bits);
    else
        return (T)bits;
}

/* Inlined where it is called, so that each call is an instruction of its own (emu.h). */
template <class T>
static inline __attribute__((always_inline)) T tl_emu_atomic(int op, T *address, T val, T compare = T())
{
    return tl_emu_atomic_value<T>(tl_emu_cuda_atomic(op, tl_emu_atomic_type<T>::code, address,
                                                     tl_emu_atomic_bits(val),
                                                     tl_emu_atomic_bits(compare)));
}

/* name, name_block and name_system of T: one operation (a GPU's scopes are one CPU here). */
#define TL_EMU_ATOMIC(name, op, T)                                                              \
    static inline __attribute__((always_inline)) T name(T *address, T val)                     \
    {                                                                                          \
        return tl_emu_atomic(op, address, val);                                                \
    }                                                                                          \
    static inline __attribute__((always_inline)) T name##_block(T *address, T val)             \
    {                                                                                          \
        return tl_emu_atomic(op, address, val);                                                \
    }                                                                                          \
    static inline __attribute__((always_inline)) T name##_system(T *address, T val)            \
    {                                                                                          \
        return tl_emu_atomic(op, address, val);                                                \
    }
#define TL_EMU_ATOMIC_CAS(T)                                                                    \
    static inline __attribute__((always_inline)) T atomicCAS(T *address, T compare, T val)      \
    {                                                                                          \
        return tl_emu_atomic(TL_ATOMIC_CAS, address, val, compare);                             \
    }                                                                                          \
    static inline __attribute__((always_inline)) T atomicCAS_block(T *address, T compare, T val) \
    {                                                                                          \
        return tl_emu_atomic(TL_ATOMIC_CAS, address, val, compare);                             \
    }                                                                                          \
    static inline __attribute__((always_inline)) T atomicCAS_system(T *address, T compare, T val) \
    {                                                                                          \
        return tl_emu_atomic(TL_ATOMIC_CAS, address, val, compare);                             \
    }

TL_EMU_ATOMIC(atomicAdd, TL_ATOMIC_ADD, int)
TL_EMU_ATOMIC(atomicAdd, TL_ATOMIC_ADD, unsigned int)
TL_EMU_ATOMIC(atomicAdd, TL_ATOMIC_ADD, unsigned long long)
TL_EMU_ATOMIC(atomicAdd, TL_ATOMIC_ADD, float)
TL_EMU_ATOMIC(atomicAdd, TL_ATOMIC_ADD, double)
TL_EMU_ATOMIC(atomicSub, TL_ATOMIC_SUB, int)
TL_EMU_ATOMIC(atomicSub, TL_ATOMIC_SUB, unsigned int)
TL_EMU_ATOMIC(atomicExch, TL_ATOMIC_EXCH, int)
TL_EMU_ATOMIC(atomicExch, TL_ATOMIC_EXCH, unsigned int)
TL_EMU_ATOMIC(atomicExch, TL_ATOMIC_EXCH, unsigned long long)
TL_EMU_ATOMIC(atomicExch, TL_ATOMIC_EXCH, float)
TL_EMU_ATOMIC(atomicMin, TL_ATOMIC_MIN, int)
TL_EMU_ATOMIC(atomicMin, TL_ATOMIC_MIN, unsigned int)
TL_EMU_ATOMIC(atomicMin, TL_ATOMIC_MIN, unsigned long long)
TL_EMU_ATOMIC(atomicMin, TL_ATOMIC_MIN, long long)
TL_EMU_ATOMIC(atomicMax, TL_ATOMIC_MAX, int)
TL_EMU_ATOMIC(atomicMax, TL_ATOMIC_MAX, unsigned int)
TL_EMU_ATOMIC(atomicMax, TL_ATOMIC_MAX, unsigned long long)
TL_EMU_ATOMIC(atomicMax, TL_ATOMIC_MAX, long long)
TL_EMU_ATOMIC(atomicInc, TL_ATOMIC_INC, unsigned int)
TL_EMU_ATOMIC(atomicDec, TL_ATOMIC_DEC, unsigned int)
TL_EMU_ATOMIC(atomicAnd, TL_ATOMIC_AND, int)
TL_EMU_ATOMIC(atomicAnd, TL_ATOMIC_AND, unsigned int)
TL_EMU_ATOMIC(atomicAnd, TL_ATOMIC_AND, unsigned long long)
TL_EMU_ATOMIC(atomicOr, TL_ATOMIC_OR, int)
TL_EMU_ATOMIC(atomicOr, TL_ATOMIC_OR, unsigned int)
TL_EMU_ATOMIC(atomicOr, TL_ATOMIC_OR, unsigned long long)
TL_EMU_ATOMIC(atomicXor, TL_ATOMIC_XOR, int)
TL_EMU_ATOMIC(atomicXor, TL_ATOMIC_XOR, unsigned int)
TL_EMU_ATOMIC(atomicXor, TL_ATOMIC_XOR, unsigned long long)
TL_EMU_ATOMIC_CAS(int)
TL_EMU_ATOMIC_CAS(unsigned int)
TL_EMU_ATOMIC_CAS(unsigned long long)
TL_EMU_ATOMIC_CAS(unsigned short)

/* atomicAdd on float2 and float4 (compute capability 9.x), and on __half, __half2,
 * __nv_bfloat16 and __nv_bfloat162 (cuda_fp16.h, cuda_bf16.h): one access of the whole
 * vector, each of its values added atomically on its own (the macro is cuda_fp16.h's and
 * cuda_bf16.h's too). */
template <class V>
static inline __attribute__((always_inline)) V tl_emu_atomic_add_vector(int type, V *address, V val)
{
    V old;
    tl_emu_cuda_atomic_add_vector(type, (int)(sizeof(V) / tl_emu_atomic_element_bytes(type)), address,
                                  &val, &old);
    return old;
}
#define TL_EMU_ATOMIC_ADD_VECTOR(V, type)                                                       \
    static inline __attribute__((always_inline)) V atomicAdd(V *address, V val)                \
    {                                                                                          \
        return tl_emu_atomic_add_vector(type, address, val);                                   \
    }
/* The float vectors have the _block and _system forms too (the 16-bit floats do not). */
#define TL_EMU_ATOMIC_ADD_FLOATS(V)                                                             \
    TL_EMU_ATOMIC_ADD_VECTOR(V, TL_ATOMIC_F32)                                                 \
    static inline __attribute__((always_inline)) V atomicAdd_block(V *address, V val)          \
    {                                                                                          \
        return tl_emu_atomic_add_vector(TL_ATOMIC_F32, address, val);                          \
    }                                                                                          \
    static inline __attribute__((always_inline)) V atomicAdd_system(V *address, V val)         \
    {                                                                                          \
        return tl_emu_atomic_add_vector(TL_ATOMIC_F32, address, val);                          \
    }
TL_EMU_ATOMIC_ADD_FLOATS(float2)
TL_EMU_ATOMIC_ADD_FLOATS(float4)
#undef TL_EMU_ATOMIC_ADD_FLOATS
#undef TL_EMU_ATOMIC
#undef TL_EMU_ATOMIC_CAS

/* One thread runs at a time, and its accesses happen in program order: every
 * thread already sees every write made before, so a fence has nothing to wait for. */
static inline void __threadfence(void) {}
static inline void __threadfence_block(void) {}
static inline void __threadfence_system(void) {}

#endif /* __cplusplus */

#endif
