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

/*
 * CUDA 12.8's built-in atomic functions (the Programming Guide's "Built-in Atomic
 * Functions"): GNU's __atomic builtins with a thread scope, __nv_atomic_fetch_add(p, v,
 * __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE) and the like, on the types the Guide gives
 * each. The order and the scope change nothing here (one thread runs at a time, every write
 * seen at once). Each is an atomic of the table above, checked and counted as one; a load
 * is a compare-and-swap that stores what it found (0 for 0), a store an exchange. Their
 * 16-byte forms (compute capability 9.x) are the emulator's limit.
 */
enum { __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELEASE,
       __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST };
enum { __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER,
       __NV_THREAD_SCOPE_DEVICE, __NV_THREAD_SCOPE_SYSTEM };
#define __CUDACC_DEVICE_ATOMIC_BUILTINS__ 1

/* T where a parameter must not take part in deducing it: the value's type is the address's
 * (__nv_atomic_fetch_add(&unsigned_counter, 1, ...) compiles, as with nvcc). */
template <class T> struct tl_emu_nv_same { typedef T type; };

/* The emulator's code of an arithmetic T: float, double, or an integer of 4 or 8 bytes. */
template <class T> static constexpr int tl_emu_nv_arithmetic()
{
    if constexpr (std::is_same<T, float>::value)
        return TL_ATOMIC_F32;
    else if constexpr (std::is_same<T, double>::value)
        return TL_ATOMIC_F64;
    else {
        static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8),
                      "this built-in atomic takes an integer of 4 or 8 bytes, float or double");
        return sizeof(T) == 4 ? (std::is_signed<T>::value ? TL_ATOMIC_I32 : TL_ATOMIC_U32)
                              : (std::is_signed<T>::value ? TL_ATOMIC_I64 : TL_ATOMIC_U64);
    }
}

template <class T>
static inline __attribute__((always_inline)) T tl_emu_nv_atomic(int op, T *address, T val)
{
    return tl_emu_atomic_value<T>(tl_emu_cuda_atomic(op, tl_emu_nv_arithmetic<T>(), (void *)address,
                                                     tl_emu_atomic_bits(val), 0));
}

/* T's bits as the unsigned integer of its size, for exchange, compare-and-swap, load and store. */
template <unsigned N> struct tl_emu_nv_bits {
    static_assert(N == 2 || N == 4 || N == 8, "built-in atomics on 16 bytes (or 1) are not supported "
                  "by the tilelab CPU emulator; a GPU of compute capability 9.x runs them: run this "
                  "lab on a GPU (make labN test GPU=cuda)");
    typedef unsigned int type;
    enum { code = TL_ATOMIC_U32 };
};
template <> struct tl_emu_nv_bits<2> { typedef unsigned short type; enum { code = TL_ATOMIC_U16 }; };
template <> struct tl_emu_nv_bits<8> { typedef unsigned long long type; enum { code = TL_ATOMIC_U64 }; };

template <class T>
static inline __attribute__((always_inline)) T tl_emu_nv_bitwise(int op, T *address, T val, T compare)
{
    typedef tl_emu_nv_bits<sizeof(T)> bits;
    typedef typename bits::type U;
    return __builtin_bit_cast(T, (U)tl_emu_cuda_atomic(op, bits::code, (void *)address,
                                                        __builtin_bit_cast(U, val),
                                                        __builtin_bit_cast(U, compare)));
}

/* __nv_atomic_fetch_NAME returns the old value, __nv_atomic_NAME nothing. */
#define TL_EMU_NV_ATOMIC(name, op)                                                               \
    template <class T>                                                                         \
    static inline __attribute__((always_inline)) T __nv_atomic_fetch_##name(                   \
        T *address, typename tl_emu_nv_same<T>::type val, int order,                           \
        int scope = __NV_THREAD_SCOPE_SYSTEM)                                                  \
    {                                                                                          \
        (void)order, (void)scope;                                                              \
        return tl_emu_nv_atomic(op, address, val);                                             \
    }                                                                                          \
    template <class T>                                                                         \
    static inline __attribute__((always_inline)) void __nv_atomic_##name(                      \
        T *address, typename tl_emu_nv_same<T>::type val, int order,                           \
        int scope = __NV_THREAD_SCOPE_SYSTEM)                                                  \
    {                                                                                          \
        (void)order, (void)scope;                                                              \
        tl_emu_nv_atomic(op, address, val);                                                    \
    }
TL_EMU_NV_ATOMIC(add, TL_ATOMIC_ADD)
TL_EMU_NV_ATOMIC(and, TL_ATOMIC_AND)
TL_EMU_NV_ATOMIC(or, TL_ATOMIC_OR)
TL_EMU_NV_ATOMIC(xor, TL_ATOMIC_XOR)
TL_EMU_NV_ATOMIC(min, TL_ATOMIC_MIN)
TL_EMU_NV_ATOMIC(max, TL_ATOMIC_MAX)
#undef TL_EMU_NV_ATOMIC

/* A float or double subtraction is the add of its negation (PTX has no atom.sub). */
template <class T>
static inline __attribute__((always_inline)) T __nv_atomic_fetch_sub(T *address, typename tl_emu_nv_same<T>::type val,
                                                                     int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
    if constexpr (std::is_floating_point<T>::value)
        return tl_emu_nv_atomic(TL_ATOMIC_ADD, address, (T)-val);
    else
        return tl_emu_nv_atomic(TL_ATOMIC_SUB, address, val);
}
template <class T>
static inline __attribute__((always_inline)) void __nv_atomic_sub(T *address, typename tl_emu_nv_same<T>::type val,
                                                                  int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    __nv_atomic_fetch_sub(address, val, order, scope);
}

/* The _n forms take an integer (nvcc: "non-generic nv atomic load, store, cas and exchange
 * are valid only on integral types"), the others any type of their sizes. */
#define TL_EMU_NV_INTEGRAL(T)                                                                   \
    static_assert(std::is_integral<T>::value,                                                  \
                  "non-generic nv atomic load, store, cas and exchange are valid only on integral types")

template <class T>
static inline __attribute__((always_inline)) bool tl_emu_nv_compare_exchange(T *address, T *expected, T desired)
{
    typedef typename tl_emu_nv_bits<sizeof(T)>::type U;
    T want = *expected;
    T old = tl_emu_nv_bitwise(TL_ATOMIC_CAS, address, desired, want);
    if (__builtin_bit_cast(U, old) == __builtin_bit_cast(U, want))
        return true;
    *expected = old;
    return false;
}

template <class T>
static inline __attribute__((always_inline)) T tl_emu_nv_load(T *address)
{
    typedef typename tl_emu_nv_bits<sizeof(T)>::type U;
    return tl_emu_nv_bitwise(TL_ATOMIC_CAS, address, __builtin_bit_cast(T, (U)0), __builtin_bit_cast(T, (U)0));
}

template <class T>
static inline __attribute__((always_inline)) T __nv_atomic_exchange_n(T *address, typename tl_emu_nv_same<T>::type val,
                                                                      int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    TL_EMU_NV_INTEGRAL(T);
    (void)order, (void)scope;
    return tl_emu_nv_bitwise(TL_ATOMIC_EXCH, address, (T)val, (T)val);
}
template <class T>
static inline __attribute__((always_inline)) void __nv_atomic_exchange(T *address, T *val, T *ret, int order,
                                                                       int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
    *ret = tl_emu_nv_bitwise(TL_ATOMIC_EXCH, address, *val, *val);
}

template <class T>
static inline __attribute__((always_inline)) bool
__nv_atomic_compare_exchange_n(T *address, T *expected, typename tl_emu_nv_same<T>::type desired, bool weak,
                               int success_order, int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    TL_EMU_NV_INTEGRAL(T);
    (void)weak, (void)success_order, (void)failure_order, (void)scope;
    return tl_emu_nv_compare_exchange(address, expected, (T)desired);
}
template <class T>
static inline __attribute__((always_inline)) bool
__nv_atomic_compare_exchange(T *address, T *expected, T *desired, bool weak, int success_order,
                             int failure_order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)weak, (void)success_order, (void)failure_order, (void)scope;
    return tl_emu_nv_compare_exchange(address, expected, *desired);
}

template <class T>
static inline __attribute__((always_inline)) T __nv_atomic_load_n(T *address, int order,
                                                                  int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    TL_EMU_NV_INTEGRAL(T);
    (void)order, (void)scope;
    return tl_emu_nv_load(address);
}
template <class T>
static inline __attribute__((always_inline)) void __nv_atomic_load(T *address, T *ret, int order,
                                                                   int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
    *ret = tl_emu_nv_load(address);
}

template <class T>
static inline __attribute__((always_inline)) void __nv_atomic_store_n(T *address, typename tl_emu_nv_same<T>::type val,
                                                                      int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    TL_EMU_NV_INTEGRAL(T);
    (void)order, (void)scope;
    tl_emu_nv_bitwise(TL_ATOMIC_EXCH, address, (T)val, (T)val);
}
template <class T>
static inline __attribute__((always_inline)) void __nv_atomic_store(T *address, T *val, int order,
                                                                    int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
    tl_emu_nv_bitwise(TL_ATOMIC_EXCH, address, *val, *val);
}
#undef TL_EMU_NV_INTEGRAL

static inline void __nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM)
{
    (void)order, (void)scope;
}

/* One thread runs at a time, and its accesses happen in program order: every
 * thread already sees every write made before, so a fence has nothing to wait for. */
static inline void __threadfence(void) {}
static inline void __threadfence_block(void) {}
static inline void __threadfence_system(void) {}

#endif /* __cplusplus */

#endif
