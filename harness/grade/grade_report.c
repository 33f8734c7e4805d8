/*
 * grade-report WEIGHTS OUTCOMES OUT_DIR NAME
 * grade-report gradebook WEIGHTS GRADEBOOK.csv NAME DIR [NAME DIR ...]
 *
 * The one place where points are computed. WEIGHTS is labs/grading.conf;
 * OUTCOMES is what the grader saw, one tab-separated record a line, and no
 * points in it:
 *
 *   note  TEXT                                   said at the top of the summary
 *   lab   LAB  missing|build  OUTPUT             the whole lab lost: not handed in, did not build
 *   test  LAB  KIND  SUITE/TEST  VERDICT  OUTPUT KIND from the suite's manifest (correctness,
 *                                                random, technique, held-back); VERDICT pass,
 *                                                fail or skip
 *   perf  LAB  METHOD  STUDENT  REFERENCE  BASELINE  OUTPUT
 *                                                the raw files of one measurement (see
 *                                                grade_measure.h); METHOD none: OUTPUT says why
 *
 * A lab of LAB_SPEC (in the environment, as grade.sh has it: NN:folder:
 * file:kind:operation each) that WEIGHTS gives no line takes WEIGHTS'
 * default for its kind and operation ("default gpu/matmul ..." before
 * "default gpu ..."), and the summary says so: a lab added to labs/labs.mk
 * alone is graded, never skipped. A lab with neither stops the report.
 *
 * Writes OUT_DIR/results.json (Gradescope's format), junit.xml, summary.txt
 * for people and scores.tsv (lab, score, max) for the gradebook, which the
 * second form writes from each hand-in's scores.tsv. Its last column, status,
 * is "graded", or says why a hand-in has no scores: a run that failed or ran
 * out of time is never a row of zeros, which an honest hand-in can earn.
 * DIR/status.txt gives that reason where a scheduler knows it (grade-slurm.sh).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_measure.h"
#include "grade_text.h"

#define MAX_ITEMS 4096
#define MAX_LABS 100
#define MAX_NOTES 32
#define OUTPUT_MAX (64L << 10)

typedef struct {
    int present;
    double correctness, technique, performance, zero_at, full_at;
} weights;

typedef struct {
    int lab;
    const char *part; /* correctness, technique, performance */
    char title[300];
    double score, max;
    int hidden, skipped;
    char *output;
} item;

static weights lab_weights[MAX_LABS];
/* The share of a lab's correctness tests that must pass before its technique
 * tests count ("technique_needs" in WEIGHTS): a kernel that fails most of
 * them shows no technique, however it is built. */
static double technique_needs = 0.75;
static int lab_order[MAX_LABS], n_labs;
static item items[MAX_ITEMS];
static int n_items;
static char *notes[MAX_NOTES];
static int n_notes;

/* "default KIND[/OPERATION] ...": the points of a lab that has no line. */
#define MAX_DEFAULTS 32
static struct {
    char what[64];
    weights w;
} defaults[MAX_DEFAULTS];
static int n_defaults;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "grade-report: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

static void read_weights(const char *path)
{
    char line[512];
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read the points", path);
    while (fgets(line, sizeof line, f)) {
        weights w = {1, 0, 0, 0, 0, 0};
        char what[64];
        int lab;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "technique_needs %lf", &technique_needs) == 1) {
            if (technique_needs < 0 || technique_needs > 1)
                die("technique_needs is a share of the correctness tests, from 0 to 1", line);
            continue;
        }
        if (sscanf(line, "default %63s %lf %lf %lf %lf %lf", what, &w.correctness, &w.technique,
                   &w.performance, &w.zero_at, &w.full_at) == 6) {
            if (n_defaults == MAX_DEFAULTS || w.full_at <= w.zero_at)
                die("a default line of the points is out of range (full_at above zero_at)", line);
            snprintf(defaults[n_defaults].what, sizeof defaults[n_defaults].what, "%s", what);
            defaults[n_defaults++].w = w;
            continue;
        }
        if (sscanf(line, "%d %lf %lf %lf %lf %lf", &lab, &w.correctness, &w.technique,
                   &w.performance, &w.zero_at, &w.full_at) != 6)
            continue;
        if (lab < 0 || lab >= MAX_LABS || w.full_at <= w.zero_at)
            die("a line of the points is out of range (lab 0-99, full_at above zero_at)", line);
        if (!lab_weights[lab].present)
            lab_order[n_labs++] = lab;
        lab_weights[lab] = w;
    }
    fclose(f);
}

/* The default for KIND/OP: that one's line, else KIND's, else NULL. */
static const weights *default_for(const char *kind, const char *op)
{
    char both[160];
    snprintf(both, sizeof both, "%s/%s", kind, op);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n_defaults; i++)
            if (!strcmp(defaults[i].what, pass ? kind : both))
                return &defaults[i].w;
    return NULL;
}

/* Every lab of LAB_SPEC gets points: its own line, or its kind's default,
   said in a note (NOTES) and on stderr. */
static void default_labs(const char *weights_path, int notes_too)
{
    const char *spec = getenv("LAB_SPEC"), *shown = weights_path;
    size_t len = strlen(weights_path), tail = strlen("labs/grading.conf");
    if (len >= tail && !strcmp(weights_path + len - tail, "labs/grading.conf"))
        shown = weights_path + len - tail; /* the kit's own: said as the student kit names it */
    char *copy = strdup(spec ? spec : ""), *save = NULL;
    for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        char *field[5] = {0}, *p = t, note[512];
        int n = 0;
        while (n < 5) {
            field[n++] = p;
            if (!(p = strchr(p, ':')))
                break;
            *p++ = '\0';
        }
        int lab = atoi(field[0]);
        if (n != 5 || lab < 0 || lab >= MAX_LABS)
            die("LAB_SPEC holds something other than NN:folder:file:kind:operation", t);
        if (lab_weights[lab].present)
            continue;
        const weights *w = default_for(field[3], field[4]);
        if (!w) {
            snprintf(note, sizeof note,
                     "lab %d (%s, %s %s) has no line in %s and no default line for its kind "
                     "(default %s/%s or default %s): add one",
                     lab, field[1], field[3], field[4], shown, field[3], field[4], field[3]);
            die(note, NULL);
        }
        lab_weights[lab] = *w;
        lab_order[n_labs++] = lab;
        snprintf(note, sizeof note,
                 "NOTE: lab %d has no line in %s: graded with the default points of a %s %s "
                 "lab (correctness %g, technique %g, performance %g from ratio %.2f to %.2f); "
                 "a line there sets its own.",
                 lab, shown, field[3], field[4], w->correctness, w->technique, w->performance,
                 w->zero_at, w->full_at);
        if (notes_too) {
            fprintf(stderr, "grade-report: %s\n", note);
            if (n_notes < MAX_NOTES)
                notes[n_notes++] = strdup(note);
        }
    }
    free(copy);
}

static item *add(int lab, const char *part, double score, double max, const char *title,
                 char *output)
{
    if (n_items == MAX_ITEMS)
        die("too many graded items", NULL);
    item *it = &items[n_items++];
    memset(it, 0, sizeof *it);
    it->lab = lab;
    it->part = part;
    it->score = score;
    it->max = max;
    snprintf(it->title, sizeof it->title, "%s", title);
    it->output = output ? output : strdup("");
    return it;
}

/* The records of one lab, split into fields in place; read once per lab. */
typedef struct {
    char *field[8];
    int n;
} record;

static record *records;
static int n_records;

static void read_outcomes(const char *path)
{
    static char line[8192];
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot read the outcomes", path);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        record r = {{0}, 0};
        char *copy = strdup(line);
        for (char *p = copy; p && r.n < 8;) {
            r.field[r.n++] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (!strcmp(r.field[0], "note") && r.n == 2 && n_notes < MAX_NOTES) {
            notes[n_notes++] = r.field[1];
            continue;
        }
        records = realloc(records, (size_t)(n_records + 1) * sizeof *records);
        records[n_records++] = r;
    }
    fclose(f);
}

static int is(const record *r, const char *kind, int lab, int fields)
{
    return r->n == fields && !strcmp(r->field[0], kind) && atoi(r->field[1]) == lab;
}

static int correctness_kind(const char *kind)
{
    return !strcmp(kind, "correctness") || !strcmp(kind, "random") || !strcmp(kind, "held-back");
}

static char *text(const char *fmt, const char *a, const char *b)
{
    char *s = malloc(strlen(fmt) + strlen(a) + strlen(b) + 1);
    sprintf(s, fmt, a, b);
    return s;
}

/* A lab's performance line: a straight line from zero_at to full_at of the measured ratio,
 * once every correctness test passes (failing is how many did not, held_back how many of
 * those were held back). */
static void grade_performance(int lab, const weights *w, int failing, int held_back, const record *perf)
{
    char how[512], line[1024];
    double ratio;
    if (failing && failing == held_back) {
        snprintf(line, sizeof line, "not measured: performance counts once every correctness test "
                 "passes, held-back ones included, and %d held-back test%s did not", held_back,
                 held_back == 1 ? "" : "s");
        add(lab, "performance", 0, w->performance, "performance", strdup(line));
    } else if (failing) {
        add(lab, "performance", 0, w->performance, "performance",
            strdup("not measured: performance counts once every correctness test passes"));
    } else if (!perf) {
        add(lab, "performance", 0, w->performance, "performance",
            strdup("not measured: the grader recorded no measurement for this lab"));
    } else if (!strcmp(perf->field[2], "none")) {
        char *why = tl_slurp(perf->field[6], OUTPUT_MAX);
        add(lab, "performance", 0, w->performance, "performance",
            text("not measured: %s%s", why[0] ? why : "the measurement ended without saying why", ""));
        free(why);
    } else if (tl_measured_ratio(perf->field[2], perf->field[3], perf->field[4], perf->field[5],
                                 &ratio, how, sizeof how)) {
        char *log = tl_slurp(perf->field[6], OUTPUT_MAX);
        add(lab, "performance", 0, w->performance, "performance",
            text("not measured: %s\n%s", how, log));
        free(log);
    } else {
        double x = (ratio - w->zero_at) / (w->full_at - w->zero_at);
        x = x < 0 ? 0 : x > 1 ? 1 : x;
        snprintf(line, sizeof line, "ratio %.3f: %s; 0 points at %.2f, all at %.2f", ratio, how,
                 w->zero_at, w->full_at);
        add(lab, "performance", w->performance * x, w->performance, "performance", strdup(line));
    }
}

static void grade_lab(int lab)
{
    weights w = lab_weights[lab];
    int n_correct = 0, n_technique = 0, any = 0, failing = 0, held_back = 0, n_passed = 0;
    const record *lost = NULL, *perf = NULL;
    for (int i = 0; i < n_records; i++) {
        const record *r = &records[i];
        if (r->n < 2 || atoi(r->field[1]) != lab)
            continue;
        any = 1;
        if (is(r, "lab", lab, 4))
            lost = r;
        else if (is(r, "perf", lab, 7))
            perf = r;
        else if (is(r, "test", lab, 6)) {
            n_correct += correctness_kind(r->field[2]);
            n_passed += correctness_kind(r->field[2]) && !strcmp(r->field[4], "pass");
            n_technique += !strcmp(r->field[2], "technique");
        }
    }
    if (!any)
        return; /* not graded this time (make grade LABS=...) */
    if (lost) {
        char *why = tl_slurp(lost->field[3], OUTPUT_MAX);
        const char *what = !strcmp(lost->field[2], "missing") ? "hand-in" : "build";
        add(lab, "correctness", 0, w.correctness, what, why);
        if (w.technique > 0)
            add(lab, "technique", 0, w.technique, what,
                strdup("not graded: see this lab's correctness line"));
        if (w.performance > 0)
            add(lab, "performance", 0, w.performance, "performance",
                strdup("not measured: see this lab's correctness line"));
        return;
    }
    double correctness = w.correctness, technique = w.technique;
    if (n_technique == 0) { /* a lab without technique tests gives those points to correctness */
        correctness += technique;
        technique = 0;
    }
    for (int i = 0; i < n_records; i++) {
        const record *r = &records[i];
        if (!is(r, "test", lab, 6))
            continue;
        const char *kind = r->field[2], *id = r->field[3], *verdict = r->field[4];
        int tech = !strcmp(kind, "technique");
        double each = tech ? technique / n_technique : correctness / n_correct;
        int pass = !strcmp(verdict, "pass");
        const char *slash = strchr(id, '/');
        char title[300];
        snprintf(title, sizeof title, "%s%s", slash ? slash + 1 : id,
                 !strcmp(kind, "held-back") && !strchr(id, '(') ? " (held back)" : "");
        char *output = tl_slurp(r->field[5], OUTPUT_MAX);
        if (!pass && strstr(output, ": Timed out.") && !strstr(output, "was run again alone")) {
            /* Criterion's own limit, which says no more (a test run again alone says why itself) */
            char *longer = text("%s%s", output, "\n(the test ran past its time limit: an endless "
                                "loop, or far too slow? Time your lab file spends before the test "
                                "starts, in a constructor, counts too.)");
            free(output);
            output = longer;
        }
        if (tech && pass && n_passed < technique_needs * n_correct) {
            char gate[256];
            snprintf(gate, sizeof gate, "not counted: technique counts once %.0f %% of the lab's "
                     "correctness tests pass, and %d of %d do\n", 100 * technique_needs, n_passed, n_correct);
            char *gated = text("%s%s", gate, output);
            free(output);
            output = gated;
            pass = 0;
        }
        item *it = add(lab, tech ? "technique" : "correctness", pass ? each : 0, each, title, output);
        it->hidden = !strcmp(kind, "held-back");
        it->skipped = !strcmp(verdict, "skip");
        failing += !tech && !pass;
        held_back += !tech && !pass && it->hidden;
    }
    if (w.performance > 0)
        grade_performance(lab, &w, failing, held_back, perf);
}

static int passed(const item *it)
{
    return it->score >= it->max - 1e-9;
}

static FILE *create(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write", path);
    return f;
}

static void write_json(const char *dir, const char *header, double total)
{
    FILE *f = create(dir, "results.json");
    char title[400];
    fprintf(f, "{\n  \"score\": %.4f,\n  \"output\": ", total);
    size_t len = strlen(header) + 2;
    for (int i = 0; i < n_notes; i++)
        len += strlen(notes[i]) + 2;
    char *all = malloc(len);
    strcpy(all, header);
    for (int i = 0; i < n_notes; i++)
        strcat(strcat(all, "\n"), notes[i]);
    tl_json_string(f, all);
    free(all);
    fprintf(f, ",\n  \"tests\": [");
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        snprintf(title, sizeof title, "lab %d %s: %s", it->lab, it->part, it->title);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        tl_json_string(f, title);
        /* Six places, so that a lab's tests (11 of 8/11 points) add up to its points as shown. */
        fprintf(f, ", \"score\": %.6f, \"max_score\": %.6f, \"visibility\": \"%s\", \"output\": ",
                it->score, it->max, it->hidden ? "hidden" : "visible");
        tl_json_string(f, it->output);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
    fclose(f);
}

static void write_junit(const char *dir, const char *name)
{
    FILE *f = create(dir, "junit.xml");
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    tl_xml_text(f, name);
    fprintf(f, "\">\n");
    for (int k = 0; k < n_labs; k++) {
        int lab = lab_order[k], tests = 0, failures = 0;
        for (int i = 0; i < n_items; i++)
            if (items[i].lab == lab) {
                tests++;
                failures += !passed(&items[i]);
            }
        if (!tests)
            continue;
        fprintf(f, "  <testsuite name=\"lab%02d\" tests=\"%d\" failures=\"%d\">\n", lab, tests,
                failures);
        for (int i = 0; i < n_items; i++) {
            item *it = &items[i];
            if (it->lab != lab)
                continue;
            fprintf(f, "    <testcase classname=\"lab%02d.%s\" name=\"", lab, it->part);
            tl_xml_text(f, it->title);
            fprintf(f, "\">");
            if (!passed(it)) {
                fprintf(f, "\n      <failure message=\"%.2f of %.2f points\">", it->score, it->max);
                tl_xml_text(f, it->output);
                fprintf(f, "</failure>\n    ");
            }
            fprintf(f, "</testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    fclose(f);
}

static void write_summary(const char *dir, const char *header)
{
    static const char *parts[3] = {"correctness", "technique", "performance"};
    FILE *f = create(dir, "summary.txt");
    FILE *tsv = create(dir, "scores.tsv");
    tl_plain_text(f, header, "", 1);
    for (int i = 0; i < n_notes; i++)
        tl_plain_text(f, notes[i], "", 4);
    int skipped = 0;
    for (int i = 0; i < n_items; i++)
        skipped += items[i].skipped;
    if (skipped) {
        fprintf(f, "NOTE: %d test(s) did not run here (skipped), and score 0 until they do:\n",
                skipped);
        for (int i = 0; i < n_items; i++)
            if (items[i].skipped) {
                fprintf(f, "  lab %d %s\n", items[i].lab, items[i].title);
            }
    }
    fprintf(f, "\n%-6s %14s %14s %14s %14s\n", "lab", "correctness", "technique", "performance",
            "total");
    for (int k = 0; k < n_labs; k++) {
        int lab = lab_order[k], seen = 0;
        double part[3] = {0}, part_max[3] = {0}, score = 0, max = 0;
        for (int i = 0; i < n_items; i++) {
            if (items[i].lab != lab)
                continue;
            seen = 1;
            for (int p = 0; p < 3; p++)
                if (!strcmp(items[i].part, parts[p])) {
                    part[p] += items[i].score;
                    part_max[p] += items[i].max;
                }
            score += items[i].score;
            max += items[i].max;
        }
        if (!seen)
            continue;
        fprintf(f, "%-6d", lab);
        for (int p = 0; p < 3; p++)
            fprintf(f, " %6.2f / %5.2f", part[p], part_max[p]);
        fprintf(f, " %6.2f / %5.2f\n", score, max);
        fprintf(tsv, "%d\t%.6f\t%.6f\n", lab, score, max); /* unrounded: the gradebook sums them */
    }
    int lost = 0;
    for (int i = 0; i < n_items; i++)
        lost += !passed(&items[i]);
    fprintf(f, lost ? "\nWhat lost points (first lines of each):\n" : "\nNo points lost.\n");
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        if (passed(it))
            continue;
        fprintf(f, "\nlab %d %s: %s (%.2f of %.2f)%s%s\n", it->lab, it->part, it->title, it->score,
                it->max, it->hidden && !strstr(it->title, "held back") ? " [held back]" : "",
                it->skipped ? " [skipped]" : "");
        tl_plain_text(f, it->output, "    ", 8);
    }
    fclose(f);
    fclose(tsv);
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* One hand-in's scores.tsv: which labs it has, their scores and maxima. */
static int read_scores(const char *dir, int graded[], double score[], double max[])
{
    char path[4096], line[256];
    int any = 0;
    snprintf(path, sizeof path, "%s/scores.tsv", dir);
    FILE *s = fopen(path, "r");
    while (s && fgets(line, sizeof line, s)) {
        int lab;
        double sc, mx;
        if (sscanf(line, "%d %lf %lf", &lab, &sc, &mx) == 3 && lab >= 0 && lab < MAX_LABS)
            score[lab] = sc, max[lab] = mx, graded[lab] = 1, any = 1;
    }
    if (s)
        fclose(s);
    return any;
}

/* Why DIR has no scores, for the gradebook's status column. */
static void no_scores_reason(const char *name, const char *dir, char *why, size_t size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/status.txt", dir);
    FILE *s = fopen(path, "r");
    if (s && fgets(why, (int)size, s)) {
        why[strcspn(why, "\r\n")] = 0;
        fclose(s);
        if (*why)
            return;
    } else if (s) {
        fclose(s);
    }
    snprintf(why, size, "NOT GRADED: the grader stopped before scoring (see logs/%s.log)", name);
}

static int gradebook(int argc, char **argv)
{
    if (argc < 4 || argc % 2)
        die("usage: grade-report gradebook WEIGHTS GRADEBOOK.csv [NAME DIR]...", NULL);
    read_weights(argv[2]);
    default_labs(argv[2], 0);
    FILE *f = fopen(argv[3], "w");
    if (!f)
        die("cannot write", argv[3]);
    /* The columns: the labs that any hand-in was graded on, in grading.conf's
       order; a lab it has no line for (graded with a default) after them. */
    int column[MAX_LABS] = {0};
    double lab_max[MAX_LABS] = {0};
    for (int i = 4; i + 1 < argc; i += 2) {
        double score[MAX_LABS], max[MAX_LABS];
        int graded[MAX_LABS] = {0};
        read_scores(argv[i + 1], graded, score, max);
        for (int lab = 0; lab < MAX_LABS; lab++)
            if (graded[lab]) {
                column[lab] = 1;
                lab_max[lab] = max[lab] > lab_max[lab] ? max[lab] : lab_max[lab];
            }
    }
    for (int lab = 0; lab < MAX_LABS; lab++) {
        if (lab_weights[lab].present)
            lab_max[lab] = lab_weights[lab].correctness + lab_weights[lab].technique +
                           lab_weights[lab].performance;
        else if (column[lab])
            lab_order[n_labs++] = lab;
    }
    double column_max = 0;
    fprintf(f, "student");
    for (int k = 0; k < n_labs; k++)
        if (column[lab_order[k]]) {
            int lab = lab_order[k];
            fprintf(f, ",lab%d", lab);
            column_max += lab_max[lab];
        }
    fprintf(f, ",total,max,status\n");
    for (int i = 4; i + 1 < argc; i += 2) {
        double score[MAX_LABS] = {0}, max[MAX_LABS] = {0}, total = 0;
        int graded[MAX_LABS] = {0};
        csv_field(f, argv[i]);
        if (!read_scores(argv[i + 1], graded, score, max)) {
            /* Empty cells, not zeros: a spreadsheet's sums and averages leave them out. */
            char why[512];
            no_scores_reason(argv[i], argv[i + 1], why, sizeof why);
            fprintf(stderr, "grade-report: %s has no scores: %s\n", argv[i], why);
            for (int k = 0; k < n_labs; k++)
                if (column[lab_order[k]])
                    fputc(',', f);
            fprintf(f, ",,%.2f,", column_max);
            csv_field(f, why);
            fputc('\n', f);
            continue;
        }
        for (int k = 0; k < n_labs; k++) {
            int lab = lab_order[k];
            if (!column[lab])
                continue;
            fprintf(f, ",%.2f", score[lab]);
            total += score[lab];
        }
        /* What the grader flagged (grade.sh's flags.txt): a test that ran past its limit and
         * was run again alone, a rate refused as faster than the GPU. Said, for a look. */
        char path[4096], flag[512] = "";
        snprintf(path, sizeof path, "%s/flags.txt", argv[i + 1]);
        FILE *flags = fopen(path, "r");
        int timeouts = 0;
        while (flags && fgets(flag, sizeof flag, flags))
            timeouts++;
        if (flags)
            fclose(flags);
        fprintf(f, ",%.2f,%.2f,graded", total, column_max);
        if (timeouts)
            fprintf(f, " (flagged: %d finding%s to look at, flags.txt: a test that timed out and ran "
                    "again alone, a rate no GPU can give)", timeouts, timeouts == 1 ? "" : "s");
        fputc('\n', f);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "gradebook"))
        return gradebook(argc, argv);
    if (argc != 5) {
        fprintf(stderr, "usage: grade-report WEIGHTS OUTCOMES OUT_DIR NAME\n"
                        "       grade-report gradebook WEIGHTS GRADEBOOK.csv [NAME DIR]...\n");
        return 2;
    }
    const char *dir = argv[3], *name = argv[4];
    read_weights(argv[1]);
    read_outcomes(argv[2]);
    default_labs(argv[1], 1);
    for (int k = 0; k < n_labs; k++)
        grade_lab(lab_order[k]);
    double total = 0, total_max = 0;
    for (int i = 0; i < n_items; i++) {
        total += items[i].score;
        total_max += items[i].max;
    }
    char header[512];
    snprintf(header, sizeof header, "tilelab: %s, %.2f of %.2f points", name, total, total_max);
    write_json(dir, header, total);
    write_junit(dir, name);
    write_summary(dir, header);
    printf("%.2f of %.2f points: %s/summary.txt\n", total, total_max, dir);
    return 0;
}
