/* Text from student code, made safe to show: see grade_text.h. */
#include "grade_text.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A valid UTF-8 character at p that ends within end, or 0. */
static int char_within(const unsigned char *p, const unsigned char *end)
{
    int n = utf8_char(p);
    return n && p + n <= end ? n : 0;
}

/* Puts (to f, unless it is NULL) and counts what s's first len bytes take. */
static size_t put(FILE *f, const char *s, size_t len)
{
    if (f)
        fputs(s, f);
    return len;
}

/* JSON string content for s's first n bytes (see tl_json_string), written to
 * f unless it is NULL; the bytes it takes. */
static size_t json_put(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    size_t len = 0;
    char esc[8];
    while (p < end && *p) {
        int k = char_within(p, end);
        if (k == 0) {
            len += put(f, "\\ufffd", 6);
            p++;
            continue;
        }
        if (k == 1) {
            if (*p == '"' || *p == '\\')
                snprintf(esc, sizeof esc, "\\%c", *p);
            else if (*p == '\n')
                snprintf(esc, sizeof esc, "\\n");
            else if (*p == '\t')
                snprintf(esc, sizeof esc, "\\t");
            else if (*p < 0x20 || *p == 0x7f)
                snprintf(esc, sizeof esc, "\\u%04x", *p);
            else
                snprintf(esc, sizeof esc, "%c", *p);
            len += put(f, esc, strlen(esc));
        } else if (is_c1(p, k)) {
            snprintf(esc, sizeof esc, "\\u%04x", p[1]);
            len += put(f, esc, 6);
        } else {
            if (f)
                fwrite(p, 1, (size_t)k, f);
            len += (size_t)k;
        }
        p += k;
    }
    return len;
}

void tl_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    json_put(f, s, strlen(s));
    fputc('"', f);
}

size_t tl_json_length(const char *s, size_t n)
{
    return json_put(NULL, s, n);
}

/* XML character data for s's first n bytes (see tl_xml_text), written to f
 * unless it is NULL; the bytes it takes. */
static size_t xml_put(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    size_t len = 0;
    while (p < end && *p) {
        int k = char_within(p, end);
        if (k == 0) {
            len += put(f, "\xEF\xBF\xBD", 3);
            p++;
            continue;
        }
        if (k == 1) {
            switch (*p) {
            case '<': len += put(f, "&lt;", 4); break;
            case '>': len += put(f, "&gt;", 4); break;
            case '&': len += put(f, "&amp;", 5); break;
            case '"': len += put(f, "&quot;", 6); break;
            default:
                if ((*p >= 0x20 && *p != 0x7f) || *p == '\n' || *p == '\t') {
                    if (f)
                        fputc(*p, f);
                    len++;
                }
            }
        } else if (!is_c1(p, k)) {
            if (f)
                fwrite(p, 1, (size_t)k, f);
            len += (size_t)k;
        }
        p += k;
    }
    return len;
}

void tl_xml_text(FILE *f, const char *s)
{
    xml_put(f, s, strlen(s));
}

size_t tl_xml_length(const char *s, size_t n)
{
    return xml_put(NULL, s, n);
}

size_t tl_utf8_cut(const char *s, size_t n)
{
    size_t len = strlen(s);
    if (n >= len)
        return len;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--; /* not inside a character */
    return n;
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

char *tl_replace_all(char *s, int n, char *const from[], char *const to[])
{
    size_t cap = strlen(s) + 1, len = 0;
    char *out = malloc(cap);
    if (!out)
        abort();
    for (const char *p = s; *p;) {
        int k = 0;
        while (k < n && (!*from[k] || strncmp(p, from[k], strlen(from[k]))))
            k++;
        const char *piece = k < n ? to[k] : p;
        size_t piece_len = k < n ? strlen(to[k]) : 1;
        if (len + piece_len + 1 > cap) {
            cap = 2 * cap + piece_len;
            if (!(out = realloc(out, cap)))
                abort();
        }
        memcpy(out + len, piece, piece_len);
        len += piece_len;
        p += k < n ? strlen(from[k]) : 1;
    }
    out[len] = '\0';
    free(s);
    return out;
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

int tl_copy_file(const char *from, const char *to, unsigned mode)
{
    int in = open(from, O_RDONLY | O_CLOEXEC), out = in < 0 ? -1 : open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    char chunk[1 << 16];
    ssize_t n = out < 0 ? -1 : 0;
    while (out >= 0 && (n = read(in, chunk, sizeof chunk)) > 0)
        if (write(out, chunk, (size_t)n) != n) {
            n = -1;
            break;
        }
    if (out >= 0 && close(out))
        n = -1;
    if (in >= 0)
        close(in);
    return n < 0 ? -1 : 0;
}
