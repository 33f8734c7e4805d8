/*
 * CUDA's built-in vector types (the Programming Guide's "Built-in Vector
 * Types"), with the alignments CUDA 13's vector_types.h gives them, and
 * dim3; C and C++ alike. The 4-wide 64-bit types CUDA 13 deprecates in
 * favour of their _16a and _32a forms are deprecated here too, so that a
 * file that uses them fails as the GPU build (warnings as errors) fails.
 */
#ifndef TILELAB_EMU_VECTOR_TYPES_H
#define TILELAB_EMU_VECTOR_TYPES_H

#define TL_EMU_VEC1(name, T) typedef struct name { T x; } name;
#define TL_EMU_VEC2(name, T, A) typedef struct A name { T x, y; } name;
#define TL_EMU_VEC3(name, T) typedef struct name { T x, y, z; } name;
#define TL_EMU_VEC4(name, T, A) typedef struct A name { T x, y, z, w; } name;
#define TL_EMU_ALIGN(n) __attribute__((aligned(n)))
#define TL_EMU_DEPRECATED(use) __attribute__((deprecated("use " use)))

/* name, element type, alignment of the 2-wide and of the 4-wide forms */
#define TL_EMU_VECS(name, T, A2, A4)                                                           \
    TL_EMU_VEC1(name##1, T) TL_EMU_VEC2(name##2, T, A2) TL_EMU_VEC3(name##3, T)                \
    TL_EMU_VEC4(name##4, T, A4)
TL_EMU_VECS(char, signed char, TL_EMU_ALIGN(2), TL_EMU_ALIGN(4))
TL_EMU_VECS(uchar, unsigned char, TL_EMU_ALIGN(2), TL_EMU_ALIGN(4))
TL_EMU_VECS(short, short, TL_EMU_ALIGN(4), TL_EMU_ALIGN(8))
TL_EMU_VECS(ushort, unsigned short, TL_EMU_ALIGN(4), TL_EMU_ALIGN(8))
TL_EMU_VECS(int, int, TL_EMU_ALIGN(8), TL_EMU_ALIGN(16))
TL_EMU_VECS(uint, unsigned int, TL_EMU_ALIGN(8), TL_EMU_ALIGN(16))
TL_EMU_VECS(float, float, TL_EMU_ALIGN(8), TL_EMU_ALIGN(16))
#undef TL_EMU_VECS

/* The 64-bit ones: 2-wide aligned to 16, 4-wide to 16 (deprecated), _16a and _32a. */
#define TL_EMU_VECS64(name, T)                                                                 \
    TL_EMU_VEC1(name##1, T) TL_EMU_VEC2(name##2, T, TL_EMU_ALIGN(16)) TL_EMU_VEC3(name##3, T)  \
    typedef struct TL_EMU_ALIGN(16) name##4 { T x, y, z, w; } name##4                          \
        TL_EMU_DEPRECATED(#name "4_16a or " #name "4_32a");                                    \
    TL_EMU_VEC4(name##4_16a, T, TL_EMU_ALIGN(16)) TL_EMU_VEC4(name##4_32a, T, TL_EMU_ALIGN(32))
TL_EMU_VECS64(long, long int)
TL_EMU_VECS64(ulong, unsigned long int)
TL_EMU_VECS64(longlong, long long int)
TL_EMU_VECS64(ulonglong, unsigned long long int)
TL_EMU_VECS64(double, double)
#undef TL_EMU_VECS64
#undef TL_EMU_VEC1
#undef TL_EMU_VEC2
#undef TL_EMU_VEC3
#undef TL_EMU_VEC4

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 {
    unsigned int x, y, z;
} dim3;
#endif

#endif
