/*
 * The bench's report of one size: a table for people, with each line's
 * spread and notes on noise, a CSV row per measured variant for the
 * figures, and a record of every variant asked for, timed or not, for the
 * grader (bench.h). Any subset of the variants may have run.
 */
#include "bench.h"

#include <string.h>

/* Giga-units (bytes or operations) per second. */
static double rate(tl_shape s, const tl_result *r)
{
    const char *unit;
    return r && r->measured ? tl_bench_work(s, &unit) / r->stats.median / 1e9 : 0;
}

static const tl_result *find(const tl_result *r, int n, const char *variant)
{
    for (int i = 0; i < n; i++)
        if (r[i].variant && strcmp(r[i].variant->name, variant) == 0 && r[i].measured)
            return &r[i];
    return NULL;
}

/* A row of the table: the rate, its share of the ceiling, the ratio to the reference, the spread. */
static void table_row(FILE *table, const char *size, tl_shape s, const tl_result *r,
                      const tl_result *ceiling, const tl_result *ref)
{
    char share[16] = "-", vs_ref[16] = "-";
    if (!r->measured) {
        fprintf(table, "%-16s %-10s   %s\n", size, r->variant->name, r->note);
        return;
    }
    if (ceiling)
        snprintf(share, sizeof share, "%.0f %%", 100 * rate(s, r) / rate(s, ceiling));
    if (ref)
        snprintf(vs_ref, sizeof vs_ref, "%.2fx", rate(s, r) / rate(s, ref));
    fprintf(table, "%-16s %-10s %10.3f %9.1f %10s %9s   +-%.0f %%\n", size, r->variant->name,
            r->stats.median * 1e3, rate(s, r), share, vs_ref, 50 * tl_stats_spread(&r->stats));
}

/* What the reader should know about the numbers of one size: noise they are within. A
 * ratio of two lines is as uncertain as both together: give or take the sum of the two
 * spreads the table prints (+-X %). When that range holds 1, the ratio says nothing. */
static void table_notes(FILE *table, const tl_result *r, int n)
{
    const tl_result *ceiling = r[0].measured ? &r[0] : NULL;
    if (ceiling && (tl_stats_spread(&ceiling->stats) > 0.1 || ceiling->stats.max > 2 * ceiling->stats.min))
        fprintf(table, "%16s note: %s took %.3f to %.3f ms: a busy machine or changing clocks; the"
                " shares at this size are unreliable, run again\n", "", ceiling->variant->name,
                ceiling->stats.min * 1e3, ceiling->stats.max * 1e3);
    for (int i = 0; i < n; i++) {
        const tl_result *ref = r[i].variant && r[i].measured ? find(r, n, r[i].variant->vs) : NULL;
        if (!ref || ref == &r[i] || &r[i] == ceiling)
            continue;
        double ratio = ref->stats.median / r[i].stats.median;
        double spread = 0.5 * (tl_stats_spread(&r[i].stats) + tl_stats_spread(&ref->stats));
        if (ratio * (1 - spread) <= 1 && 1 <= ratio * (1 + spread))
            fprintf(table, "%16s note: %s %.2fx %s, +-%.0f %% (both spreads): that covers 1.00x, no"
                    " measurable difference: noise, not a difference (more runs: REPS=)\n", "",
                    r[i].variant->name, ratio, ref->variant->name, 100 * spread);
    }
}

/* A record's row: every variant asked for, and what became of it (bench.h). */
static void record_row(FILE *record, int lab, tl_shape s, const tl_result *r, const tl_result *ref,
                       const char *unit)
{
    char rate_text[32] = "", ratio[32] = "";
    if (r->measured)
        snprintf(rate_text, sizeof rate_text, "%.4f", rate(s, r));
    if (r->measured && ref)
        snprintf(ratio, sizeof ratio, "%.4f", rate(s, r) / rate(s, ref));
    fprintf(record, "%d\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t", lab, r->variant->name,
            r->variant->role, s.rows, s.cols, s.depth,
            r->measured ? "timed" : r->refused ? "refused" : "untimed", rate_text, unit, ratio);
    /* One line a row, whatever the note holds. */
    for (const char *p = r->measured ? "" : r->note; *p; p++)
        fputc(*p == '\t' || *p == '\n' ? ' ' : *p, record);
    fputc('\n', record);
}

void tl_bench_report(const tl_bench_out *out, int lab, int dims, const char *tag, tl_shape s,
                     const tl_result *r, int n)
{
    const char *unit;
    const tl_result *ceiling = r[0].measured ? &r[0] : NULL;
    char size[48];
    int first = 1;
    tl_bench_work(s, &unit);
    if (dims == 3)
        snprintf(size, sizeof size, "%dx%dx%d", s.rows, s.cols, s.depth);
    else
        snprintf(size, sizeof size, "%dx%d", s.rows, s.cols);
    for (int i = 0; i < n; i++) {
        if (!r[i].variant)
            continue;
        const tl_result *ref = find(r, n, r[i].variant->vs);
        if (out->table)
            table_row(out->table, first ? size : "", s, &r[i], ceiling, ref);
        first = 0;
        if (out->csv && r[i].measured)
            fprintf(out->csv, "%d,%s,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.4f,%s,%.4f,%.4f,%s,%.9g,%.9g,%s,%s\n",
                    lab, r[i].variant->name, s.rows, s.cols, s.depth, r[i].stats.n,
                    r[i].stats.median, r[i].stats.min, r[i].stats.max, rate(s, &r[i]), unit,
                    ceiling ? rate(s, &r[i]) / rate(s, ceiling) : 0,
                    ref ? rate(s, &r[i]) / rate(s, ref) : 0, tag, r[i].stats.q1, r[i].stats.q3,
                    r[i].variant->label, r[i].variant->role);
        if (out->record)
            record_row(out->record, lab, s, &r[i], ref, unit);
    }
    if (out->table)
        table_notes(out->table, r, n);
}

void tl_bench_refuse(tl_shape s, tl_result *r, int n, double bound, const char *how)
{
    for (int i = 0; bound > 0 && i < n; i++) {
        if (!r[i].variant || !r[i].measured ||
            (strcmp(r[i].variant->role, "student") && strcmp(r[i].variant->role, "reference")))
            continue;
        const char *unit;
        double work = tl_bench_work(s, &unit), rate = work / r[i].stats.median / 1e9;
        if (rate > bound) {
            r[i].measured = 0;
            r[i].refused = 1;
            snprintf(r[i].note, sizeof r[i].note, "REFUSED, faster than this GPU can go: %.0f %s, above %s",
                     rate, unit, how);
        }
    }
}
