/*
 * Reading C++ source as text, for rewrite: its comments and literals
 * (skipped, or blanked out so that searches find code only), identifiers,
 * lines and brackets.
 */
#include "source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "rewrite: cannot read %s\n", path);
        exit(1);
    }
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}


/* Index just past the comment or literal starting at i, or i when there is none. */
size_t skip_opaque(const char *s, size_t i, size_t n)
{
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
        const char *end = strstr(s + i + 2, "*/");
        return end ? (size_t)(end - s) + 2 : n;
    }
    if (s[i] == '"' || s[i] == '\'') {
        char q = s[i++];
        while (i < n && s[i] != q)
            i += s[i] == '\\' ? 2 : 1;
        return i < n ? i + 1 : n;
    }
    return i;
}


int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

int is_kernel_qualifier(const char *s, size_t len)
{
    return (len == strlen("__launch_bounds__") && strncmp(s, "__launch_bounds__", len) == 0) ||
           (len == strlen("__maxnreg__") && strncmp(s, "__maxnreg__", len) == 0);
}


int line_of(const char *s, size_t i)
{
    int line = 1;
    for (size_t k = 0; k < i; k++)
        line += s[k] == '\n';
    return line;
}


/* Index of the bracket that closes the one at i ('(', '[' or '{'), or n. */
size_t matching(const char *s, size_t i, size_t n)
{
    char open = s[i], close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    while (i < n) {
        size_t j = skip_opaque(s, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (s[i] == open)
            depth++;
        else if (s[i] == close && --depth == 0)
            return i;
        i++;
    }
    return n;
}


/* The code alone, comments and literals blanked, for the searches for declarations. */
char *code_only(const char *s, size_t n)
{
    char *code = malloc(n + 1);
    if (!code)
        exit(1);
    memcpy(code, s, n + 1);
    for (size_t i = 0; i < n;) {
        size_t j = skip_opaque(s, i, n);
        for (size_t k = i; k < j; k++)
            code[k] = code[k] == '\n' ? '\n' : ' ';
        i = j > i ? j : i + 1;
    }
    return code;
}
