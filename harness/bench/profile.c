/*
 * profile: what the emulator counted while the student's kernels and the
 * reference's ran once on the same matrix. Counts, not timings: they are
 * the same on every machine, whatever its load. They go to a CSV, which
 * harness/tools/profile-table.sh shows, as it shows what ncu measures on a GPU.
 *
 * usage: profile [--size N | ROWSxCOLS | --grade-size] [--csv FILE] [--title TEXT]
 *        profile --profile-size    the operation's size, where --size is not given
 * --grade-size counts the size the grader counts (op.h's grade_emu_size).
 *
 * The grader's (TL_GRADE_PROFILE) takes two more: --reference-only counts the
 * reference's kernels alone (make references writes them so, once, beside the compiled
 * references), and --reference-rows FILE takes the reference's rows from such a file
 * ("-": its standard input, as the grader gives it, read whole before any code of the
 * hand-in's runs) where it holds them for this size, rather than count them again for
 * every hand-in:
 * the emulator's counts of a reference are the same whatever its input's values (every
 * reference's, at the grader's sizes, on the kit's seed and on drawn ones), and its
 * kernels, the emulator and this program are the same objects in both.
 */
#ifndef TL_TUNABLES_STUDENT /* the Makefile says which tunables each side was built with */
#define TL_TUNABLES_STUDENT "unknown"
#define TL_TUNABLES_REFERENCE "unknown"
#endif
#include "bench.h"
#include "emu.h"
#include "gpu.h"
#include "result_file.h"
#ifdef TL_GRADE_PROFILE
#include "lab_client.h"
#endif

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>

static const tl_op *op;

static void usage(FILE *f)
{
    fprintf(f, "usage: profile [--size N | ROWSxCOLS | --grade-size] [--csv FILE] [--title TEXT]\n"
               "       profile --profile-size    (the operation's size, where --size is not given)\n"
               "       --grade-size counts the size the grader counts (%s)\n",
            op && op->grade_emu_size ? op->grade_emu_size : "256");
}

/* The lab's entry points, under the bench's names for them. */
typedef struct {
    const char *variant, *role, *entry;
    tl_entry_fn fn;
} lab_fn;

/* The lab's own kernels, as its operation names them (op.h): of each entry point, the
 * reference's, then the student's (in the grader's profile, its handle: it runs in the
 * student's lab process). */
static lab_fn fns[2 * TL_OPERATION_ENTRIES];
static int n_fns;

static void kernels_of(const tl_op *o)
{
    for (int i = 0; i < TL_OPERATION_ENTRIES && o->entries[i].name; i++) {
        const tl_op_entry *e = &o->entries[i];
        fns[n_fns++] = (lab_fn){e->ref_variant, "reference", e->name, e->reference};
        fns[n_fns++] = (lab_fn){e->variant, "student", e->name, e->student ? e->student : tl_entry_named(e->name)};
    }
}

/* How far a launch has come, every tenth of its blocks, once it has run for a second:
 * a profile at 4096 x 4096 takes minutes. Only to say that it works, never to judge. */
static const char *counting_whose = "";
static void say_progress(const char *kernel, unsigned long long done, unsigned long long blocks)
{
    static const char *last_kernel;
    static struct timespec start;
    static int shown, said;
    struct timespec now;
    if (done == 1 || kernel != last_kernel) {
        clock_gettime(CLOCK_MONOTONIC, &start);
        last_kernel = kernel, shown = 0, said = 0;
    }
    int tenth = (int)(10 * done / blocks);
    if (tenth <= shown)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!said && now.tv_sec - start.tv_sec < 1)
        return;
    if (!said)
        fprintf(stderr, "  counting %s %.*s:", counting_whose, (int)strcspn(kernel, "<"), kernel);
    fprintf(stderr, " %d%%%s", 10 * tenth, tenth == 10 ? "\n" : "");
    said = 1, shown = tenth;
}

/* The matrices' seed: the kit's default for make labN profile; for the
 * grader, one drawn for the run, so that no lab file can hold the answer to
 * the matrix it is counted on (tests/hostile/lab05-known-shapes.cu). */
static uint64_t seed = TL_DEFAULT_SEED;

static void check(const lab_fn *f, const tl_backend *b, tl_shape s, tl_verdict *v)
{
    op->check(v, f->entry, f->fn, b, s, seed);
}

/* The fewest 32-byte sectors one call can move however it is written: its
 * operation's least floats read and written (op.h). The grader refuses
 * counts below it: work the emulator did not count
 * (harness/grade/grade_measure.c). */
static unsigned long long least_sectors(tl_shape s)
{
    return ((unsigned long long)op->least_floats(s) * sizeof(float) + 31) / 32;
}

/* A template kernel goes by its name alone: the emulator knows its arguments
 * as the source spells them (BLOCK_ROWS), ncu as they were instantiated (8).
 * least_sectors is the call's, on each of its kernels' rows. */
static void row(FILE *csv, const lab_fn *f, tl_shape s, const tl_emu_stats *k)
{
    const char *variant = f->variant;
    fprintf(csv, "%s,%.*s,%d,%d,%d,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                 "%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
            variant, (int)strcspn(k->kernel, "<"), k->kernel, s.rows, s.cols, s.depth, k->launches,
            k->blocks, k->threads, k->global_load_requests, k->global_load_sectors,
            k->global_store_requests, k->global_store_sectors, k->shared_load_requests,
            k->shared_load_wavefronts, k->shared_store_requests, k->shared_store_wavefronts,
            k->global_load_bytes, k->global_store_bytes, k->shared_load_ideal, k->shared_store_ideal,
            k->constant_load_requests, k->constant_load_passes, least_sectors(s), k->barriers,
            k->warp_collectives, k->warp_shuffles, k->warp_syncs, k->divergent_requests,
            k->global_atomic_requests, k->shared_atomic_requests);
}

#ifdef TL_GRADE_PROFILE
/*
 * The grader's profile: the student's variants run and are counted in the
 * student's lab process (student-emu/lab-runner beside this program), the
 * reference's here; the CSV is written by this process once the lab
 * process and all it started have ended (lab_client.h).
 */
static int profile_student(const lab_fn *f, tl_shape s, FILE *csv, tl_verdict *v)
{
    const tl_backend *lab;
    char why[2048];
    if (tl_lab_backend(&lab, why, sizeof why) != 1) {
        printf("%-10s the lab process could not run: %s\n", f->variant, why);
        return -1;
    }
    tl_lab_count(1);
    check(f, lab, s, v);
    tl_lab_count(0);
    const tl_lab_profile *p = tl_lab_counts();
    for (int i = 0; v->ok && csv && i < p->kernels; i++)
        row(csv, f, s, &p->kernel[i].stats);
    return 0;
}
#endif

/* The columns of the CSV, as its header names them. */
static const char columns[] =
    "variant,kernel,rows,cols,depth,launches,blocks,threads,global_load_requests,"
    "global_load_sectors,global_store_requests,global_store_sectors,"
    "shared_load_requests,shared_load_wavefronts,shared_store_requests,"
    "shared_store_wavefronts,global_load_bytes,global_store_bytes,"
    "shared_load_ideal,shared_store_ideal,constant_load_requests,constant_load_passes,least_sectors,"
    "barriers,warp_collectives,warp_shuffles,warp_syncs,divergent_requests,"
    "global_atomic_requests,shared_atomic_requests";

#ifdef TL_GRADE_PROFILE
/* The reference's rows counted before (--reference-rows): what the file holds, or NULL. */
static char *reference_rows;

/* The file at path ("-": the standard input) whole, as read at the start; NULL where it
 * cannot be read, or holds more than a few kernels' rows. */
static char *read_rows(const char *path)
{
    FILE *in = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!in)
        return NULL;
    size_t max = 64 << 10, len = 0;
    char *text = malloc(max + 1);
    while (text && len <= max) {
        size_t got = fread(text + len, 1, max + 1 - len, in);
        if (!got)
            break;
        len += got;
    }
    int bad = !text || ferror(in) || len > max;
    if (in != stdin)
        fclose(in);
    if (bad) {
        free(text);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

/* The line that opens what --reference-only writes: the operation whose reference it counted. */
#define REFERENCE_ROWS_OF "# the reference's counts alone, of operation "

/* The rows of f, the reference's, at s, from reference_rows (a CSV this program wrote with
 * --reference-only) into csv: 1 where it holds them (this operation's, its columns this
 * program's, and a row of f's variant at s), 0 where they are to be counted. */
static int counted_before(const lab_fn *f, tl_shape s, FILE *csv)
{
    FILE *in = reference_rows ? fmemopen(reference_rows, strlen(reference_rows), "r") : NULL;
    if (!in)
        return 0;
    char line[4096], at[64], of[256];
    snprintf(at, sizeof at, ",%d,%d,%d,", s.rows, s.cols, s.depth);
    snprintf(of, sizeof of, "%s%s\n", REFERENCE_ROWS_OF, TL_LAB_OP);
    size_t variant_len = strlen(f->variant);
    int ours = fgets(line, sizeof line, in) && !strcmp(line, of) ? 0 : -1;
    char *rows = NULL;
    size_t len = 0;
    FILE *kept = open_memstream(&rows, &len);
    while (kept && ours >= 0 && fgets(line, sizeof line, in)) {
        if (line[0] == '#')
            continue;
        if (!ours) { /* the first line that is no comment: the columns */
            line[strcspn(line, "\n")] = '\0';
            if (strcmp(line, columns))
                break;
            ours = 1;
            continue;
        }
        if (!strchr(line, '\n'))
            break; /* a line cut short */
        const char *kernel = strchr(line, ',');
        const char *after = kernel ? strchr(kernel + 1, ',') : NULL;
        if (kernel && (size_t)(kernel - line) == variant_len && !strncmp(line, f->variant, variant_len) && after &&
            !strncmp(after, at, strlen(at)))
            fputs(line, kept);
    }
    fclose(in);
    int found = kept && fclose(kept) == 0 && ours == 1 && len > 0;
    if (found && csv)
        fputs(rows, csv);
    free(rows);
    return found;
}
#endif

static int profile(const lab_fn *f, tl_shape s, FILE *csv)
{
    static tl_verdict v;
    const char *variant = f->variant;
#ifdef TL_GRADE_PROFILE
    if (!strcmp(f->role, "student")) {
        if (profile_student(f, s, csv, &v) != 0)
            return 1;
    } else if (counted_before(f, s, csv)) {
        return 0;
    } else
#endif
    {
        tl_emu_stats_reset();
        tl_emu_profile(1);
        counting_whose = strcmp(f->role, "student") ? "the reference's" : "your";
        tl_emu_on_progress(say_progress);
        check(f, &tl_gpu_backend, s, &v);
        tl_emu_profile(0);
        for (int i = 0; v.ok && csv && i < tl_emu_stats_count(); i++)
            row(csv, f, s, tl_emu_stats_get(i));
    }
    if (!v.ok) {
        const char *todo = tl_todo_message();
        printf("%-10s %s\n", variant, todo ? "not implemented yet" : "WRONG: counts not shown");
        if (!todo)
            printf("%s", v.message);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (!(op = tl_op_named(TL_LAB_OP))) {
        fprintf(stderr, "profile: no operation '%s' in harness/core/ops/\n", TL_LAB_OP);
        return 2;
    }
    tl_shape s = op->profile_size;
    kernels_of(op);
    const char *csv_path = NULL, *title = "this lab";
    int reference_only = 0;
    char why[256];
    for (int i = 1; i < argc; i++) {
        if ((!strcmp(argv[i], "--size") && i + 1 < argc) || !strcmp(argv[i], "--grade-size")) {
            const char *size = !strcmp(argv[i], "--grade-size")
                                   ? (op->grade_emu_size ? op->grade_emu_size : "256")
                                   : argv[++i];
            if (tl_op_parse_sizes(op, size, &s, 1, why, sizeof why) != 1) {
                fprintf(stderr, "profile: %s\n", why);
                usage(stderr);
                return 2;
            }
        } else if (!strcmp(argv[i], "--profile-size")) {
            tl_op_size(op, why, sizeof why, op->profile_size);
            printf("%s\n", why);
            return 0;
        } else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
            csv_path = argv[++i];
        } else if (!strcmp(argv[i], "--title") && i + 1 < argc) {
            title = argv[++i];
#ifdef TL_GRADE_PROFILE
        } else if (!strcmp(argv[i], "--reference-only")) {
            reference_only = 1;
        } else if (!strcmp(argv[i], "--reference-rows") && i + 1 < argc) {
            reference_rows = read_rows(argv[++i]);
#endif
        } else {
            fprintf(stderr, "profile: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    /* The rows are kept here and written at the end (result_file.h). */
    char *rows = NULL;
    size_t len = 0;
    FILE *csv = csv_path ? open_memstream(&rows, &len) : NULL;
    if (csv_path && !csv) {
        perror("profile: the CSV's rows");
        return 1;
    }
    /* What a request is: nvcc's instruction, or (without nvcc and nvdisasm) an access as written. */
    const char *counting = tl_emu_counts_instructions()
                               ? "instructions as nvcc compiles them for sm_90"
                               : "accesses as written: built without nvcc and nvdisasm, none merged as nvcc merges them";
#ifdef TL_GRADE_PROFILE
    if (csv && reference_only)
        fprintf(csv, "%s%s\n", REFERENCE_ROWS_OF, TL_LAB_OP);
#endif
    if (csv)
        fprintf(csv, "# tilelab profile on the CPU emulator: %s, %d x %d (x %d)\n"
                     "# machine: the CPU emulator (%s)\n"
                     "# tunables: student %s; reference %s\n"
                     "%s\n",
                title, s.rows, s.cols, s.depth, counting, TL_TUNABLES_STUDENT, TL_TUNABLES_REFERENCE, columns);
    int wrong = 0;
#ifdef TL_GRADE_PROFILE
    if (!reference_only)
        tl_lab_runner_at("student-emu/lab-runner");
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        seed ^= (uint64_t)(tl_now() * 1e9);
#endif
    for (int i = 0; i < n_fns; i++)
        if (!reference_only || strcmp(fns[i].role, "student"))
            wrong |= profile(&fns[i], s, csv);
#ifdef TL_GRADE_PROFILE
    if (!reference_only)
        tl_lab_stop();
#else
    (void)reference_only;
#endif
    if (csv && (fclose(csv) != 0 || tl_write_result_file(csv_path, rows, len, 0) != 0))
        wrong = 1;
    free(rows);
    return wrong;
}
