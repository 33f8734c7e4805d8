/*
 * make_int2(x, y) and the rest: a make_ function for each of CUDA's vector
 * types (vector_types.h), as CUDA's vector_functions.h has them.
 */
#ifndef TILELAB_EMU_VECTOR_FUNCTIONS_H
#define TILELAB_EMU_VECTOR_FUNCTIONS_H

#include "vector_types.h"

#define TL_EMU_MAKE(name, T)                                                                    \
    static inline name##1 make_##name##1(T x) { name##1 v = {x}; return v; }                   \
    static inline name##2 make_##name##2(T x, T y) { name##2 v = {x, y}; return v; }           \
    static inline name##3 make_##name##3(T x, T y, T z) { name##3 v = {x, y, z}; return v; }   \
    static inline name##4 make_##name##4(T x, T y, T z, T w) { name##4 v = {x, y, z, w}; return v; }
#define TL_EMU_MAKE4(name, T)                                                                   \
    static inline name make_##name(T x, T y, T z, T w) { name v = {x, y, z, w}; return v; }
TL_EMU_MAKE(char, signed char)
TL_EMU_MAKE(uchar, unsigned char)
TL_EMU_MAKE(short, short)
TL_EMU_MAKE(ushort, unsigned short)
TL_EMU_MAKE(int, int)
TL_EMU_MAKE(uint, unsigned int)
TL_EMU_MAKE(float, float)
/* CUDA 13 deprecates the 4-wide 64-bit types; their make_ functions are no use of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TL_EMU_MAKE(long, long int)
TL_EMU_MAKE(ulong, unsigned long int)
TL_EMU_MAKE(longlong, long long int)
TL_EMU_MAKE(ulonglong, unsigned long long int)
TL_EMU_MAKE(double, double)
#pragma GCC diagnostic pop
TL_EMU_MAKE4(long4_16a, long int)
TL_EMU_MAKE4(long4_32a, long int)
TL_EMU_MAKE4(ulong4_16a, unsigned long int)
TL_EMU_MAKE4(ulong4_32a, unsigned long int)
TL_EMU_MAKE4(longlong4_16a, long long int)
TL_EMU_MAKE4(longlong4_32a, long long int)
TL_EMU_MAKE4(ulonglong4_16a, unsigned long long int)
TL_EMU_MAKE4(ulonglong4_32a, unsigned long long int)
TL_EMU_MAKE4(double4_16a, double)
TL_EMU_MAKE4(double4_32a, double)
#undef TL_EMU_MAKE
#undef TL_EMU_MAKE4

#endif
