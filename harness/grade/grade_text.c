/* Text from student code, made safe to show: see grade_text.h. */
#include "grade_text.h"

#include <stdlib.h>
#include <string.h>

/* The length of the valid UTF-8 character at p (1 to 4), or 0 if there is none. */
static int utf8_char(const unsigned char *p)
{
    int n;
    unsigned int c;
    if (p[0] < 0x80)
        return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        n = 2, c = p[0] & 0x1F;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        n = 3, c = p[0] & 0x0F;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        n = 4, c = p[0] & 0x07;
    else
        return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0; /* overlong, out of range, or a surrogate */
    return n;
}

/* C1 controls (U+0080..U+009F) are two bytes: C2 80..C2 9F. */
static int is_c1(const unsigned char *p, int n)
{
    return n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
}

void tl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_char(p);
        if (n == 0) {
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        if (n == 1) {
            if (*p == '"' || *p == '\\')
                fprintf(f, "\\%c", *p);
            else if (*p == '\n')
                fputs("\\n", f);
            else if (*p == '\t')
                fputs("\\t", f);
            else if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        } else if (is_c1(p, n)) {
            fprintf(f, "\\u%04x", p[1]);
        } else {
            fwrite(p, 1, (size_t)n, f);
        }
        p += n;
    }
    fputc('"', f);
}

void tl_xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = utf8_char(p);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", f);
            p++;
            continue;
        }
        if (n == 1) {
            switch (*p) {
            case '<': fputs("&lt;", f); break;
            case '>': fputs("&gt;", f); break;
            case '&': fputs("&amp;", f); break;
            case '"': fputs("&quot;", f); break;
            default:
                if ((*p >= 0x20 && *p != 0x7f) || *p == '\n' || *p == '\t')
                    fputc(*p, f);
            }
        } else if (!is_c1(p, n)) {
            fwrite(p, 1, (size_t)n, f);
        }
        p += n;
    }
}

/* The length of the terminal escape sequence at p (ESC included). */
static size_t escape_length(const unsigned char *p)
{
    size_t i = 1;
    if (p[1] == '[') { /* CSI: parameters, then one final byte */
        for (i = 2; p[i] && (p[i] < 0x40 || p[i] > 0x7e); i++)
            ;
        return p[i] ? i + 1 : i;
    }
    if (p[1] == ']') { /* OSC: up to BEL or ESC \ */
        for (i = 2; p[i] && p[i] != 0x07 && !(p[i] == 0x1b && p[i + 1] == '\\'); i++)
            ;
        return p[i] == 0x07 ? i + 1 : p[i] ? i + 2 : i;
    }
    return p[1] ? 2 : 1;
}

void tl_plain_text(FILE *f, const char *s, const char *indent, int max_lines)
{
    int lines = 0, at_start = 1;
    for (const unsigned char *p = (const unsigned char *)s; *p && lines < max_lines;) {
        if (*p == 0x1b) {
            p += escape_length(p);
            continue;
        }
        int n = utf8_char(p);
        if (at_start && *p != '\n') {
            fputs(indent, f);
            at_start = 0;
        }
        if (n == 0) {
            fputc('?', f);
            p++;
            continue;
        }
        if (n == 1) {
            if (*p == '\n') {
                if (at_start)
                    fputs(indent, f);
                fputc('\n', f);
                lines++;
                at_start = 1;
            } else if (*p == '\t') {
                fputc(' ', f);
            } else if (*p >= 0x20 && *p != 0x7f) {
                fputc(*p, f);
            }
        } else if (!is_c1(p, n)) {
            fwrite(p, 1, (size_t)n, f);
        }
        p += n;
    }
    if (!at_start)
        fputc('\n', f);
}

char *tl_slurp(const char *path, long max)
{
    FILE *f = path && *path ? fopen(path, "rb") : NULL;
    char *buf = malloc((size_t)max + 1);
    size_t got = 0;
    if (!buf)
        abort();
    if (f) {
        got = fread(buf, 1, (size_t)max, f);
        fclose(f);
    }
    buf[got] = '\0';
    /* A NUL inside would end the text early: show it as a space. */
    for (size_t i = 0; i < got; i++)
        if (!buf[i])
            buf[i] = ' ';
    return buf;
}
