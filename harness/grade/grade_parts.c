/* A suite run's output, cut into each test's part as it comes (grade_parts.h). */
#include "grade_parts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_BYTES 2048 /* a longer line is taken in pieces of this size */
#define LAB_SAID "[lab process] " /* how the suite marks a line its lab process printed (lab_client.c) */

typedef struct {
    char *head, *tail;          /* the first bytes; the last, a ring */
    size_t head_len, tail_len, tail_start, cut;
} part;

struct tl_parts {
    const char *const *names;
    int n, running; /* the test that started last, or -1 */
    size_t half;    /* of keep: each of a part's two streams, its head and tail a half of that */
    part open, lab; /* what has come since the last end line: the suite's own lines, the lab process's */
    char **part_of; /* each test's, once it has ended (or the run has) */
    int *began, *ended, finished;
    char line[LINE_BYTES];
    size_t line_len;
    int continued; /* the line taken next goes on a longer one: never one of Criterion's */
    int lab_line;  /* ... and that line is the lab process's */
};

static void *room(size_t bytes)
{
    void *p = calloc(1, bytes);
    if (!p) {
        perror("grade-run");
        exit(1);
    }
    return p;
}

tl_parts *tl_parts_new(const char *const *names, int n, size_t keep)
{
    tl_parts *p = room(sizeof *p);
    p->names = names;
    p->n = n;
    p->running = -1;
    p->half = keep / 4 > 0 ? keep / 4 : 1;
    p->open.head = room(p->half);
    p->open.tail = room(p->half);
    p->lab.head = room(p->half);
    p->lab.tail = room(p->half);
    p->part_of = room((size_t)n * sizeof *p->part_of);
    p->began = room((size_t)n * sizeof *p->began);
    p->ended = room((size_t)n * sizeof *p->ended);
    return p;
}

/* The test whose name the line (len bytes, its newline left out) gives after tag, or -1. */
static int named(const tl_parts *p, const char *line, size_t len, const char *tag)
{
    size_t t = strlen(tag);
    if (len <= t || strncmp(line, tag, t))
        return -1;
    for (int k = 0; k < p->n; k++) {
        size_t n = strlen(p->names[k]);
        if (len >= t + n && !strncmp(line + t, p->names[k], n) &&
            (len == t + n || line[t + n] == ':' || line[t + n] == ' '))
            return k;
    }
    return -1;
}

/* Criterion's lines that say nothing of a test. */
static int chatter(const char *line, size_t len)
{
    static const char *said[] = {"[----] Criterion v", "[====] Running ", "[RUN ] ", "[====] Synthesis",
                                 "[----] Writing tap report"};
    for (size_t i = 0; i < sizeof said / sizeof *said; i++)
        if (len >= strlen(said[i]) && !strncmp(line, said[i], strlen(said[i])))
            return 1;
    return len > 18 && !strncmp(line, "[SKIP] ", 7) && !strncmp(line + len - 18, ": Test is disabled", 18);
}

static void keep_bytes(tl_parts *p, part *o, const char *bytes, size_t n)
{
    size_t to_head = o->head_len < p->half ? p->half - o->head_len : 0;
    to_head = to_head < n ? to_head : n;
    memcpy(o->head + o->head_len, bytes, to_head);
    o->head_len += to_head;
    for (size_t i = to_head; i < n; i++) {
        if (o->tail_len == p->half) { /* the oldest byte of the tail goes */
            o->tail_start = (o->tail_start + 1) % p->half;
            o->tail_len--;
            o->cut++;
        }
        o->tail[(o->tail_start + o->tail_len++) % p->half] = bytes[i];
    }
}

/* One stream of the open part as a string, and it fresh. */
static char *close_stream(tl_parts *p, part *o)
{
    char note[96] = "";
    size_t skip = 0, cut_head = 0; /* a cut tail starts at its first whole line */
    if (o->cut) {
        /* the head ends on a whole UTF-8 character: no lead byte without what follows it */
        size_t back = 0;
        while (back < 3 && back < o->head_len && ((unsigned char)o->head[o->head_len - 1 - back] & 0xC0) == 0x80)
            back++;
        unsigned char lead = back < o->head_len ? (unsigned char)o->head[o->head_len - 1 - back] : 0;
        size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (need > 1 && back + 1 < need)
            cut_head = back + 1;
        while (skip < o->tail_len && o->tail[(o->tail_start + skip) % p->half] != '\n')
            skip++;
        skip += skip < o->tail_len;
        snprintf(note, sizeof note, "\n[... %zu more bytes cut here]\n", o->cut + skip + cut_head);
    }
    char *s = room(o->head_len + strlen(note) + o->tail_len + 1), *at = s;
    memcpy(at, o->head, o->head_len - cut_head);
    at += o->head_len - cut_head;
    at += sprintf(at, "%s", note);
    for (size_t i = skip; i < o->tail_len; i++)
        *at++ = o->tail[(o->tail_start + i) % p->half];
    *at = '\0';
    o->head_len = o->tail_len = o->tail_start = o->cut = 0;
    return s;
}

/* The open part as a string, and a fresh one open: the suite's own lines (Criterion's, the
 * checks' diagnosis), then the lab process's, apart, so that what a lab prints never pushes
 * the diagnosis out of the first lines a summary shows. */
static char *close_part(tl_parts *p)
{
    char *own = close_stream(p, &p->open), *lab = close_stream(p, &p->lab);
    size_t n = strlen(own);
    char *s = room(n + strlen(lab) + 2);
    strcpy(s, own);
    if (*lab && n && own[n - 1] != '\n')
        strcat(s, "\n");
    strcat(s, lab);
    free(own);
    free(lab);
    return s;
}

/* One line of the output, its newline (if any) included. */
static void take_line(tl_parts *p, const char *line, size_t len)
{
    size_t text = len - (len && line[len - 1] == '\n');
    /* A piece of a longer line starts where LINE_BYTES fell, not where a line does: the
     * lab process's line "[lab process] AAA...[PASS] suite::test" is not an end line. */
    int inside = p->continued;
    p->continued = text == len;
    if (!inside)
        p->lab_line = len >= strlen(LAB_SAID) && !strncmp(line, LAB_SAID, strlen(LAB_SAID));
    if (inside || p->lab_line) {
        keep_bytes(p, p->lab_line ? &p->lab : &p->open, line, len);
        return;
    }
    int started = named(p, line, text, "[RUN ] "), ended = -1;
    if (started >= 0) {
        p->running = started;
        p->began[started] = 1;
    }
    static const char *ends[] = {"[PASS] ", "[FAIL] ", "[SKIP] "};
    for (int e = 0; e < 3 && ended < 0; e++)
        ended = named(p, line, text, ends[e]);
    if (ended >= 0 && p->ended[ended])
        ended = -1; /* a test ends once: a second such line is only output */
    if (!chatter(line, text))
        keep_bytes(p, &p->open, line, len);
    if (ended >= 0) {
        p->ended[ended] = 1;
        p->part_of[ended] = close_part(p);
    }
}

void tl_parts_feed(tl_parts *p, const char *bytes, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        p->line[p->line_len++] = bytes[i];
        if (bytes[i] == '\n' || p->line_len == LINE_BYTES) {
            take_line(p, p->line, p->line_len);
            p->line_len = 0;
        }
    }
}

const char *tl_parts_of(tl_parts *p, int k, int *began, int *ended)
{
    if (!p->finished) {
        p->finished = 1;
        if (p->line_len)
            take_line(p, p->line, p->line_len);
        if (p->running >= 0 && !p->ended[p->running]) { /* the run stopped as it ran */
            p->part_of[p->running] = close_part(p);
        } else if (p->open.head_len || p->lab.head_len) {
            /* What no test claims, said after the last end (or before any start: the suite
             * could not run at all): each test that never ended reads it. */
            char *rest = close_part(p);
            for (int t = 0; t < p->n; t++)
                if (!p->ended[t])
                    p->part_of[t] = rest;
        }
    }
    *began = p->began[k];
    *ended = p->ended[k];
    return p->part_of[k] ? p->part_of[k] : "";
}
