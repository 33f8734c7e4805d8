/* Reading C++ source as text (source.c), for rewrite. */
#ifndef TILELAB_EMU_SOURCE_H
#define TILELAB_EMU_SOURCE_H

#include <stddef.h>

/* The file at path, NUL-terminated, its length in *len; exits on failure. */
char *slurp(const char *path, size_t *len);
/* Index just past the comment or literal starting at i, or i when there is none. */
size_t skip_opaque(const char *s, size_t i, size_t n);
int is_ident(char c);
/* 1 where the len characters at s name a qualifier of a kernel's declaration with arguments in
 * parentheses, which come before the kernel's name: __launch_bounds__(...), __maxnreg__(n). */
int is_kernel_qualifier(const char *s, size_t len);
/* The line (from 1) of index i. */
int line_of(const char *s, size_t i);
/* Index of the bracket that closes the one at i ('(', '[' or '{'), or n. */
size_t matching(const char *s, size_t i, size_t n);
/* A copy of s with comments and literals blanked (newlines kept): code to search. */
char *code_only(const char *s, size_t n);

#endif
