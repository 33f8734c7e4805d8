/*
 * tl-labs: the labs of labs/labs.mk as one table, a row a lab, which
 * everything besides the Makefile reads (the grader, Gradescope and Slurm,
 * the figures, the slides, the kit's tests): none of them reads labs.mk.
 *
 *   tl-labs NN FIELD=VALUE... [NN FIELD=VALUE...]...
 *
 * The Makefile gives each lab of LABS as its number and every labNN_FIELD
 * variable that labs.mk sets for it, and writes what this prints to
 * $(LABS_TSV): a TSV (csv.h reads it; a field holds no tab), its header
 * the columns below, in their order. Every check of an entry is here, so
 * that a slip in labs.mk (a misspelt field, a kind that is neither cpu nor
 * gpu) stops make with the variable named, where a reader would have gone
 * on with a hole. Exits 2, saying what is wrong, on anything else.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op.h"

/* A lab's fields: its labNN_ variables (labs.mk's comment says what each
 * holds), a column each. */
enum { DIR, KIND, OP, FILE_, TUNABLES, TITLE, BASELINE, CHANGE, LESSON, N_FIELDS };
static const struct {
    const char *name;
    int required;
    const char *otherwise; /* the value where labs.mk sets none */
} fields[N_FIELDS] = {
    [DIR] = {"dir", 1, NULL},
    [KIND] = {"kind", 1, NULL},
    [OP] = {"op", 0, "transpose"},
    [FILE_] = {"file", 1, NULL},
    [TUNABLES] = {"tunables", 0, ""},
    [TITLE] = {"title", 1, NULL},
    [BASELINE] = {"baseline", 0, ""},
    [CHANGE] = {"change", 0, ""},
    [LESSON] = {"lesson", 0, ""},
};

/* What a lab may compute (labNN_op): an operation of the kit's table
 * (harness/core/ops/, op.h), whose columns a lab's row carries besides its
 * fields, so that no reader maps an operation to them itself. */
static const char *const op_columns[] = {"unit", "small_sizes"};
enum { N_OP_COLUMNS = sizeof op_columns / sizeof *op_columns };

/* Column c of op's: its rate's unit (GB/s, GFLOP/s); its small sizes that end mid-tile,
 * in its own form (compute-sanitizer's, and make check's held-back cases). */
static const char *op_column(const tl_op *op, int c)
{
    return c == 0 ? op->unit : c == 1 ? op->sanitize_sizes : "";
}

enum { MAX_LABS = 100 };
static struct lab {
    char number[3];
    const char *value[N_FIELDS];
} table[MAX_LABS];
static int n_labs;

static void die(const struct lab *lab, const char *what, const char *detail)
{
    if (lab)
        fprintf(stderr, "tl-labs: labs/labs.mk, lab%s_%s\n", lab->number, what);
    else
        fprintf(stderr, "tl-labs: %s\n", what);
    if (detail)
        fprintf(stderr, "  %s\n", detail);
    exit(2);
}

static int is_lab_number(const char *s)
{
    return strlen(s) == 2 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9';
}

static void usage(void)
{
    die(NULL, "usage: tl-labs NN FIELD=VALUE... [NN FIELD=VALUE...]...",
        "each lab's two-digit number, then its labNN_FIELD variables of labs/labs.mk (the Makefile gives them)");
}

/* FIELD=VALUE of lab: its value, checked for what a row of the table cannot hold. */
static void set(struct lab *lab, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        usage();
    int f = 0;
    while (f < N_FIELDS && (strlen(fields[f].name) != (size_t)(eq - arg) || strncmp(fields[f].name, arg, eq - arg)))
        f++;
    char what[160], detail[320];
    snprintf(what, sizeof what, "%.*s", (int)(eq - arg), arg);
    if (f == N_FIELDS) {
        int at = snprintf(detail, sizeof detail, "is no field of a lab: a lab's fields are");
        for (int i = 0; i < N_FIELDS && at < (int)sizeof detail; i++)
            at += snprintf(detail + at, sizeof detail - at, " lab%s_%s", lab->number, fields[i].name);
        die(lab, what, detail);
    }
    const char *v = eq + 1;
    if (strpbrk(v, "\t\n\r"))
        die(lab, what, "holds a tab or a line break, which no field of the table of labs may hold");
    /* csv.h reads a field that starts with a quote as quoted. */
    if (v[0] == '"')
        die(lab, what, "starts with a quote (\"), which the table of labs would read as quoting the field");
    lab->value[f] = v;
}

static void check(const struct lab *lab)
{
    for (int f = 0; f < N_FIELDS; f++)
        if (fields[f].required && (!lab->value[f] || !*lab->value[f]))
            die(lab, fields[f].name, "is missing: every lab has its dir, kind, file and title");
    const char *kind = lab->value[KIND];
    if (strcmp(kind, "cpu") && strcmp(kind, "gpu"))
        die(lab, "kind", "is cpu (host pointers, built with gcc) or gpu (device pointers, built with nvcc)");
    const char *op = lab->value[OP];
    if (op && *op && !tl_op_named(op)) {
        char detail[256];
        int at = snprintf(detail, sizeof detail, "'%s' is no operation of the kit's (harness/core/ops/): they are", op);
        for (int k = 0; tl_op_at(k) && at < (int)sizeof detail; k++)
            at += snprintf(detail + at, sizeof detail - at, " %s", tl_op_at(k)->name);
        die(lab, "op", detail);
    }
    const char *b = lab->value[BASELINE];
    if (b && *b && (!is_lab_number(b) || !strcmp(b, lab->number)))
        die(lab, "baseline", "is another lab's two-digit number (06), whose reference its bench times beside it");
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strchr(argv[i], '=')) {
            if (!n_labs)
                usage();
            set(&table[n_labs - 1], argv[i]);
            continue;
        }
        if (!is_lab_number(argv[i]))
            usage();
        for (int k = 0; k < n_labs; k++)
            if (!strcmp(table[k].number, argv[i]))
                die(NULL, "a lab given twice (LABS names it twice?)", argv[i]);
        if (n_labs == MAX_LABS)
            die(NULL, "more labs than lab numbers", NULL);
        memcpy(table[n_labs++].number, argv[i], 3);
    }
    if (!n_labs)
        usage();
    for (int k = 0; k < n_labs; k++)
        check(&table[k]);

    printf("# The labs of labs/labs.mk, a row each (tl-labs, harness/tools/labs.c).\n");
    /* The lab's fields, then its operation's columns. */
    printf("lab");
    for (int f = 0; f < N_FIELDS; f++)
        printf("\t%s", fields[f].name);
    for (int c = 0; c < N_OP_COLUMNS; c++)
        printf("\t%s", op_columns[c]);
    printf("\n");
    for (int k = 0; k < n_labs; k++) {
        printf("%s", table[k].number);
        for (int f = 0; f < N_FIELDS; f++) {
            const char *v = table[k].value[f];
            printf("\t%s", v && *v ? v : fields[f].otherwise);
        }
        const char *op = table[k].value[OP];
        for (int c = 0; c < N_OP_COLUMNS; c++)
            printf("\t%s", op_column(tl_op_named(op && *op ? op : fields[OP].otherwise), c));
        printf("\n");
    }
    return ferror(stdout) || fclose(stdout) ? 1 : 0;
}
