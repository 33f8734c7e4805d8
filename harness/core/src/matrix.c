#include "matrix.h"

#include <stdlib.h>
#include <string.h>

#define TL_ALIGN 4096

int tl_matrix_alloc(tl_matrix *m, size_t count)
{
    size_t total = count + 2 * (size_t)TL_MARGIN;
    memset(m, 0, sizeof *m);
    if (count > (SIZE_MAX / sizeof(float)) - 2 * TL_MARGIN)
        return -1;
    size_t bytes = (total * sizeof(float) + TL_ALIGN - 1) / TL_ALIGN * TL_ALIGN;
    m->base = aligned_alloc(TL_ALIGN, bytes);
    if (!m->base)
        return -1;
    m->data = m->base + TL_MARGIN;
    m->count = count;
    return 0;
}

void tl_matrix_free(tl_matrix *m)
{
    free(m->base);
    memset(m, 0, sizeof *m);
}

size_t tl_matrix_total(const tl_matrix *m)
{
    return m->count + 2 * (size_t)TL_MARGIN;
}

uint32_t tl_float_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

float tl_bits_float(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

void tl_fill_bits(float *p, size_t n, uint32_t bits)
{
    float v = tl_bits_float(bits);
    for (size_t i = 0; i < n; i++)
        p[i] = v;
}

void tl_matrix_fill_margins(tl_matrix *m, uint32_t bits)
{
    tl_fill_bits(m->base, TL_MARGIN, bits);
    tl_fill_bits(m->data + m->count, TL_MARGIN, bits);
}

uint64_t tl_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t special_bits(uint64_t r)
{
    switch (r % 5) {
    case 0: return 0x80000000u;                        /* -0.0 */
    case 1: return 0x00000001u + (uint32_t)(r >> 40);  /* denormal */
    case 2: return 0x7f800000u;                        /* +inf */
    case 3: return 0xff800000u;                        /* -inf */
    default: return 0x7fe00000u | (uint32_t)((r >> 20) & 0x1fffffu); /* quiet NaN, own payload */
    }
}

int tl_is_marker_bits(uint32_t bits)
{
    return bits == TL_POISON_BITS || bits == TL_GUARD_BITS || bits == TL_MARGIN_BITS ||
           bits == TL_SHARED_POISON_BITS;
}

void tl_fill_random(float *p, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tl_rand_next(&state);
        uint32_t bits;
        if ((r & 63) == 0) {
            bits = special_bits(r >> 6);
        } else {
            /* sign, exponent 2^-3..2^4, full random mantissa: values in +-[0.125, 32) */
            uint32_t sign = (uint32_t)(r >> 63) << 31;
            uint32_t exponent = (uint32_t)(124 + ((r >> 6) & 7)) << 23;
            bits = sign | exponent | (uint32_t)((r >> 9) & 0x7fffffu);
        }
        p[i] = tl_bits_float(bits);
    }
}

size_t tl_find_not_bits(const float *p, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        if (tl_float_bits(p[i]) != bits)
            return i;
    return n;
}

size_t tl_find_bits(const float *p, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        if (tl_float_bits(p[i]) == bits)
            return i;
    return n;
}
