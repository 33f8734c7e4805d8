/*
 * grade-report [--path FROM=TO]... [--handed-in-as TEXT] WEIGHTS OUTCOMES OUT_DIR NAME
 * grade-report gradebook WEIGHTS GRADEBOOK.csv NAME HANDED DIR [NAME HANDED DIR ...]
 * grade-report points WEIGHTS
 *
 * The one place where points are computed. WEIGHTS is labs/grading.conf;
 * OUTCOMES is what the grader saw, one tab-separated record a line, and no
 * points in it:
 *
 *   note     TEXT                                said at the top of the summary
 *   warning  TEXT                                the same, and kept for the class's end report
 *   sandbox  NAME                                where the hand-in's code ran (bwrap, setpriv, none)
 *   handin   damaged|empty  OUTPUT               nothing graded: the archive is damaged, or
 *                                                holds no lab's file where the grader looks
 *   lab   LAB  missing|build|stub  OUTPUT        the whole lab lost: not handed in, did not
 *                                                build, or the kit's stub as it is
 *   test  LAB  KIND  SUITE/TEST  VERDICT  OUTPUT KIND from the suite's manifest (correctness,
 *                                                random, technique, held-back); VERDICT pass,
 *                                                fail or skip
 *   perf  LAB  METHOD  STUDENT  REFERENCE  BASELINE  OUTPUT
 *                                                the raw files of one measurement (see
 *                                                grade_measure.h); METHOD none: STUDENT is
 *                                                the reason as a word (grade_measured.c),
 *                                                OUTPUT says why
 *
 * A lab of the table of labs (LABS_TSV in the environment, the file
 * harness/tools/labs.c writes) that WEIGHTS gives no line takes WEIGHTS'
 * default for its kind and operation ("default gpu/matmul ..." before
 * "default gpu ..."), and the summary says so: a lab added to labs/labs.mk
 * alone is graded, never skipped. A lab with neither stops the report.
 *
 * Writes OUT_DIR/results.json (Gradescope's format; its extra_data holds the
 * status, the sandbox and each lab's state, and each performance test's its measurement: "measured" and the
 * ratio, or "not measured" and the reason as a word, perf_reasons), junit.xml, summary.txt for people and scores.tsv for the
 * gradebook (grade_scores.h), which the second form writes from each
 * hand-in's scores.tsv (grade_book.c). Every text shown has each --path FROM
 * (a folder of the grading machine) replaced by its TO, in the order given:
 * a student reads labs/03-gpu-naive/transpose.cu:41, never where it was graded.
 * --handed-in-as gives the hand-in's own file or folder name, from which NAME
 * was cleaned (two hand-ins may clean up to one name: handins.sh): the
 * summary and results.json say it beside NAME, so that each names its student.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_measure.h"
#include "grade_scores.h"
#include "grade_text.h"
#include "grade_weights.h"

#define MAX_ITEMS 4096
#define MAX_NOTES 32
#define MAX_PATHS 16
#define OUTPUT_MAX (64L << 10)

typedef struct {
    int lab;
    const char *part; /* correctness, technique, performance */
    char title[300];
    double score, max;
    int hidden, skipped;
    char *output;
    /* performance: whether it was measured, the ratio if so, the reason as a word if not */
    const char *measured, *reason;
    double ratio;
} item;

static item items[MAX_ITEMS];
static int n_items;
static char *notes[MAX_NOTES];
static int n_notes;
static char *warnings[MAX_NOTES];
static int n_warnings;

/* What became of each lab, and of the hand-in (grade_scores.h). */
static struct {
    enum lab_state state;
    char *why; /* one line: a stub's TODO(), a lost lab's reason */
} lab_info[MAX_LABS];
static const char *handin_kind; /* "damaged" or "empty" when nothing was graded */
static char *handin_why, *sandbox_name;
static const char *handed_in_as; /* --handed-in-as, or NULL */

/* The grading machine's folders, and what a student is shown instead (--path). */
static char *path_from[MAX_PATHS], *path_to[MAX_PATHS];
static int n_paths;

/* Text as it is shown: no folder of the grading machine in it. */
static char *shown(char *s)
{
    return tl_replace_all(s, n_paths, path_from, path_to);
}

/* The note as it is shown, or NULL when there are too many to keep. */
static char *add_note(const char *text)
{
    return n_notes < MAX_NOTES ? (notes[n_notes++] = shown(strdup(text))) : NULL;
}

static void default_note(const char *text)
{
    add_note(text);
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
    it->output = shown(output ? output : strdup(""));
    return it;
}

/* The records of one lab, split into fields in place; read once per lab. */
typedef struct {
    char *field[8];
    int n;
} record;

static record *records;
static int n_records;

/* s cut at its first line break; s itself. */
static char *first_line(char *s)
{
    s[strcspn(s, "\n")] = '\0';
    return s;
}

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
        if ((!strcmp(r.field[0], "note") || !strcmp(r.field[0], "warning")) && r.n == 2) {
            char *note = add_note(r.field[1]);
            if (note && r.field[0][0] == 'w' && n_warnings < MAX_NOTES)
                warnings[n_warnings++] = note;
            free(copy);
            continue;
        }
        if (!strcmp(r.field[0], "sandbox") && r.n == 2) {
            sandbox_name = r.field[1];
            continue;
        }
        if (!strcmp(r.field[0], "handin") && r.n == 3) {
            handin_kind = r.field[1];
            handin_why = first_line(shown(tl_slurp(r.field[2], OUTPUT_MAX)));
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

/* The hand-in's output folder (main's OUT_DIR), where flags.txt holds what the grader
 * flagged for a look, a finding a line (grade.sh writes it too; grade_book.c reads it). */
static const char *out_dir;

static void flag(int lab, const char *what)
{
    char path[4096], line[512], seen[512];
    snprintf(path, sizeof path, "%s/flags.txt", out_dir);
    snprintf(line, sizeof line, "lab %d: %s\n", lab, what);
    /* once, however many times the report is written (grade.sh's PERF=only pass writes it again) */
    FILE *f = fopen(path, "r");
    if (f) {
        int found = 0;
        while (!found && fgets(seen, sizeof seen, f))
            found = !strcmp(seen, line);
        fclose(f);
        if (found)
            return;
    }
    if ((f = fopen(path, "a"))) {
        fputs(line, f);
        fclose(f);
    }
}

/* A lab's performance line: a straight line from zero_at to full_at of the measured ratio,
 * once every correctness test passes (failing is how many did not, held_back how many of
 * those were held back). */
/* Why a lab's performance was not measured, as results.json says it: the grader's
 * reasons (grade_measured.h's) and the report's own. */
static const char *const perf_reasons[] = {
    /* the report's own */
    "lab-lost", "correctness-failing", "held-back-failing", "not-recorded", "refused-measurement", "not-timed",
    "no-ratio",
    /* the grader's (grade_measured.h) */
    "build", "setup", "disk-quota", "forbidden-call", "refused", "run-failed", "ended-early", "wrong-result"};

/* The grader's reason as results.json gives it: one of perf_reasons, or "no-ratio" (the
 * measurement's files gave none, and the output says why). */
static const char *perf_reason(const char *word)
{
    for (size_t i = 0; i < sizeof perf_reasons / sizeof *perf_reasons; i++)
        if (!strcmp(word, perf_reasons[i]))
            return perf_reasons[i];
    return "no-ratio";
}

static void unmeasured(int lab, const weights *w, const char *reason, char *output)
{
    item *it = add(lab, "performance", 0, w->performance, "performance", output);
    it->measured = "not measured";
    it->reason = reason;
}

static void grade_performance(int lab, const weights *w, int failing, int held_back, const record *perf)
{
    char how[1024], line[1536];
    double ratio;
    int measured;
    if (failing && failing == held_back) {
        snprintf(line, sizeof line, "not measured: performance counts once every correctness test "
                 "passes, held-back ones included, and %d held-back test%s did not", held_back,
                 held_back == 1 ? "" : "s");
        unmeasured(lab, w, "held-back-failing", strdup(line));
    } else if (failing) {
        unmeasured(lab, w, "correctness-failing",
                   strdup("not measured: performance counts once every correctness test passes"));
    } else if (!perf) {
        unmeasured(lab, w, "not-recorded", strdup("not measured: the grader recorded no measurement for this lab"));
    } else if (!strcmp(perf->field[2], "none")) {
        char *why = tl_slurp(perf->field[6], OUTPUT_MAX);
        unmeasured(lab, w, perf_reason(perf->field[3]),
                   text("not measured: %s%s", why[0] ? why : "the measurement ended without saying why", ""));
        free(why);
    } else if ((measured = tl_measured_ratio(perf->field[2], perf->field[3], perf->field[4], perf->field[5],
                                             &ratio, how, sizeof how)) > 0) {
        /* Not measured, for the reason said; a measurement no honest run gives (1) is
         * flagged for the instructor too. */
        unmeasured(lab, w, measured == 1 ? "refused-measurement" : "not-timed", text("not measured: %s%s", how, ""));
        if (measured == 1)
            flag(lab, tl_refusal(perf->field[2]));
    } else if (measured) {
        char *log = tl_slurp(perf->field[6], OUTPUT_MAX);
        unmeasured(lab, w, "no-ratio", text("not measured: %s\n%s", how, log));
        free(log);
    } else {
        double x = (ratio - w->zero_at) / (w->full_at - w->zero_at);
        x = x < 0 ? 0 : x > 1 ? 1 : x;
        snprintf(line, sizeof line, "ratio %.3f: %s; 0 points at %.2f, all at %.2f", ratio, how,
                 w->zero_at, w->full_at);
        item *it = add(lab, "performance", w->performance * x, w->performance, "performance", strdup(line));
        it->measured = "measured";
        it->ratio = ratio;
    }
}

/* A failed test's output says it ran out of time: Criterion's limit, grade-run's,
 * the lab's limit for all its tests (grade_tests.c), or the suite's own watch, which
 * stops a call that never returns (lab_client.c's CPU-time limit; on a GPU,
 * tests/tl_test.h's clock). */
static int timed_out(const char *output)
{
    return strstr(output, ": Timed out.") || strstr(output, "tilelab: stopped after ") ||
           strstr(output, "the tests of this lab ran past ") ||
           strstr(output, " did not return: it ran past ") || strstr(output, " did not answer: it ran past ") ||
           strstr(output, " did not return within ");
}

/* The line after TODO()'s "not implemented yet: " in a test's output (check.c and
 * gpu_technique.h write it), or NULL: the test reached the stub's TODO(). */
static char *todo_reached(const char *output)
{
    const char *mark = "not implemented yet: ", *at = strstr(output, mark);
    return at ? first_line(strdup(at + strlen(mark))) : NULL;
}

static void grade_lab(int lab)
{
    weights w = lab_weights[lab];
    int n_correct = 0, n_technique = 0, any = 0, failing = 0, held_back = 0, n_tests = 0, n_todo = 0,
        timeouts = 0, n_passed = 0;
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
        static const struct {
            const char *kind, *title;
            enum lab_state state;
        } lost_as[] = {{"missing", "hand-in", LAB_MISSING}, {"build", "build", LAB_BUILD},
                       {"stub", "stub", LAB_STUB}};
        int k = 0;
        while (k < 2 && strcmp(lost->field[2], lost_as[k].kind))
            k++;
        char *why = tl_slurp(lost->field[3], OUTPUT_MAX);
        lab_info[lab].state = lost_as[k].state;
        item *it = add(lab, "correctness", 0, w.correctness, lost_as[k].title, why);
        lab_info[lab].why = first_line(strdup(it->output));
        if (w.technique > 0)
            add(lab, "technique", 0, w.technique, lost_as[k].title,
                strdup("not graded: see this lab's correctness line"));
        if (w.performance > 0)
            unmeasured(lab, &w, "lab-lost", strdup("not measured: see this lab's correctness line"));
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
        int criterion_limit = !pass && strstr(output, ": Timed out.") && !strstr(output, "was run again alone");
        if (criterion_limit) { /* Criterion's own limit, which says no more */
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
        timeouts += !pass && timed_out(it->output);
        n_tests++;
        char *todo = pass ? NULL : todo_reached(it->output);
        if (todo) { /* each TODO() reached, once: lab 7's stub has two */
            n_todo++;
            char *why = lab_info[lab].why;
            if (!why || !strstr(why, todo)) {
                lab_info[lab].why = text("%s%s", why ? why : "", why ? "\n" : "");
                lab_info[lab].why = text("%s%s", lab_info[lab].why, todo);
            }
            free(todo);
        }
    }
    /* Every test stopped at the stub's TODO(): the lab is the stub, said once. */
    lab_info[lab].state = n_tests && n_todo == n_tests ? LAB_TODO : timeouts ? LAB_TIMEOUT : LAB_GRADED;
    if (w.performance > 0)
        grade_performance(lab, &w, failing, held_back, perf);
}

/* How the hand-in was graded (grade_scores.h), and its details: what became
 * of each lab that was not simply graded. */
static const char *handin_status(char *details, size_t size)
{
    static const enum lab_state listed[] = {LAB_BUILD, LAB_TIMEOUT, LAB_TODO, LAB_STUB, LAB_MISSING};
    int count[N_LAB_STATES] = {0}, labs = 0;
    size_t len = 0;
    details[0] = '\0';
    if (handin_kind) {
        snprintf(details, size, "%s", handin_why ? handin_why : "");
        return !strcmp(handin_kind, "damaged") ? STATUS_DAMAGED : STATUS_NOTHING;
    }
    for (int k = 0; k < n_labs; k++) {
        int lab = lab_order[k], seen = 0;
        for (int i = 0; i < n_items && !seen; i++)
            seen = items[i].lab == lab;
        if (seen) {
            count[lab_info[lab].state]++;
            labs++;
        }
    }
    /* "labs 8, 9: not handed in; lab 3: did not build" */
    for (size_t s = 0; s < sizeof listed / sizeof *listed; s++) {
        enum lab_state state = listed[s];
        if (!count[state])
            continue;
        len += (size_t)snprintf(details + len, len < size ? size - len : 0, "%slab%s", len ? "; " : "",
                                count[state] > 1 ? "s" : "");
        for (int k = 0, n = 0; k < n_labs; k++)
            if (lab_info[lab_order[k]].state == state && count[state] && ++n)
                len += (size_t)snprintf(details + len, len < size ? size - len : 0, "%s %d",
                                        n > 1 ? "," : "", lab_order[k]);
        len += (size_t)snprintf(details + len, len < size ? size - len : 0, ": %s",
                                lab_state_said[state]);
    }
    if (labs == count[LAB_MISSING])
        return STATUS_NOTHING;
    if (labs == count[LAB_MISSING] + count[LAB_STUB] + count[LAB_TODO])
        return STATUS_STUBS;
    return count[LAB_TIMEOUT] ? STATUS_TIMEOUT : count[LAB_BUILD] ? STATUS_BUILD : STATUS_GRADED;
}

/* A hand-in's report is kept under 1 MB (summary.txt, results.json, junit.xml,
 * scores.tsv), whatever its code prints: the outputs of its tests, cut at
 * 4000 bytes each by the grader, are cut further here when all of them
 * together would take more than these. */
#define JSON_BUDGET (480L << 10)   /* results.json */
#define XML_BUDGET (160L << 10)    /* junit.xml */
#define SUMMARY_OUTPUT_MAX 1000    /* bytes of one failure's output in summary.txt */
static const char cut_note[] = "\n[... the rest cut: a hand-in's report is kept under 1 MB]";
static const char summary_cut_note[] = "\n[... the rest cut: summary.txt keeps the first lines of "
                                       "each failure; results.json has more]";

/* The most bytes of each item's output that keeps the sum of what they take
 * (len) within budget, with a cut note each; every output whole when they fit. */
static size_t output_cap(size_t (*len)(const char *, size_t), long budget)
{
    size_t total = 0, lo = 0, hi = 0;
    budget -= (long)(n_items * 2 * sizeof cut_note);
    for (int i = 0; i < n_items; i++) {
        size_t n = strlen(items[i].output);
        total += len(items[i].output, n);
        hi = n > hi ? n : hi;
    }
    if (budget < 0)
        return 0;
    if (total <= (size_t)budget)
        return (size_t)-1;
    while (lo < hi) { /* the largest cap whose outputs fit */
        size_t mid = (lo + hi + 1) / 2, sum = 0;
        for (int i = 0; i < n_items; i++)
            sum += len(items[i].output, mid);
        if (sum <= (size_t)budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* s, or its first cap bytes (whole characters) and note, which says why it was cut. Free it. */
static char *capped(const char *s, size_t cap, const char *note)
{
    size_t n = tl_utf8_cut(s, cap);
    if (n == strlen(s))
        return strdup(s);
    char *c = malloc(n + strlen(note) + 1);
    memcpy(c, s, n);
    strcpy(c + n, note);
    return c;
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

/* How Gradescope shows held-back tests: HIDDEN_VISIBILITY, hidden by default. */
static const char *hidden_visibility(void)
{
    static const char *const allowed[] = {"hidden", "after_due_date", "after_published"};
    const char *v = getenv("HIDDEN_VISIBILITY");
    if (!v || !*v)
        return allowed[0];
    for (size_t k = 0; k < sizeof allowed / sizeof *allowed; k++)
        if (!strcmp(v, allowed[k]))
            return allowed[k];
    die("HIDDEN_VISIBILITY is hidden, after_due_date or after_published (Gradescope's words for a test "
        "students do not see now), not", v);
    return NULL;
}

static void write_json(const char *dir, const char *header, const char *status_line,
                       const char *status, const char *details, double total)
{
    FILE *f = create(dir, "results.json");
    char title[400];
    fprintf(f, "{\n  \"score\": %.4f,\n  \"output\": ", total);
    char handed[64 + 4096] = "";
    if (handed_in_as)
        snprintf(handed, sizeof handed, "\nhanded in as: %s", handed_in_as);
    size_t len = strlen(header) + strlen(handed) + strlen(status_line) + 3;
    for (int i = 0; i < n_notes; i++)
        len += strlen(notes[i]) + 2;
    char *all = malloc(len);
    strcat(strcat(strcat(strcpy(all, header), handed), "\n"), status_line);
    for (int i = 0; i < n_notes; i++)
        strcat(strcat(all, "\n"), notes[i]);
    tl_json_string(f, all);
    free(all);
    /* The status as fields, for whatever reads the results: the gradebook's words. */
    fprintf(f, ",\n  \"extra_data\": {\"status\": ");
    tl_json_string(f, status);
    if (handed_in_as) {
        fprintf(f, ", \"handed_in_as\": ");
        tl_json_string(f, handed_in_as);
    }
    fprintf(f, ", \"details\": ");
    tl_json_string(f, details);
    if (sandbox_name) { /* where the hand-in's code ran: bwrap, setpriv or none */
        fprintf(f, ", \"sandbox\": ");
        tl_json_string(f, sandbox_name);
    }
    fprintf(f, ", \"labs\": {");
    for (int k = 0, n = 0; k < n_labs; k++) {
        int lab = lab_order[k], seen = 0;
        for (int i = 0; i < n_items && !seen; i++)
            seen = items[i].lab == lab;
        if (seen)
            fprintf(f, "%s\"%d\": \"%s\"", n++ ? ", " : "", lab, lab_state_name[lab_info[lab].state]);
    }
    fprintf(f, "}}");
    fprintf(f, ",\n  \"tests\": [");
    size_t cap = output_cap(tl_json_length, JSON_BUDGET);
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        snprintf(title, sizeof title, "lab %d %s: %s", it->lab, it->part, it->title);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        tl_json_string(f, title);
        /* Six places, so that a lab's tests (11 of 8/11 points) add up to its points as shown. */
        fprintf(f, ", \"score\": %.6f, \"max_score\": %.6f, \"visibility\": \"%s\", \"output\": ",
                it->score, it->max, it->hidden ? hidden_visibility() : "visible");
        char *output = capped(it->output, cap, cut_note);
        tl_json_string(f, output);
        free(output);
        if (it->measured) {
            fprintf(f, ", \"extra_data\": {\"performance\": \"%s\"", it->measured);
            if (it->reason)
                fprintf(f, ", \"reason\": \"%s\"", it->reason);
            else
                fprintf(f, ", \"ratio\": %.6f", it->ratio);
            fprintf(f, "}");
        }
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
    size_t cap = output_cap(tl_xml_length, XML_BUDGET);
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
            /* A CI dashboard may be the students': a held-back case is named as summary.txt
             * names it, its shape, seed and output left to results.json (hidden). */
            fprintf(f, "    <testcase classname=\"lab%02d.%s\" name=\"", lab, it->part);
            tl_xml_text(f, it->hidden ? "a held-back case" : it->title);
            fprintf(f, "\">");
            if (!passed(it)) {
                fprintf(f, "\n      <failure message=\"%.2f of %.2f points\">", it->score, it->max);
                char *output = capped(it->hidden ? "" : it->output, cap, cut_note);
                tl_xml_text(f, output);
                free(output);
                fprintf(f, "</failure>\n    ");
            }
            fprintf(f, "</testcase>\n");
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    fclose(f);
}

/* The lines of text not in said[] (n_said of them), added there; *repeated counts the others. */
static char *unsaid_lines(const char *text, char ***said, int *n_said, int *repeated)
{
    /* Each line is written with its newline, the last one's too: one byte more than text. */
    char *out = malloc(strlen(text) + 2), *copy = strdup(text), *save = NULL;
    size_t len = 0;
    *repeated = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int k = 0;
        while (k < *n_said && strcmp((*said)[k], line))
            k++;
        if (k < *n_said) {
            ++*repeated;
            continue;
        }
        *said = realloc(*said, (size_t)(*n_said + 1) * sizeof **said);
        (*said)[(*n_said)++] = strdup(line);
        len += (size_t)sprintf(out + len, "%s\n", line);
    }
    out[len] = '\0';
    free(copy);
    return out;
}

static void write_summary(const char *dir, const char *header, const char *status_line,
                          const char *status, const char *details)
{
    static const char *parts[3] = {"correctness", "technique", "performance"};
    FILE *f = create(dir, "summary.txt");
    FILE *tsv = create(dir, "scores.tsv");
    tl_plain_text(f, header, "", 1);
    tl_plain_text(f, status_line, "", 1);
    if (handed_in_as) {
        fprintf(f, "handed in as: ");
        tl_plain_text(f, handed_in_as, "", 1);
    }
    fprintf(tsv, "status\t%s\t", status);
    tl_plain_text(tsv, details, "", 1);
    if (!details[0])
        fputc('\n', tsv);
    if (sandbox_name)
        fprintf(tsv, "sandbox\t%s\n", sandbox_name);
    for (int i = 0; i < n_warnings; i++) {
        fprintf(tsv, "warning\t");
        tl_plain_text(tsv, warnings[i], "", 1);
    }
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
    if (n_items)
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
        enum lab_state state = lab_info[lab].state;
        fprintf(f, "%-6d", lab);
        for (int p = 0; p < 3; p++)
            fprintf(f, " %6.2f / %5.2f", part[p], part_max[p]);
        /* Where nothing of the hand-in was graded, its labs may be there, in the wrong place:
         * not graded, the status above says why, never "not handed in". */
        fprintf(f, " %6.2f / %5.2f%s%s\n", score, max, state == LAB_GRADED ? "" : "  ",
                state == LAB_GRADED ? "" : handin_kind && state == LAB_MISSING ? "not graded" : lab_state_said[state]);
        fprintf(tsv, "%d\t%.6f\t%.6f\t%s\n", lab, score, max, lab_state_name[state]);
    }
    int lost = 0;
    for (int i = 0; i < n_items; i++)
        lost += !passed(&items[i]);
    if (handin_kind)
        fprintf(f, "\nNothing in the hand-in could be graded: the status above says why.\n");
    else if (n_items)
        fprintf(f, lost ? "\nWhat lost points (first lines of each):\n" : "\nNo points lost.\n");
    /* A lab lost whole, or still the stub, is one line; elsewhere, a line a
       failure of the lab already said is not said again. */
    for (int k = 0; k < n_labs; k++) {
        int lab = lab_order[k], n_said = 0, first = 1, repeated = 0;
        char **said = NULL;
        enum lab_state state = lab_info[lab].state;
        for (int i = 0; i < n_items; i++) {
            item *it = &items[i];
            if (it->lab != lab || passed(it))
                continue;
            if (!first && state != LAB_GRADED && state != LAB_TIMEOUT)
                continue; /* lost whole: its first line says why (a build's log) */
            if (state == LAB_MISSING && handin_kind)
                continue; /* the status says what the hand-in holds */
            if (state == LAB_STUB || state == LAB_TODO || state == LAB_MISSING) {
                if (first) { /* a stub's or a missing lab's why says what it is */
                    int lines = lab_info[lab].why && strchr(lab_info[lab].why, '\n');
                    fprintf(f, "\nlab %d: %s%s", lab, state == LAB_TODO ? lab_state_said[state] : "",
                            state != LAB_TODO ? "" : lines ? ":\n" : ": ");
                    tl_plain_text(f, lab_info[lab].why ? lab_info[lab].why : "", lines ? "    " : "", 8);
                }
                first = 0;
                continue;
            }
            first = 0;
            if (it->hidden) { /* summary.txt may go back to the student: nothing of the case */
                fprintf(f, "\nlab %d %s: a held-back case (%.2f of %.2f)\n    its shape, seed and "
                        "output are the instructor's: results.json has them (hidden from students)\n",
                        it->lab, it->part, it->score, it->max);
                continue;
            }
            fprintf(f, "\nlab %d %s: %s (%.2f of %.2f)%s\n", it->lab, it->part, it->title, it->score,
                    it->max, it->skipped ? " [skipped]" : "");
            int again;
            char *unsaid = unsaid_lines(it->output, &said, &n_said, &again), *cut = capped(unsaid, SUMMARY_OUTPUT_MAX, summary_cut_note);
            tl_plain_text(f, cut, "    ", 8);
            free(cut);
            free(unsaid);
            repeated += again;
        }
        if (repeated)
            fprintf(f, "\n(lab %d: %d line%s that an earlier failure of the lab said already not said again)\n", lab,
                    repeated, repeated == 1 ? "" : "s");
        for (int i = 0; i < n_said; i++)
            free(said[i]);
        free(said);
    }
    fclose(f);
    fclose(tsv);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "gradebook"))
        return gradebook(argc, argv);
    if (argc == 3 && !strcmp(argv[1], "points")) { /* the maximum of the labs of LABS_TSV */
        read_weights(argv[2]);
        default_labs(argv[2], NULL);
        printf("%g\n", table_points());
        return 0;
    }
    int a = 1;
    for (; a + 1 < argc && !strcmp(argv[a], "--path"); a += 2) {
        char *eq = strchr(argv[a + 1], '=');
        if (!eq || eq == argv[a + 1] || n_paths == MAX_PATHS)
            die("--path takes FROM=TO, a folder and what is shown for it", argv[a + 1]);
        path_from[n_paths] = strndup(argv[a + 1], (size_t)(eq - argv[a + 1]));
        path_to[n_paths++] = eq + 1;
    }
    if (a + 1 < argc && !strcmp(argv[a], "--handed-in-as")) {
        handed_in_as = argv[a + 1];
        a += 2;
    }
    if (argc - a != 4) {
        fprintf(stderr, "usage: grade-report [--path FROM=TO]... [--handed-in-as TEXT] WEIGHTS OUTCOMES OUT_DIR NAME\n"
                        "       grade-report gradebook WEIGHTS GRADEBOOK.csv [NAME HANDED DIR]...\n"
                        "       grade-report points WEIGHTS\n");
        return 2;
    }
    const char *dir = argv[a + 2], *name = argv[a + 3];
    out_dir = dir;
    read_weights(argv[a]);
    read_outcomes(argv[a + 1]);
    default_labs(argv[a], default_note);
    for (int k = 0; k < n_labs; k++)
        grade_lab(lab_order[k]);
    double total = 0, total_max = 0;
    for (int i = 0; i < n_items; i++) {
        total += items[i].score;
        total_max += items[i].max;
    }
    char header[512], details[2048], status_line[2200];
    const char *status = handin_status(details, sizeof details);
    snprintf(header, sizeof header, "tilelab: %s, %.2f of %.2f points", name, total, total_max);
    snprintf(status_line, sizeof status_line, "status: %s%s%s%s", status, details[0] ? " (" : "",
             details, details[0] ? ")" : "");
    write_json(dir, header, status_line, status, details, total);
    write_junit(dir, name);
    write_summary(dir, header, status_line, status, details);
    printf("%s: %s, %s: %s/summary.txt\n", name, strchr(header, ',') + 2, status_line + strlen("status: "),
           dir);
    fflush(stdout);
    return 0;
}
