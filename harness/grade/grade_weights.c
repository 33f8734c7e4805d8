/* The points of each lab: see grade_weights.h. */
#include "grade_weights.h"

#include "csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

weights lab_weights[MAX_LABS];
int lab_order[MAX_LABS], n_labs;
double technique_needs = 0.75;

/* "default KIND[/OPERATION] ...": the points of a lab that has no line. */
#define MAX_DEFAULTS 32
static struct {
    char what[64];
    weights w;
} defaults[MAX_DEFAULTS];
static int n_defaults;

void die(const char *what, const char *detail)
{
    fprintf(stderr, "grade-report: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(1);
}

void read_weights(const char *path)
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

/* Every lab of the table of labs (LABS_TSV) gets points: its own line, or
   its kind's default, said in a note (NOTES) and on stderr. */
void default_labs(const char *weights_path, void (*note)(const char *text))
{
    const char *table = getenv("LABS_TSV"), *shown = weights_path;
    size_t len = strlen(weights_path), tail = strlen("labs/grading.conf");
    if (len >= tail && !strcmp(weights_path + len - tail, "labs/grading.conf"))
        shown = weights_path + len - tail; /* the kit's own: said as the student kit names it */
    if (!table || !*table)
        return;
    tl_csv *c = tl_csv_open(table);
    if (!c)
        die("cannot read the table of labs (LABS_TSV)", table);
    const char *columns[] = {"lab", "dir", "kind", "op"};
    for (int i = 0; i < 4; i++)
        if (tl_csv_column(c, columns[i]) < 0)
            die("the table of labs (LABS_TSV) lacks a column lab, dir, kind or op", table);
    while (tl_csv_next(c)) {
        const char *dir = tl_csv_get(c, "dir"), *kind = tl_csv_get(c, "kind"), *op = tl_csv_get(c, "op");
        char text[512];
        int lab = atoi(tl_csv_get(c, "lab"));
        if (lab < 0 || lab >= MAX_LABS)
            die("the table of labs (LABS_TSV) holds a lab that is not a number under 100", tl_csv_get(c, "lab"));
        if (lab_weights[lab].present)
            continue;
        const weights *w = default_for(kind, op);
        if (!w) {
            snprintf(text, sizeof text,
                     "lab %d (%s, %s %s) has no line in %s and no default line for its kind "
                     "(default %s/%s or default %s): add one",
                     lab, dir, kind, op, shown, kind, op, kind);
            die(text, NULL);
        }
        lab_weights[lab] = *w;
        lab_order[n_labs++] = lab;
        snprintf(text, sizeof text,
                 "NOTE: lab %d has no line in %s: graded with the default points of a %s %s "
                 "lab (correctness %g, technique %g, performance %g from ratio %.2f to %.2f); "
                 "a line there sets its own.",
                 lab, shown, kind, op, w->correctness, w->technique, w->performance,
                 w->zero_at, w->full_at);
        if (note) {
            fprintf(stderr, "grade-report: %s\n", text);
            note(text);
        }
    }
    tl_csv_close(c);
}


double table_points(void)
{
    const char *table = getenv("LABS_TSV");
    tl_csv *c = table && *table ? tl_csv_open(table) : NULL;
    if (!c)
        die("cannot read the table of labs (LABS_TSV)", table ? table : "(unset)");
    double sum = 0;
    while (tl_csv_next(c)) {
        int lab = atoi(tl_csv_get(c, "lab"));
        if (lab >= 0 && lab < MAX_LABS && lab_weights[lab].present)
            sum += lab_weights[lab].correctness + lab_weights[lab].technique + lab_weights[lab].performance;
    }
    tl_csv_close(c);
    return sum;
}
