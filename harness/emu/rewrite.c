/*
 * rewrite: copies a .cu file, turning each kernel launch
 *
 *     name<<<config>>>(args)      into      TL_LAUNCH(name, (config), (args))
 *
 * so g++ can compile it against the emulator. Everything else, newlines
 * included, is copied as it is, so the compiler's line numbers stay right.
 * Comments and string literals are copied untouched.
 *
 * usage: rewrite IN.cu OUT.cpp
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
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
static size_t skip_opaque(const char *s, size_t i, size_t n)
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

/* Index of the parenthesis that closes the one at i, or n. */
static size_t matching(const char *s, size_t i, size_t n)
{
    int depth = 0;
    while (i < n) {
        size_t j = skip_opaque(s, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i;
        i++;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: rewrite IN.cu OUT.cpp\n");
        return 2;
    }
    size_t n;
    char *s = slurp(argv[1], &n);
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    fprintf(out, "#line 1 \"%s\"\n", argv[1]);
    size_t i = 0, copied = 0;
    while (i < n) {
        size_t j = skip_opaque(s, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (strncmp(s + i, "extern __shared__", 17) == 0) {
            fprintf(stderr, "%s: dynamic shared memory (extern __shared__) is not supported by the "
                            "tilelab CPU emulator: declare the array with its size, or run this "
                            "lab on a GPU\n", argv[1]);
            return 1;
        }
        if (strncmp(s + i, "<<<", 3) != 0) {
            i++;
            continue;
        }
        /* The kernel's name ends just before <<<, after optional spaces. */
        size_t name_end = i;
        while (name_end > copied && isspace((unsigned char)s[name_end - 1]))
            name_end--;
        size_t name = name_end;
        while (name > copied && (isalnum((unsigned char)s[name - 1]) || s[name - 1] == '_' ||
                                 s[name - 1] == ':'))
            name--;
        const char *close = strstr(s + i + 3, ">>>");
        size_t open = close ? (size_t)(close - s) + 3 : n;
        while (open < n && isspace((unsigned char)s[open]))
            open++;
        if (name == name_end || !close || open >= n || s[open] != '(') {
            fprintf(stderr, "%s: a <<< that the emulator cannot read: write launches as "
                            "kernel<<<grid, block>>>(arguments);\n", argv[1]);
            return 1;
        }
        size_t end = matching(s, open, n);
        if (end == n) {
            fprintf(stderr, "%s: a launch whose arguments never close\n", argv[1]);
            return 1;
        }
        fwrite(s + copied, 1, name - copied, out);
        fprintf(out, "TL_LAUNCH(%.*s, (%.*s), ", (int)(name_end - name), s + name,
                (int)(close - (s + i + 3)), s + i + 3);
        fwrite(s + open, 1, end + 1 - open, out);
        fputc(')', out);
        copied = i = end + 1;
    }
    fwrite(s + copied, 1, n - copied, out);
    fclose(out);
    free(s);
    return 0;
}
