/*
 * grade-report gradebook WEIGHTS GRADEBOOK.csv NAME HANDED DIR [NAME HANDED DIR ...]
 *
 * The class's gradebook, from each hand-in's DIR/scores.tsv (grade_scores.h):
 * one row per hand-in, its name, what it was handed in as (HANDED: its file's
 * or folder's own name, from which NAME was cleaned: two hand-ins may clean
 * up to one name, handins.sh, and this tells their rows apart), one column
 * per lab any of them was graded on, then the total, the maximum, the status
 * and its details. A lab not handed in is an
 * empty cell, never 0, as are all of a hand-in's cells when nothing of it was
 * graded: a spreadsheet's sums and averages leave them out. A hand-in with
 * no scores.tsv has the status its DIR/status.txt gives (a scheduler's word:
 * "STATUS<tab>DETAILS", grade-slurm.sh), or "not graded".
 *
 * Then the end report, printed and written beside the gradebook as
 * anomalies.txt: every hand-in that is not simply graded or whose grader
 * flagged something for a look (DIR/flags.txt, a finding a line), and what
 * the grading itself should have done otherwise (a sandbox other than
 * bubblewrap, a warning), each said once with how many hand-ins it touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_scores.h"
#include "grade_weights.h"

const char *const lab_state_name[N_LAB_STATES] = {"graded", "stub", "todo", "missing", "build failed",
                                                  "timed out"};
const char *const lab_state_said[N_LAB_STATES] = {
    "graded", "the kit's stub", "still the stub: its TODO() reached", "not handed in",
    "did not build", "timed out"};

#define MAX_WARNINGS 8
#define LINE_MAX_ 4096

typedef struct {
    char status[64], details[LINE_MAX_], sandbox[32];
    char *warnings[MAX_WARNINGS], *flags[MAX_WARNINGS];
    int n_warnings, n_flags, any_lab, has[MAX_LABS];
    enum lab_state state[MAX_LABS];
    double score[MAX_LABS], max[MAX_LABS];
} handin;

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

/*
 * A name as a student chose it (what a hand-in was handed in as), in a CSV field that
 * stays on its row and is read as text: a control character is '?', as the end report
 * shows it (a line break in a file's name once put "alice,100.00,..." at the start of a
 * line of the gradebook), and a leading = + - @ takes a ' before it, which a spreadsheet
 * reads as "text follows" (=HYPERLINK(...) was a formula there).
 */
static void csv_name_field(FILE *f, const char *s)
{
    char shown[4096];
    size_t n = 0;
    if (s[0] && strchr("=+-@", s[0]))
        shown[n++] = '\'';
    for (; *s && n < sizeof shown - 1; s++)
        shown[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    shown[n] = '\0';
    csv_field(f, shown);
}

/* "STATUS<tab>DETAILS" into h; a line without a tab is the details of "not graded". */
static void split_status(char *line, handin *h)
{
    line[strcspn(line, "\r\n")] = '\0';
    char *tab = strchr(line, '\t');
    if (tab)
        *tab = '\0';
    snprintf(h->status, sizeof h->status, "%.63s", tab && line[0] ? line : STATUS_NOT_GRADED);
    snprintf(h->details, sizeof h->details, "%s", tab ? tab + 1 : line);
}

/* One hand-in's scores.tsv, or why it has none. */
static void read_handin(const char *name, const char *dir, handin *h)
{
    char path[LINE_MAX_], line[LINE_MAX_];
    memset(h, 0, sizeof *h);
    snprintf(path, sizeof path, "%s/scores.tsv", dir);
    FILE *s = fopen(path, "r");
    while (s && fgets(line, sizeof line, s)) {
        int lab, n = 0;
        double sc, mx;
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, "status\t", 7)) {
            split_status(line + 7, h);
        } else if (!strncmp(line, "sandbox\t", 8)) {
            snprintf(h->sandbox, sizeof h->sandbox, "%.31s", line + 8);
        } else if (!strncmp(line, "warning\t", 8)) {
            if (h->n_warnings < MAX_WARNINGS)
                h->warnings[h->n_warnings++] = strdup(line + 8);
        } else if (sscanf(line, "%d %lf %lf%n", &lab, &sc, &mx, &n) == 3 && lab >= 0 && lab < MAX_LABS) {
            const char *state = line + n + strspn(line + n, "\t");
            h->has[lab] = 1, h->score[lab] = sc, h->max[lab] = mx, h->any_lab = 1;
            for (int k = 0; k < N_LAB_STATES; k++) /* a line without a state: graded */
                if (!strcmp(state, lab_state_name[k]))
                    h->state[lab] = (enum lab_state)k;
        }
    }
    if (s)
        fclose(s);
    snprintf(path, sizeof path, "%s/flags.txt", dir);
    FILE *flags = fopen(path, "r");
    while (flags && fgets(line, sizeof line, flags)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] && h->n_flags < MAX_WARNINGS)
            h->flags[h->n_flags++] = strdup(line);
    }
    if (flags)
        fclose(flags);
    if (h->status[0])
        return;
    if (h->any_lab) { /* scores.tsv from before statuses */
        snprintf(h->status, sizeof h->status, "%s", STATUS_GRADED);
        return;
    }
    snprintf(path, sizeof path, "%s/status.txt", dir);
    if ((s = fopen(path, "r")) && fgets(line, sizeof line, s) && line[strspn(line, " \t\r\n")])
        split_status(line, h);
    else
        split_status(strcpy(line, "\tthe grader stopped before scoring"), h);
    if (!strcmp(h->details, "the grader stopped before scoring"))
        snprintf(h->details + strlen(h->details), sizeof h->details - strlen(h->details),
                 " (see logs/%s.log)", name);
    if (s)
        fclose(s);
}

/* What the grading met, and how many hand-ins met it. */
typedef struct {
    const char *text;
    int is_sandbox, count;
} met;

static void count_met(met *list, int *n, const char *text, int is_sandbox)
{
    for (int k = 0; k < *n; k++)
        if (list[k].is_sandbox == is_sandbox && !strcmp(list[k].text, text)) {
            list[k].count++;
            return;
        }
    list[(*n)++] = (met){text, is_sandbox, 1};
}

/* How the end report names a hand-in: its name, and what it was handed in as where the name
 * is not that with a suffix left out (bob for bob.tar.gz): where it was cleaned or made unique. */
static void say_handin(FILE *out, char **argv, int i)
{
    const char *name = argv[3 * i], *handed = argv[3 * i + 1];
    size_t n = strlen(name);
    fprintf(out, "  %s", name);
    if (strncmp(name, handed, n) || (handed[n] && handed[n] != '.')) {
        fputs(" (handed in as '", out);
        for (const char *c = handed; *c; c++)
            fputc((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c, out);
        fputs("')", out);
    }
}

/* The end report: each hand-in not simply graded, then what the grading met, once each. */
static void end_report(FILE *out, const char *book, char **argv, int n, const handin *h)
{
    int graded = 0, n_met = 0, look = 0;
    met *list = calloc((size_t)n * (1 + MAX_WARNINGS) + 1, sizeof *list);
    for (int i = 0; i < n; i++) {
        graded += !strcmp(h[i].status, STATUS_GRADED);
        look += strcmp(h[i].status, STATUS_GRADED) || h[i].n_flags;
    }
    fprintf(out, "gradebook: %s: %d hand-in%s, %d graded", book, n, n == 1 ? "" : "s", graded);
    fprintf(out, look ? ", %d to look at:\n" : "\n", look);
    for (int i = 0; i < n; i++) {
        if (strcmp(h[i].status, STATUS_GRADED)) {
            say_handin(out, argv, i);
            fprintf(out, ": %s%s%s\n", h[i].status, h[i].details[0] ? ": " : "", h[i].details);
        }
        for (int k = 0; k < h[i].n_flags; k++) {
            say_handin(out, argv, i);
            fprintf(out, ": flagged: %s\n", h[i].flags[k]);
        }
        if (h[i].sandbox[0] && strcmp(h[i].sandbox, "bwrap"))
            count_met(list, &n_met, h[i].sandbox, 1);
        for (int w = 0; w < h[i].n_warnings; w++)
            count_met(list, &n_met, h[i].warnings[w], 0);
    }
    for (int k = 0; k < n_met; k++) {
        const char *s = list[k].count == 1 ? "" : "s";
        if (list[k].is_sandbox)
            fprintf(out, "  sandbox: %d hand-in%s ran student code %s, not in bubblewrap "
                    "(logs/NAME.log says why)\n", list[k].count, s,
                    !strcmp(list[k].text, "setpriv") ? "as a user of its own (setpriv)" : "unsandboxed");
        else
            fprintf(out, "  warning, %d hand-in%s: %s\n", list[k].count, s, list[k].text);
    }
    free(list);
}

int gradebook(int argc, char **argv)
{
    if (argc < 4 || (argc - 4) % 3)
        die("usage: grade-report gradebook WEIGHTS GRADEBOOK.csv [NAME HANDED DIR]...", NULL);
    read_weights(argv[2]);
    default_labs(argv[2], NULL);
    int n = (argc - 4) / 3;
    handin *h = calloc((size_t)(n ? n : 1), sizeof *h);
    for (int i = 0; i < n; i++)
        read_handin(argv[4 + 3 * i], argv[6 + 3 * i], &h[i]);
    FILE *f = fopen(argv[3], "w");
    if (!f)
        die("cannot write", argv[3]);
    /* The columns: the labs that any hand-in was graded on, in grading.conf's
       order; a lab it has no line for (graded with a default) after them. */
    int column[MAX_LABS] = {0};
    double lab_max[MAX_LABS] = {0};
    for (int i = 0; i < n; i++)
        for (int lab = 0; lab < MAX_LABS; lab++)
            if (h[i].has[lab]) {
                column[lab] = 1;
                lab_max[lab] = h[i].max[lab] > lab_max[lab] ? h[i].max[lab] : lab_max[lab];
            }
    for (int lab = 0; lab < MAX_LABS; lab++) {
        if (lab_weights[lab].present)
            lab_max[lab] = lab_weights[lab].correctness + lab_weights[lab].technique +
                           lab_weights[lab].performance;
        else if (column[lab])
            lab_order[n_labs++] = lab;
    }
    double column_max = 0;
    fprintf(f, "student,handed in as");
    for (int k = 0; k < n_labs; k++)
        if (column[lab_order[k]]) {
            fprintf(f, ",lab%d", lab_order[k]);
            column_max += lab_max[lab_order[k]];
        }
    fprintf(f, ",total,max,status,details\n");
    for (int i = 0; i < n; i++) {
        double total = 0;
        int cells = 0;
        csv_field(f, argv[4 + 3 * i]);
        fputc(',', f);
        csv_name_field(f, argv[5 + 3 * i]);
        for (int k = 0; k < n_labs; k++) {
            int lab = lab_order[k];
            if (!column[lab])
                continue;
            fputc(',', f);
            if (h[i].has[lab] && h[i].state[lab] != LAB_MISSING) {
                fprintf(f, "%.2f", h[i].score[lab]);
                total += h[i].score[lab];
                cells++;
            }
        }
        fputc(',', f);
        if (cells)
            fprintf(f, "%.2f", total);
        fprintf(f, ",%.2f,", column_max);
        csv_field(f, h[i].status);
        fputc(',', f);
        char details[LINE_MAX_ + 64];
        snprintf(details, sizeof details, "%s%s", h[i].details, h[i].n_flags && h[i].details[0] ? "; " : "");
        if (h[i].n_flags) /* the grader's findings, for a look: flags.txt beside the results */
            snprintf(details + strlen(details), sizeof details - strlen(details), "flagged: %d (flags.txt)",
                     h[i].n_flags);
        csv_field(f, details);
        fputc('\n', f);
    }
    fclose(f);

    char path[LINE_MAX_];
    const char *slash = strrchr(argv[3], '/');
    snprintf(path, sizeof path, "%.*sanomalies.txt", slash ? (int)(slash - argv[3] + 1) : 0, argv[3]);
    FILE *a = fopen(path, "w");
    if (!a)
        die("cannot write", path);
    end_report(a, argv[3], argv + 4, n, h);
    end_report(stdout, argv[3], argv + 4, n, h);
    fclose(a);
    return 0;
}
