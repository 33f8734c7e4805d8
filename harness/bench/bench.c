/*
 * bench: the command behind `make labN bench`.
 *
 * The Makefile compiles this file once per lab with the lab's identity:
 * TL_LAB, TL_LAB_DIR, TL_LAB_TITLE, TL_COMPILER, TL_FLAGS and the tunables
 * of the student's and the reference's file.
 */
#include "bench.h"
#include "result_file.h"
#include "sysinfo.h"
#include "timing_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef TL_LAB
#error "the Makefile defines TL_LAB and friends"
#endif

#ifndef TL_LAB_OP
#error "the Makefile names the lab's operation: -DTL_LAB_OP='\"transpose\"' (op.h)"
#endif
#define MAX_SIZES 64

const tl_op *tl_bench_op;

/* What runs when the command line does not say: the operation's, for a lab of this kind. */
static const tl_op_bench *defaults(void)
{
#ifdef TL_LAB_GPU
    return &tl_bench_op->bench_gpu;
#else
    return &tl_bench_op->bench_cpu;
#endif
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: bench [--sizes LIST] [--reps N] [--warmup N] [--csv FILE] [--append]\n"
            "             [--record FILE] [--only VARIANTS] [--tag TEXT] [--once VARIANTS]\n"
            "             [--gpu-lock-fd FD] [--grade-size] [--profile-size] [--shape-of SIZE]\n"
            "\n"
            "Measures lab %d (%s): the student's code beside the reference and the\n"
            "ceiling, median of N repetitions after the warm-up runs.\n"
            "\n"
            "  --sizes LIST     sizes to run, comma-separated: %s\n"
            "                   (default %s)\n"
            "  --reps N         timed repetitions per variant and size, 1..1000 (default %d)\n"
            "  --warmup N       untimed runs first, 0..100 (default 2)\n"
            "  --csv FILE       also write the results as CSV\n"
            "  --append         add rows to FILE without a header (for sweeps)\n"
            "  --record FILE    also write what became of every variant asked for, timed or\n"
            "                   not and why, as TSV (bench.h): what the grader reads\n"
            "  --only VARIANTS  comma-separated variants, or roles: ceiling, reference, student\n"
            "                   (every kernel of the student's file), library\n"
            "  --tag TEXT       text for the CSV's tag column (e.g. TILE_DIM=32 BLOCK_ROWS=8)\n"
            "  --once VARIANTS  run each of them (names or roles) once at each size on buffers of\n"
            "                   exactly the matrix's size, unchecked and untimed: for valgrind\n"
            "                   and compute-sanitizer (without --sizes: %s)\n"
            "  --gpu-lock-fd FD a lock the grader's benches share (timing_lock.h): each timing\n"
            "                   holds it alone, all else shares it\n"
            "  --profile-size   print the size make labN profile runs (the operation's) and exit\n"
            "  --shape-of SIZE  print the rows, cols and depth of one size, as the CSV has them\n"
            "  --grade-size     time the size the grader times (the operation's: %s)\n",
            TL_LAB, TL_LAB_DIR, tl_bench_op->sizes_are, defaults()->sizes, defaults()->reps,
            tl_bench_op->sanitize_sizes, tl_bench_op->grade_size);
}

static void bad_input(const char *what)
{
    fprintf(stderr, "bench: %s\n", what);
    fprintf(stderr, "(e.g. make lab%d bench SIZES=%s REPS=%d; bench --help lists every option)\n",
            TL_LAB, defaults()->sizes, defaults()->reps);
    exit(2);
}

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s needs a value", argv[*i]);
        bad_input(msg);
    }
    return argv[++*i];
}

static long count_of(int argc, char **argv, int *i, long min, long max)
{
    const char *name = argv[*i];
    const char *text = value_of(argc, argv, i);
    long v;
    if (tl_parse_count(text, max, &v) != 0 || v < min) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s '%s': give a whole number from %ld to %ld", name, text, min,
                 max);
        bad_input(msg);
    }
    return v;
}

static void check_variants(const char *list)
{
    const tl_variant *table;
    int n = tl_bench_variants(&table);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int known = 0;
        for (int i = 0; i < n; i++)
            known |= strcmp(tok, table[i].name) == 0 || strcmp(tok, table[i].role) == 0;
        if (!known) {
            char msg[512] = "";
            tl_appendf(msg, sizeof msg, "unknown variant '%s': the variants are", tok);
            for (int i = 0; i < n; i++)
                tl_appendf(msg, sizeof msg, " %s", table[i].name);
            tl_appendf(msg, sizeof msg, "; or a role: " TL_ROLES);
            bad_input(msg);
        }
    }
}

static void write_header(FILE *f, const tl_bench_opts *o)
{
    char date[64];
    tl_date(date, sizeof date);
    fprintf(f, "# tilelab bench\n");
    fprintf(f, "# lab: %d %s (%s)\n", TL_LAB, TL_LAB_DIR, TL_LAB_TITLE);
    /* How a row's rows, cols and depth make its size (op.h's dims): the figures read it. */
    fprintf(f, "# dims: %d (sizes are %s)\n", tl_bench_op->dims, tl_bench_op->sizes_are);
    tl_bench_describe(f);
    fprintf(f, "# compiler: %s\n", TL_COMPILER);
    fprintf(f, "# flags: %s\n", TL_FLAGS);
    fprintf(f, "# tunables: student %s; reference %s\n", TL_TUNABLES_STUDENT,
            TL_TUNABLES_REFERENCE);
    fprintf(f, "# date: %s\n", date);
    fprintf(f, "# method: median of %d repetitions after %d warm-up runs; spread: half the "
               "interquartile range over the median; every timed call's output is checked; %s\n",
            o->reps, o->warmup, tl_bench_op->rate_is    );
}

/* What the command line asked for. */
typedef struct {
    tl_bench_opts o;
    const char *sizes, *csv_path, *record_path, *tag, *once;
    int append, lock_fd;
} bench_args;

static bench_args parse_args(int argc, char **argv)
{
    bench_args a = {{defaults()->reps, 2, NULL}, defaults()->sizes, NULL, NULL, "", NULL, 0, -1};
    int sizes_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--sizes"))
            a.sizes = value_of(argc, argv, &i), sizes_given = 1;
        else if (!strcmp(arg, "--reps"))
            a.o.reps = (int)count_of(argc, argv, &i, 1, 1000);
        else if (!strcmp(arg, "--warmup"))
            a.o.warmup = (int)count_of(argc, argv, &i, 0, 100);
        else if (!strcmp(arg, "--csv"))
            a.csv_path = value_of(argc, argv, &i);
        else if (!strcmp(arg, "--record"))
            a.record_path = value_of(argc, argv, &i);
        else if (!strcmp(arg, "--append"))
            a.append = 1;
        else if (!strcmp(arg, "--only"))
            check_variants(a.o.only = value_of(argc, argv, &i));
        else if (!strcmp(arg, "--tag"))
            a.tag = value_of(argc, argv, &i);
        else if (!strcmp(arg, "--once")) {
            check_variants(a.once = value_of(argc, argv, &i));
            if (!sizes_given)
                a.sizes = tl_bench_op->sanitize_sizes;
        }
        else if (!strcmp(arg, "--gpu-lock-fd"))
            a.lock_fd = (int)count_of(argc, argv, &i, 0, 1 << 20);
        else if (!strcmp(arg, "--grade-size"))
            a.sizes = tl_bench_op->grade_size, sizes_given = 1;
        else if (!strcmp(arg, "--shape-of")) {
            const char *text = value_of(argc, argv, &i);
            tl_shape shape;
            char why[256];
            if (tl_op_parse_sizes(tl_bench_op, text, &shape, 1, why, sizeof why) != 1)
                bad_input(why);
            printf("%d %d %d\n", shape.rows, shape.cols, shape.depth);
            exit(0);
        } else if (!strcmp(arg, "--profile-size")) {
            char size[48];
            tl_op_size(tl_bench_op, size, sizeof size, tl_bench_op->profile_size);
            printf("%s\n", size);
            exit(0);
        } else if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option '%s'", arg);
            bad_input(msg);
        }
    }
    return a;
}

/* Each selected variant once at each size: for valgrind and compute-sanitizer. */
static int run_once(const bench_args *a, const tl_shape *shapes, int n_shapes)
{
    const tl_variant *table;
    int n = tl_bench_variants(&table);
    tl_bench_opts selection = {0, 0, a->once};
    char why[1024];
    for (int i = 0; i < n_shapes; i++)
        for (int k = 0; k < n; k++)
            if (tl_bench_selected(&selection, &table[k]) &&
                tl_bench_once(shapes[i], &table[k], why, sizeof why) != 0) {
                char size[48];
                tl_op_size(tl_bench_op, size, sizeof size, shapes[i]);
                fprintf(stderr, "bench: %s at %s: %s\n", table[k].name, size, why);
                return 1;
            }
    return 0;
}

/*
 * The CSV's rows, and the record's, are kept in memory and written at the
 * end, when every size has been timed: the grader's bench (grade-bench)
 * starts a student's lab process for each size, and no process of the
 * student's is left when the files are made. A new file replaces whatever
 * lay at the path (a link is not followed); --append adds to the file as it is.
 */
typedef struct {
    const char *path;
    FILE *f;
    char *rows;
    size_t len;
} result_file;

static int open_result(result_file *r, const char *path, const bench_args *a, const char *header)
{
    *r = (result_file){path, NULL, NULL, 0};
    if (!path)
        return 0;
    if (!(r->f = open_memstream(&r->rows, &r->len))) {
        perror("bench: the rows of a result file");
        return -1;
    }
    if (!a->append) {
        write_header(r->f, &a->o);
        fprintf(r->f, "%s\n", header);
    }
    return 0;
}

static int write_result(result_file *r, const bench_args *a)
{
    int status = 0;
    if (!r->f)
        return 0;
    fclose(r->f);
    if (tl_write_result_file(r->path, r->rows, r->len, a->append) != 0)
        status = -1;
    else
        printf("\nwrote %s\n", r->path);
    free(r->rows);
    return status;
}

/* Every size: checked, timed, reported as a table and a CSV. */
static int run_bench(const bench_args *a, const tl_shape *shapes, int n_shapes)
{
    const char *unit;
    const tl_variant *table;
    tl_shape one = {1, 1, 1};
    char why[1024];
    int status = 0, n = tl_bench_variants(&table);
    result_file csv, record;
    if (open_result(&csv, a->csv_path, a, TL_BENCH_CSV_HEADER) ||
        open_result(&record, a->record_path, a, TL_BENCH_RECORD_HEADER))
        return 1;
    tl_bench_out out = {stdout, csv.f, record.f};
    tl_bench_work(one, &unit);
    write_header(stdout, &a->o);
    printf("\n%-16s %-10s %10s %9s %10s %9s   %s\n", "size", "variant", "median ms", unit,
           "of ceiling", "vs ref", "spread");
    for (int i = 0; i < n_shapes; i++) {
        tl_result r[TL_MAX_VARIANTS];
        memset(r, 0, sizeof r);
        if (tl_bench_size(shapes[i], &a->o, r, why, sizeof why) != 0) {
            char size[48];
            tl_op_size(tl_bench_op, size, sizeof size, shapes[i]);
            fprintf(stderr, "bench: %s: %s\n", size, why);
            status = 1;
            break;
        }
        char how[128] = "";
        tl_bench_refuse(shapes[i], r, n, tl_bench_bound(shapes[i], r, n, how, sizeof how), how);
        tl_bench_report(&out, TL_LAB, tl_bench_op->dims, a->tag, shapes[i], r, n);
        fflush(stdout);
    }
    if (write_result(&csv, a) != 0)
        status = 1;
    if (write_result(&record, a) != 0)
        status = 1;
    return status;
}

int main(int argc, char **argv)
{
    if (!(tl_bench_op = tl_op_named(TL_LAB_OP))) {
        fprintf(stderr, "bench: no operation '%s' in harness/core/ops/\n", TL_LAB_OP);
        return 2;
    }
    bench_args a = parse_args(argc, argv);
    tl_shape shapes[MAX_SIZES];
    char why[1024];
    int n_shapes = tl_op_parse_sizes(tl_bench_op, a.sizes, shapes, MAX_SIZES, why, sizeof why);
    if (n_shapes < 0)
        bad_input(why);
    if (a.lock_fd >= 0 && tl_timing_lock_take(a.lock_fd, why, sizeof why) != 0) {
        fprintf(stderr, "bench: %s\n", why);
        return 1;
    }
    if (tl_bench_init(why, sizeof why) != 0) {
        fprintf(stderr, "bench: %s\n", why);
        return 1;
    }
    for (int i = 0; i < n_shapes; i++)
        if (tl_bench_fits(shapes[i], why, sizeof why) != 0)
            bad_input(why);
    return a.once ? run_once(&a, shapes, n_shapes) : run_bench(&a, shapes, n_shapes);
}

int tl_bench_selected(const tl_bench_opts *o, const tl_variant *v)
{
    char buf[256];
    if (!o->only)
        return 1;
    snprintf(buf, sizeof buf, "%s", o->only);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (strcmp(tok, v->name) == 0 || strcmp(tok, v->role) == 0)
            return 1;
    return 0;
}

double tl_bench_work(tl_shape s, const char **unit)
{
    *unit = tl_bench_op->unit;
    return tl_bench_op->work(s);
}

void tl_bench_note_verdict(tl_result *r, const tl_verdict *v)
{
    if (tl_todo_message()) {
        snprintf(r->note, sizeof r->note,
                 "not implemented yet, not timed (make lab%d test says what to write)", TL_LAB);
        return;
    }
    /* The verdict's second line is its first finding. */
    const char *line = strchr(v->message, '\n');
    line = line ? line + 1 : v->message;
    while (*line == ' ')
        line++;
    snprintf(r->note, sizeof r->note, "WRONG, not timed: %.*s", (int)strcspn(line, "\n"), line);
}

size_t tl_bench_sample(uint64_t *state, size_t n)
{
    return (size_t)(tl_rand_next(state) % n);
}

size_t tl_bench_transposed_from(tl_shape s, size_t at)
{
    size_t out_row = at / (size_t)s.rows, out_col = at % (size_t)s.rows;
    return out_col * (size_t)s.cols + out_row;
}

int tl_bench_same(float got, float want, int nan_any)
{
    return tl_float_bits(got) == tl_float_bits(want) || (nan_any && got != got && want != want);
}

void tl_bench_note_skipped(char *why, size_t why_len, int rep, size_t at, int width)
{
    snprintf(why, why_len, "WRONG in timed repetition %d: out(%zu, %zu) is not what it must be; "
             "each call must do all the work", rep + 1, at / (size_t)width, at % (size_t)width);
}
