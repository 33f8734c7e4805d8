/*
 * emu-sass-widths SASS.txt SRC
 *
 * What nvcc makes of each memory access of a lab file, for the emulator's
 * counts: ncu counts instructions, and nvcc merges a thread's neighbouring
 * scalar accesses into one wider instruction (four floats of a row into one
 * STS.128 or LDS.128) wherever it can prove the alignment; ptxas does some
 * of it, so the PTX does not show it all, the SASS does.
 *
 * Reads `nvdisasm -g` of the file's cubin for sm_90 (compiled with
 * -lineinfo) and prints, for each line of SRC with global or shared loads
 * or stores, "LINE GL GS SL SS" (the kinds in sites.h's order): per kind
 * (global load, global store, shared load, shared store) the sizes in bytes
 * of its instructions, one bit each (4 | 16 = 20: LDS and LDS.128). Generic
 * LD/ST count for global and shared alike. emu-sites puts them in the
 * table the emulator reads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "line_widths.h"

/* //## File "/path/to/transpose.cu", line 42: whether the file is SRC's, and the line (the
 * last one the comment names, where it says where the line was inlined). 0 when it is no
 * such comment. */
static int file_comment(const char *text, const char *src, int *in_main, long *line)
{
    const char *p = text + strspn(text, " \t");
    if (strncmp(p, "//## File \"", 11) != 0)
        return 0;
    const char *file = p + 11, *end = strchr(file, '"'), *at = NULL;
    for (const char *q = file; (q = strstr(q, ", line ")) != NULL; q++)
        at = q;
    *line = at ? strtol(at + 7, NULL, 10) : strtol(file, NULL, 10);
    size_t len = end ? (size_t)(end - file) : strlen(file);
    char name[4096];
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), file);
    *in_main = tl_names_file_of(name, src);
    return 1;
}

/* The bytes an instruction's modifiers say it moves: 4 unless .128, .64, .U16/.S16 or
 * .U8/.S8 says otherwise (the last such one). */
static unsigned bytes_of(const char *modifiers)
{
    unsigned bytes = 4;
    char copy[128];
    snprintf(copy, sizeof copy, "%s", modifiers);
    for (char *m = strtok(copy, "."); m; m = strtok(NULL, "."))
        if (strcmp(m, "128") == 0)
            bytes = 16;
        else if (strcmp(m, "64") == 0)
            bytes = 8;
        else if (strcmp(m, "U16") == 0 || strcmp(m, "S16") == 0)
            bytes = 2;
        else if (strcmp(m, "U8") == 0 || strcmp(m, "S8") == 0)
            bytes = 1;
    return bytes;
}

/* The kinds an opcode loads or stores, one bit each (1 << TL_SITE_...); 0 for the rest. */
static unsigned kinds_of(const char *op, size_t len)
{
    static const struct {
        const char *op;
        unsigned kinds;
    } ops[] = {
        {"LDG", 1u << TL_SITE_GLOBAL_LOAD},
        {"STG", 1u << TL_SITE_GLOBAL_STORE},
        {"LDS", 1u << TL_SITE_SHARED_LOAD},
        {"STS", 1u << TL_SITE_SHARED_STORE},
        {"LD", 1u << TL_SITE_GLOBAL_LOAD | 1u << TL_SITE_SHARED_LOAD},
        {"ST", 1u << TL_SITE_GLOBAL_STORE | 1u << TL_SITE_SHARED_STORE},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (strlen(ops[i].op) == len && strncmp(ops[i].op, op, len) == 0)
            return ops[i].kinds;
    return 0;
}

/* An instruction's opcode with its modifiers (LDS.U.128), after its address and any
 * predicate: "        /" "*0460*" "/  @!P1 LDS.U.128 R8, [R17+0x10] ;". NULL where the line
 * holds no instruction. */
static const char *instruction(const char *text, char *opcode, size_t len)
{
    const char *p = text + strspn(text, " \t");
    if (strncmp(p, "/*", 2) != 0)
        return NULL;
    size_t hex = strspn(p + 2, "0123456789abcdef");
    if (hex == 0 || strncmp(p + 2 + hex, "*/", 2) != 0)
        return NULL;
    p += 2 + hex + 2;
    for (int word = 0; word < 2; word++) {
        p += strspn(p, " \t\n");
        size_t n = strcspn(p, " \t\n");
        if (word == 0 && *p == '@') {
            p += n;
            continue;
        }
        snprintf(opcode, len, "%.*s", (int)n, p);
        return opcode;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: emu-sass-widths SASS.txt SRC\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    const char *src = argv[2];
    tl_line_widths *lines = NULL;
    size_t n = 0, cap = 0;
    int in_main = 0;
    long line = 0;
    char *text = NULL, opcode[128];
    size_t len = 0;
    while (getline(&text, &len, in) > 0) {
        if (file_comment(text, src, &in_main, &line) || !in_main || !instruction(text, opcode, sizeof opcode))
            continue;
        size_t op_len = strcspn(opcode, ".");
        unsigned kinds = kinds_of(opcode, op_len), bytes = bytes_of(opcode + op_len);
        if (!kinds)
            continue;
        size_t i = 0;
        while (i < n && lines[i].line != line)
            i++;
        if (i == n) {
            if (n == cap && !(lines = realloc(lines, (cap = cap ? 2 * cap : 64) * sizeof *lines))) {
                perror("emu-sass-widths");
                return 1;
            }
            lines[n++] = (tl_line_widths){.line = line};
        }
        for (int k = 0; k < TL_SITE_KINDS; k++)
            if (kinds & 1u << k)
                lines[i].widths[k] |= bytes;
    }
    free(text);
    fclose(in);
    /* By line, for a reader (and a test) that compares them as text. */
    for (size_t a = 1; a < n; a++)
        for (size_t b = a; b > 0 && lines[b - 1].line > lines[b].line; b--) {
            tl_line_widths t = lines[b];
            lines[b] = lines[b - 1], lines[b - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        tl_line_widths_write(stdout, &lines[i]);
    return ferror(stdout) ? 1 : 0;
}
