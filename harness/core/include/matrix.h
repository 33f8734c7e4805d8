/* Matrices with margins: aligned allocation, seeded fill, poison, guards. */
#ifndef TILELAB_MATRIX_H
#define TILELAB_MATRIX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Distinct quiet NaNs, so that a value in a wrong place says where it came
 * from. Every one is copied bit-exactly by a correct transpose, and none is
 * produced by random fill.
 */
#define TL_POISON_BITS 0x7fc0deadu /* output element nobody wrote */
#define TL_GUARD_BITS  0x7fc0facau /* guard zone around the output */
#define TL_MARGIN_BITS 0x7fc0b0b0u /* margin around the input: reading it is a bug */
#define TL_SHARED_POISON_BITS 0x7fc05a5au /* __shared__ memory before a block writes it, where the
                                             runtime fills it (the emulator does) */

/* Elements of margin on each side: a whole 4 KiB page keeps data aligned. */
#define TL_MARGIN 1024

typedef struct {
    float *base;   /* margin | data | margin */
    float *data;   /* count elements, 4 KiB aligned */
    size_t count;
} tl_matrix;

/* 0 on success, -1 when there is not enough memory. */
int tl_matrix_alloc(tl_matrix *m, size_t count);
void tl_matrix_free(tl_matrix *m);
size_t tl_matrix_total(const tl_matrix *m); /* elements in base, margins included */

/* 1 for the four marker NaNs above: they say where a value came from, never what it is. */
int tl_is_marker_bits(uint32_t bits);

uint32_t tl_float_bits(float x);
float tl_bits_float(uint32_t bits);

void tl_fill_bits(float *p, size_t n, uint32_t bits);
/* Margins to `bits`, data untouched. */
void tl_matrix_fill_margins(tl_matrix *m, uint32_t bits);
/*
 * Random values, nearly all distinct, from a seed; one in 64 is special:
 * -0.0, a denormal, +-inf or a NaN with a payload of its own.
 */
void tl_fill_random(float *p, size_t n, uint64_t seed);

/* Index of the first element in [0, n) whose bits differ from `bits`, or n. */
size_t tl_find_not_bits(const float *p, size_t n, uint32_t bits);
/* Index of the first element with exactly these bits, or n. */
size_t tl_find_bits(const float *p, size_t n, uint32_t bits);

/* splitmix64: the one random source, so a seed means the same everywhere. */
uint64_t tl_rand_next(uint64_t *state);

#endif
