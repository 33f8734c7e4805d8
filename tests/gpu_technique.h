/*
 * Technique checks for the GPU labs: what the lab teaches, judged from what
 * ran, never from what the file declares. On the emulator they read its
 * counts of the hand-in's own run of a check (emu.h, through the lab
 * process: lab_client.h): shared-memory stores and loads made, passes per
 * access, sectors per request, threads, global bytes against the work. A
 * __shared__ tile declared and never used, or used where it changes
 * nothing, counts for nothing. Lab 3's check reads the launches, which the
 * harness records on either backend.
 *
 * On a GPU the counts are not there: those checks say so and are skipped,
 * and the grader runs them from the emulator's build of the same file on
 * every machine (harness/grade/grade.sh), as `make labN test GPU=emu` does.
 * They run at sizes the emulator finishes in well under a second.
 */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "launch_compare.h"
#include "tl_test.h"

/*
 * The shape a technique check judges is drawn, never fixed: a hand-in that
 * ran its lab's technique only at a public shape (a tiled kernel at the one
 * shape the checks used, lab 3's everywhere else) earned the points. The
 * seed is the grader's, fresh for each hand-in (TILELAB_TECHNIQUE_SEED, on
 * the suite's standard input, tl_test.h: no lab's code reads it), or else
 * the run's TILELAB_SEED, so that `TILELAB_SEED=N make labN test` draws a
 * failing check's shape again. Sides are no multiple of a tile (a kernel
 * without its bounds checks, run only where it is right, counts nothing),
 * and a multiple of 8 floats, so that each row starts on a 32-byte sector
 * and a coalesced kernel uses whole sectors as at a multiple of the tile.
 */
static inline uint64_t tl_technique_seed(void)
{
    const char *text = getenv("TILELAB_TECHNIQUE_SEED");
    char *end;
    if (text && *text) {
        unsigned long long seed = strtoull(text, &end, 10);
        cr_assert(!*end, "TILELAB_TECHNIQUE_SEED='%s' is not a whole number", text);
        return seed;
    }
    return tl_test_seed();
}

/* A side of 32 x [lo, hi] and a tail of 8, 16 or 24 (a tile of 16 or less may fit it). */
static inline int tl_technique_side(uint64_t *state, int lo, int hi)
{
    int tiles = lo + (int)(tl_rand_next(state) % (uint64_t)(hi - lo + 1));
    return 32 * tiles + 8 * (1 + (int)(tl_rand_next(state) % 3));
}

/* A check's shape: rows x cols (depth for a product) of sides tl_technique_side draws, each
 * check its own stream of the seed (salt), so that two checks of a suite differ. */
static inline tl_shape tl_technique_shape(int lo, int hi, int salt)
{
    uint64_t state = tl_technique_seed() ^ (0x9e3779b97f4a7c15ull * (uint64_t)(salt + 1));
    tl_shape s;
    s.rows = tl_technique_side(&state, lo, hi);
    s.cols = tl_technique_side(&state, lo, hi);
    s.depth = tl_technique_side(&state, lo, hi);
    return s;
}

/* Elements of a rows x cols matrix rounded up to whole side x side tiles: how many a
 * kernel of such tiles covers, its tail tiles' threads idle past the matrix. */
static inline double tl_tiled_area(int rows, int cols, int side)
{
    return (double)((rows + side - 1) / side * side) * (double)((cols + side - 1) / side * side);
}

#define TL_TECHNIQUE_NAME(suite) #suite
#define TL_TECHNIQUE_SUITE(suite) TL_TECHNIQUE_NAME(suite)

/*
 * The launches of a lab's entry point run as a check runs it: on a rows x
 * cols matrix (a transpose, or an in-place one of rows x rows), or C = A B
 * with m = rows, n = cols, k = depth. How many; each is tl_launch_get(i).
 * On a GPU they are the launches this process ran from the call's plan
 * (lab_plans.c), not what the lab's code says it launched. A technique
 * check holds every one of them to the technique, so that a first launch
 * of a kernel that does nothing cannot stand for the one that does the
 * work. Whether the output was right is the correctness tests' to say: a
 * technique check judges how the work was launched, even while it is wrong.
 */
static tl_verdict tl_technique_verdict; /* the last call's, as its check gave it */
/* The test's first call whose kernels ran and failed, said as a message says it, and its
 * verdict's message: after it the GPU's context is lost, and no later call of the test runs. */
static char tl_technique_faulted[256], tl_technique_fault[sizeof tl_technique_verdict.message];

/* "transpose() of a 33 x 31 matrix": the call of entry on shape s, as a message says it. */
static inline const char *tl_technique_call(void (*entry)(void), tl_shape s, char *buf, size_t len)
{
    const char *name = tl_lab_entry_of(entry);
    const tl_op *op = tl_op_of_entry(name);
    buf[0] = '\0';
    if (op)
        op->call->describe(buf, len, name, s);
    return buf;
}

/*
 * On a GPU grading, technique is judged from the emulator's build and speed from the GPU's
 * (harness/grade/grade_lab.c), so the two must launch the same (launch_compare.h). The
 * grader runs these checks on the GPU's build first, with TILELAB_RECORD_LAUNCHES: each
 * call's launches there, as the plans that ran them say, go on the grader's record of the
 * test (TILELAB_DONE_FILE, which no lab's code holds). It gives them to the emulator's
 * run, TILELAB_GPU_LAUNCH lines on its standard input (tl_test.h), where each call at the
 * same shape is held to them.
 */
static inline void tl_record_launches(const char *entry, tl_shape s, int n)
{
    const char *path = getenv("TILELAB_DONE_FILE");
    tl_launch l[TL_MAX_LAUNCHES]; /* all it keeps, for the digest; the first few written out */
    char record[TL_COMPARE_LAUNCHES * (TL_LAUNCH_SYMBOL + 96) + 64], line[sizeof record + 1024];
    for (int i = 0; i < n && i < TL_MAX_LAUNCHES; i++)
        l[i] = *tl_launch_get(i);
    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
    if (fd < 0 || tl_launches_write(record, sizeof record, n, l) != 0) {
        if (fd >= 0)
            close(fd);
        return;
    }
    int len = snprintf(line, sizeof line, "launches %s/%s %s %d %d %d %s\n", criterion_current_test->category,
                       criterion_current_test->name, entry, s.rows, s.cols, s.depth, record);
    if (len > 0 && (size_t)len < sizeof line)
        (void)!write(fd, line, (size_t)len);
    close(fd);
}

/* The emulator's n launches of this call against the GPU's at the same shape, where the grader
 * gave them ("TEST ENTRY ROWS COLS DEPTH RECORD" a line): a test that fails here says what
 * differed. A call of a test whose GPU run made calls, but none at this shape (it stopped at
 * its first: lab 8's second shape), is not compared. */
static inline void tl_compare_launches(void (*fn)(void), tl_shape s, int n)
{
    const char *entry = tl_lab_entry_of(fn);
    const char *all = getenv("TILELAB_GPU_LAUNCHES"), *sms = getenv("TILELAB_GPU_SMS");
    char key[256], why[4096] = "";
    tl_launch gpu[TL_COMPARE_LAUNCHES], emu[TL_MAX_LAUNCHES];
    int found = 0, this_test = 0;
    if (!all)
        return;
    for (int i = 0; i < n && i < TL_MAX_LAUNCHES; i++)
        emu[i] = *tl_launch_get(i);
    int len = snprintf(key, sizeof key, "%s %d %d %d ", entry, s.rows, s.cols, s.depth);
    /* Every record of this call's shape (a lab's function launches the same work for the
     * same arguments, lab.h), each test's that made it: it must agree with each. */
    for (const char *line = all; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        int n_gpu = 0;
        unsigned long long gpu_digest = 0;
        char one[TL_COMPARE_LAUNCHES * (TL_LAUNCH_SYMBOL + 96) + 64];
        size_t end = strcspn(line, "\n");
        const char *own = line + strcspn(line, " ");
        if (!strncmp(line, tl_test_id, strlen(tl_test_id)) && line[strlen(tl_test_id)] == ' ')
            this_test = 1;
        if (!*own || strncmp(own + 1, key, (size_t)len) || end - (size_t)(own + 1 - line) - (size_t)len >= sizeof one)
            continue;
        line = own + 1, end = strcspn(line, "\n");
        snprintf(one, sizeof one, "%.*s", (int)(end - (size_t)len), line + len);
        if (tl_launches_read(one, &n_gpu, gpu, TL_COMPARE_LAUNCHES, &gpu_digest) != 0)
            continue;
        char this_why[sizeof why];
        if (tl_launches_differ(n_gpu, gpu, gpu_digest, n, emu, sms ? (unsigned)atoi(sms) : 0, this_why, sizeof this_why) &&
            !found++)
            snprintf(why, sizeof why, "%s", this_why);
    }
    /* The GPU's run of this check reached none of its calls: what ran there is not known. */
    cr_assert(this_test, "technique not given: on the GPU, this check's calls of your code did not finish "
                         "(a fault, a time-out, or your code ended its process), so what your code launched "
                         "there is not known, and technique, judged from the emulator's run, cannot be "
                         "given for it. The correctness tests, run on the GPU, say more.");
    if (found) {
        char call[256];
        tl_technique_call(fn, s, call, sizeof call);
        cr_assert_fail("technique not given: your call %s did not launch on the emulator what it launched "
                       "on the GPU: %s", call, why);
    }
}

static inline int tl_launches_of(void (*entry)(void), int rows, int cols, int depth)
{
    tl_verdict *v = &tl_technique_verdict;
    tl_shape s = {rows, cols, depth};
    tl_check_entry(v, entry, s);
    if (tl_todo_message())
        cr_assert_fail("not implemented yet: %s", tl_todo_message());
    int n = tl_launch_count();
    if (getenv("TILELAB_RECORD_LAUNCHES"))
        tl_record_launches(tl_lab_entry_of(entry), s, n);
    tl_compare_launches(entry, s, n);
    if (n > 0 && v->run_failed && !tl_technique_faulted[0]) {
        tl_technique_call(entry, s, tl_technique_faulted, sizeof tl_technique_faulted);
        snprintf(tl_technique_fault, sizeof tl_technique_fault, "%s", v->message);
    }
    char call[256];
    cr_assert(n > 0 || !v->run_failed || !tl_technique_faulted[0],
              "how your kernels are launched cannot be judged past your call %s: its kernel failed "
              "there, and after a kernel fails, the GPU's context is lost, so nothing of a later call "
              "runs, %s included. The correctness tests name the fault too; once they pass, this "
              "test judges the launch. That call: %s",
              tl_technique_faulted, tl_technique_call(entry, s, call, sizeof call), tl_technique_fault);
    cr_assert(n > 0 || !v->run_failed,
              "how your kernels are launched cannot be judged: the call failed before any launch of "
              "it was on record (a kernel that faulted or never ended; after a kernel faults, the "
              "GPU's context is lost and every later call fails; the correctness tests name what "
              "happened). Once they pass, this test judges the launch. %s",
              v->message);
    if (n == 0) {
        /* Which call: a technique check runs several shapes, and a file may launch for some. */
        tl_technique_call(entry, s, call, sizeof call);
        cr_assert_fail("your call, %s, launched no kernel. %s This test judges how your kernels "
                       "are launched, so every call, whatever its shape, does its work in a kernel of "
                       "yours: launch it with kernel<<<grid, block>>>(...) (a copy such as "
                       "cudaMemcpy is not a kernel of yours).",
                       call, v->ok ? "Its output was right, but no kernel of yours made it (a copy, "
                                     "or work on the host, did)."
                                   : v->message);
    }
    cr_assert(n <= TL_MAX_LAUNCHES, "one call made %d launches; the checks read %d at most, and "
                                    "one launch (a few at most) does this lab's work", n, TL_MAX_LAUNCHES);
    return n;
}
#define tl_launches(rows, cols) tl_launches_of(TL_ENTRY(transpose), rows, cols, 1)

/* How a message names launch i of n: nothing when there is one. */
static inline const char *tl_launch_named(int i, int n)
{
    static char name[64];
    if (n == 1)
        return "";
    snprintf(name, sizeof name, "launch %d of the %d your call made: ", i + 1, n);
    return name;
}


/*
 * The emulator's counts of one call, checked as tl_launches_of checks it, of
 * the work that made its output (emu.h's tl_emu_output): each launch and each
 * copy whose stores are in the output at the end, or whose results such work
 * read. A kernel run beside the one that does the work, whose stores are
 * overwritten or whose results nothing reads, is not counted: it is not part
 * of the answer. Totals (elements through a tile, threads, floats moved) are
 * summed over that work; a ratio (bytes a sector, passes an access) is judged
 * launch by launch (tl_made), since a launch that shows the technique beside
 * one that does not would otherwise lift the other's.
 */
static tl_lab_profile tl_technique_counts; /* the last counted call's */

static inline int tl_made_count(void)
{
    return tl_technique_counts.made;
}

static inline const tl_emu_stats *tl_made(int i)
{
    return &tl_technique_counts.made_by[i].stats;
}

/* How a message names the work judged: "your kernel k", and which of several. */
static inline const char *tl_made_named(int i)
{
    static char name[256];
    const char *k = tl_technique_counts.made_by[i].name;
    int n = tl_made_count();
    if (tl_made(i)->threads == 0) /* a copy or a memset: no thread of the lab's ran it */
        snprintf(name, sizeof name, "your %s", k);
    else
        snprintf(name, sizeof name, "your kernel %s", k);
    if (n > 1)
        snprintf(name + strlen(name), sizeof name - strlen(name),
                 " (launch %d of the %d launches and copies whose work made the output)", i + 1, n);
    return name;
}

/* What a message says of the call's work that made nothing of the output ("": there was none). */
static inline const char *tl_unmade_note(void)
{
    static char note[320];
    unsigned long long all = 0, made = 0;
    for (int i = 0; i < tl_technique_counts.kernels && i < TL_LAB_PROFILE_KERNELS; i++)
        all += tl_technique_counts.kernel[i].stats.launches;
    for (int i = 0; i < tl_made_count() && i < TL_LAB_PROFILE_MADE; i++)
        made += tl_made(i)->launches;
    note[0] = '\0';
    if (all > made)
        snprintf(note, sizeof note,
                 " %llu of the %llu launches and copies your call made wrote nothing that reached the "
                 "output (it was written over, or never read): they are not part of the answer, and "
                 "count for nothing here.",
                 all - made, all);
    return note;
}

static inline tl_emu_stats tl_counts_of(void (*entry)(void), int rows, int cols, int depth)
{
    tl_emu_stats sum;
    memset(&sum, 0, sizeof sum);
#ifdef TL_EMU
    tl_lab_count(1);
    tl_launches_of(entry, rows, cols, depth);
    tl_lab_count(0);
    tl_technique_counts = *tl_lab_counts();
    int n = tl_made_count();
    cr_assert(n >= 0 && n <= TL_LAB_PROFILE_MADE,
              "your call made more launches and copies that lead to its output than the checks "
              "read (%d at most): one launch (a few at most) does this lab's work",
              TL_LAB_PROFILE_MADE);
    for (int i = 0; i < n; i++) {
        const tl_emu_stats *k = tl_made(i);
        sum.launches += k->launches, sum.blocks += k->blocks, sum.threads += k->threads;
        sum.global_load_requests += k->global_load_requests, sum.global_load_sectors += k->global_load_sectors;
        sum.global_store_requests += k->global_store_requests, sum.global_store_sectors += k->global_store_sectors;
        sum.shared_load_requests += k->shared_load_requests, sum.shared_load_wavefronts += k->shared_load_wavefronts;
        sum.shared_store_requests += k->shared_store_requests, sum.shared_store_wavefronts += k->shared_store_wavefronts;
        sum.global_load_bytes += k->global_load_bytes, sum.global_store_bytes += k->global_store_bytes;
        sum.shared_load_ideal += k->shared_load_ideal, sum.shared_store_ideal += k->shared_store_ideal;
        sum.constant_load_requests += k->constant_load_requests, sum.constant_load_bytes += k->constant_load_bytes;
        sum.constant_load_passes += k->constant_load_passes;
        sum.barriers += k->barriers, sum.warp_collectives += k->warp_collectives;
        sum.warp_shuffles += k->warp_shuffles, sum.warp_syncs += k->warp_syncs;
        sum.divergent_requests += k->divergent_requests, sum.idle_blocks += k->idle_blocks;
        sum.global_atomic_requests += k->global_atomic_requests;
        sum.shared_atomic_requests += k->shared_atomic_requests;
    }
    cr_assert(sum.launches > 0 || !tl_technique_verdict.run_failed,
              "the emulator's counts of your kernels' work cannot be judged: the call failed (the "
              "correctness tests name the fault; once they pass, this test judges the technique). %s",
              tl_technique_verdict.message);
    cr_assert(sum.launches > 0, "none of your kernels' work reached the output: what your kernels "
                                "stored was written over or never read, so the emulator counted "
                                "no work of this lab's");
#else
    /* A GPU grading's record of what the GPU launched at this shape (tl_record_launches). */
    if (getenv("TILELAB_RECORD_LAUNCHES"))
        tl_launches_of(entry, rows, cols, depth);
    cr_skip_test("a technique check reads the emulator's counts of your kernels' run, which a GPU does "
                 "not give: make %s test GPU=emu runs it (the grader runs it so on every machine)",
                 TL_TECHNIQUE_SUITE(TL_SUITE));
#endif
    return sum;
}

/* Floats that shared-memory accesses moved at least: a conflict-free pass
 * serves 128 bytes, and the emulator counts the passes each access needed. */
static inline double tl_shared_floats(unsigned long long ideal_passes)
{
    return 32.0 * (double)ideal_passes;
}

/* Every element went into a shared tile and came out of it: `elements`
 * floats stored and as many loaded. */
static inline void tl_expect_staged(const tl_emu_stats *t, double elements)
{
    double stored = tl_shared_floats(t->shared_store_ideal), loaded = tl_shared_floats(t->shared_load_ideal);
    cr_assert(t->shared_store_requests + t->shared_load_requests > 0,
              "%s made no shared-memory access at all while they ran, so they cannot be the "
              "tiled kernel of this lab (a __shared__ array declared and never used does nothing). "
              "It may pass the correctness tests, but every element goes straight from global memory "
              "to global memory. Stage a tile in a __shared__ array: README.md, step 2.%s",
              tl_unmade_note()[0] ? "the kernels whose work made the output" : "your kernels",
              tl_unmade_note());
    if (stored >= elements && loaded >= elements)
        return;
    /* What became of the elements the tile did not take: a path is named only for those
     * that were written to global memory at all, past what came out of the tile. */
    double written = (double)t->global_store_bytes / sizeof(float);
    double unwritten = elements - written, skipped = written - loaded;
    char why[512] = "";
    if (unwritten >= 1)
        snprintf(why, sizeof why,
                 " Your kernels wrote only %.0f floats to global memory: %.0f elements of out were "
                 "never written at all, through the tile or past it (the correctness tests name "
                 "which; a block of fewer threads than the kernel's tile, or threads that stop "
                 "early, leave them).%s",
                 written, unwritten,
                 skipped >= 1 ? " Of those written, some skipped the tile, from global memory "
                                "straight to global memory as lab 3's do." : "");
    else
        snprintf(why, sizeof why, " The elements that skip it go through global memory as lab 3's do.");
    /* The passes bound the bytes moved, not the floats: a warp's store of one pointer takes a
     * pass, as 32 floats' would (a tile from malloc, its address shared through a __shared__
     * pointer: "stored 2048 floats", 2026-11-28). So the side that falls short is named by the
     * most it could have moved. */
    char shortfall[320];
    if (stored < elements && loaded < elements)
        snprintf(shortfall, sizeof shortfall, "your kernels' stores to shared memory and their reads of it "
                 "took %.0f and %.0f passes of at most 128 bytes: room for %.0f and %.0f floats at "
                 "most", stored / 32, loaded / 32, stored, loaded);
    else
        snprintf(shortfall, sizeof shortfall, "your kernels' %s took %.0f passes of at most 128 bytes: room "
                 "for %.0f floats at most (what they moved there may be no element at all: a "
                 "pointer or an index kept in shared memory)",
                 stored < elements ? "stores to shared memory" : "reads of shared memory",
                 (stored < elements ? stored : loaded) / 32, stored < elements ? stored : loaded);
    cr_assert_fail("each element must pass through the tile (in, tile, out), but %s, fewer than the "
                   "%.0f elements of the matrix.%s",
                   shortfall, elements, why);
}

/* Global reads and writes use most of each 32-byte sector they move (a
 * whole row of a tile at a time): 12.5 % is a float a sector, lab 3's writes.
 * Reads of __constant__ memory are reads too: the constant cache hands a warp
 * one address a pass, so lanes that read different addresses take turns.
 * Each launch that made the output is judged on its own. */
static inline void tl_expect_coalesced_by(const tl_emu_stats *t, const char *whose)
{
    double per_request = t->constant_load_requests
                             ? (double)t->constant_load_passes / (double)t->constant_load_requests
                             : 1;
    cr_assert(per_request <= 1.5,
              "%s read __constant__ memory at %.1f different addresses a warp: the "
              "constant cache serves a warp one address at a time (it is built for a value all the "
              "lanes read alike), so those reads take turns, as a strided read's sectors do. Reading "
              "the matrix through it at a transposed index is lab 3's transpose, one lane at a time. "
              "This lab's reads and writes go through a tile in shared memory: a warp reads a row of "
              "in and writes a row of out (README.md, step 2).",
              whose, per_request);
    double load = t->global_load_sectors ? t->global_load_bytes / (32.0 * t->global_load_sectors) : 1,
           store = t->global_store_sectors ? t->global_store_bytes / (32.0 * t->global_store_sectors) : 1;
    if (load >= 0.7 && store >= 0.7)
        return;
    /* Why a sector goes part unused: lab 3's strided column, a float a sector, or lanes whose
     * floats lie a little apart (a float2 a lane, stored by two instructions, leaves every
     * other float of a sector to the other one), which no tile is needed to see. */
    int writes = store < 0.7;
    double sectors = writes ? (double)t->global_store_sectors / (double)(t->global_store_requests ? t->global_store_requests : 1)
                                : (double)t->global_load_sectors / (double)(t->global_load_requests ? t->global_load_requests : 1);
    const char *kind = writes ? "writes" : "reads";
    char why[320];
    if (sectors >= 16)
        snprintf(why, sizeof why, "they are strided, as lab 3's %s are (a float a sector), so the "
                                  "tile changed nothing", kind);
    else
        snprintf(why, sizeof why, "in each instruction the lanes of a warp %s floats that lie apart, "
                                  "not side by side (lanes 2 floats apart use half of each sector)",
                 writes ? "write" : "read");
    cr_assert_fail("the global %s of %s used %.0f %% of the bytes of the 32-byte sectors they moved "
                   "(%.1f sectors a request, where a warp's 32 floats side by side take 4): %s. With "
                   "a tile, a warp reads a row of in and writes a row of out: threadIdx.x runs along a "
                   "row both times, one float a lane in each instruction, and the tile is read by "
                   "column (tile[threadIdx.x][threadIdx.y]). README.md, step 2.",
                   kind, whose, 100 * (writes ? store : load), sectors, why);
}

/* Every kernel launch that made the output; a copy's or a memset's requests are a copy
 * kernel's, whole rows at a time, however few bytes it moves (a counter of 4 bytes). */
static inline void tl_expect_coalesced(void)
{
    for (int i = 0; i < tl_made_count(); i++)
        if (tl_made(i)->threads > 0)
            tl_expect_coalesced_by(tl_made(i), tl_made_named(i));
}

/* Shared accesses take about as few passes as a padded tile's: one each
 * with TILE_DIM 32 (the launches' block width), where an unpadded tile's
 * column takes 32; with a narrower tile a warp spans 32 / TILE_DIM of its
 * rows, and a padded one still takes 2 (measured at 8 and 16; at 8 an
 * unpadded one takes 2 as well: there is nothing to remove). Each launch
 * that made the output is judged on its own. */
static inline void tl_expect_conflict_free_by(const tl_emu_stats *t, const char *whose)
{
    unsigned width = 32;
    for (int i = 0; i < tl_launch_count() && i < TL_MAX_LAUNCHES; i++)
        if (tl_launch_get(i)->block[0] < width)
            width = tl_launch_get(i)->block[0];
    double allowed = width >= 32 ? 1.5 : 3,
           load = t->shared_load_ideal ? (double)t->shared_load_wavefronts / (double)t->shared_load_ideal : 1,
           store = t->shared_store_ideal ? (double)t->shared_store_wavefronts / (double)t->shared_store_ideal : 1;
    /* A tile with room for its padding, S x (S + 1) floats (or several such), read at a stride
     * of S floats: the padding is declared and never used. */
    long long stride = t->shared_worst_stride / 4, words = (long long)(t->shared_worst_array_bytes / 4);
    int pad_unused = t->shared_worst_stride % 4 == 0 && stride >= 2 && words > 0 &&
                     words % (stride * (stride + 1)) == 0;
    cr_assert((load <= allowed && store <= allowed) || !pad_unused,
              "the tile %s of %s took %.1f passes each on average (a warp at the matrix's edge has fewer "
              "threads, and so fewer conflicts) where a padded tile's take %s: the threads of a "
              "warp want different words of the same bank. Your tile has room for its padding "
              "(%lld floats: %lld x %lld), but your index steps %lld floats from one thread to the "
              "next, the row length of a tile without padding, so a column's words still lie %lld "
              "apart, all in one bank, and the extra float of each row is never used. Index the rows "
              "by their padded length: tile[y][x] on the 2-D array, or y * (TILE_DIM + 1) + x on a "
              "flat one. README.md explains why.",
              load > allowed ? "reads" : "writes", whose, load > allowed ? load : store, width >= 32 ? "1" : "2",
              words, words / (stride + 1), stride + 1, stride, stride);
    if (load <= allowed && store <= allowed)
        return;
    /* Why a column's words share banks: its words lie `stride` floats apart, and a stride with
     * g = gcd(stride, 32) puts 32 words in 32 / g banks, g to a bank (a tile's rows of 32
     * floats: one bank; of 34: 16 banks, 2 a bank). Where the lanes do not step evenly, the
     * unpadded tile's column is the usual cause. */
    long long g = 0;
    if (stride > 0 && t->shared_worst_stride % 4 == 0) {
        long long a = stride, b = 32;
        while (b) {
            long long r = a % b;
            a = b, b = r;
        }
        g = a;
    }
    char why[512];
    if (g > 1 && stride != 32)
        snprintf(why, sizeof why,
                 "Your index steps %lld floats from one thread to the next, so a column's words lie "
                 "%lld apart: a row length that shares the factor %lld with the 32 banks puts a "
                 "warp's 32 words in %lld bank(s), %lld to a bank (an odd row length, such as "
                 "TILE_DIM + 1, puts them in 32)",
                 stride, stride, g, 32 / g, g);
    else
        snprintf(why, sizeof why, "Reading a column of a TILE_DIM x TILE_DIM float tile puts all its "
                                  "words in one bank");
    cr_assert_fail("the tile %s of %s took %.1f passes each on average (a warp at the matrix's edge has "
                   "fewer threads, and so fewer conflicts) where a padded tile's take %s: the threads "
                   "of a warp want different words of the same bank. %s; pad each row by one float, "
                   "tile[TILE_DIM][TILE_DIM + 1], so that a column's words lie in 32 banks (the extra "
                   "row of tile[TILE_DIM + 1][TILE_DIM] moves nothing: a column stays TILE_DIM words "
                   "apart). README.md explains why.",
                   load > allowed ? "reads" : "writes", whose, load > allowed ? load : store,
                   width >= 32 ? "1" : "2", why);
}

/* A padded tile is read a warp at a time: one pass for each 32 elements (two where a warp
 * spans two rows of a tile narrower than 32), the matrix rounded up to whole tiles. Passes per
 * access alone miss a warp whose lanes each read the column by a branch of their own (a switch
 * on the thread's index, a case an element): every access one lane's and conflict-free, 32 of
 * them for a warp's column, as many passes as an unpadded tile's conflicts, however the lanes
 * are split (8.90 of 10 in lab 5 against the unpadded tile's 5.90:
 * tests/hostile/lab05-namespace-shared-constant-offsets.cu). A tile read twice over by idle
 * threads that repeat the others' rows (tests/emu_corpus/lab06-block-twice-block-rows.cu, which
 * an H200 passes) takes 2 a 32 elements: up to 4 (8 with a narrow tile) are allowed. */
static inline void tl_expect_shared_reads_whole(const tl_emu_stats *t, int rows, int cols)
{
    unsigned width = 32;
    for (int i = 0; i < tl_launch_count() && i < TL_MAX_LAUNCHES; i++)
        if (tl_launch_get(i)->block[0] < width)
            width = tl_launch_get(i)->block[0];
    double allowed = width >= 32 ? 4 : 8, whole = tl_tiled_area(rows, cols, width ? width : 1) / 32.0;
    cr_assert((double)t->shared_load_wavefronts <= allowed * whole,
              "your kernels' reads of shared memory took %llu passes for the %d x %d matrix, where a "
              "padded tile's take one for each 32 elements (%.0f), in %llu reads. Where each read "
              "is conflict-free, the threads of a warp read the tile apart, in branches of their own "
              "(a switch or an if on threadIdx), a few lanes' elements a pass: a column of an "
              "unpadded tile costs as many passes so, however its lanes are split. Read it in one "
              "access for the whole warp, tile[threadIdx.x][threadIdx.y] on the padded tile: "
              "README.md, step 2.",
              t->shared_load_wavefronts, rows, cols, whole, t->shared_load_requests);
}

static inline void tl_expect_conflict_free(void)
{
    for (int i = 0; i < tl_made_count(); i++)
        if (tl_made(i)->threads > 0)
            tl_expect_conflict_free_by(tl_made(i), tl_made_named(i));
}

/* A product's operands reach its multiply-adds from shared tiles: each float
 * the kernels move from global memory (in the 32-byte sectors they move) or
 * read from __constant__ memory (the distinct floats a warp's request wants,
 * which the constant cache hands out one address a pass) serves `reuse`
 * multiply-adds at least. A naive kernel's serve 2 at most (a warp's row of
 * A is one float for all its lanes); tiles of T x T, T. */
static inline void tl_expect_tile_reuse(const tl_emu_stats *t, int m, int n, int k, double reuse)
{
    double operands = 2.0 * m * n * k, constant = (double)t->constant_load_bytes / sizeof(float),
           moved = 8.0 * (double)t->global_load_sectors + constant;
    cr_assert(moved * reuse <= operands,
              "your kernels moved %.0f floats from global memory (in 32-byte sectors)%s for the %.0f "
              "operands of the %d x %d x %d product's multiply-adds: each serves %.1f of them, as "
              "when every thread reads its own row of A and column of B. A tile of TILE_WIDTH x "
              "TILE_WIDTH floats staged in shared memory serves TILE_WIDTH (at least %.0f here). "
              "README.md, step 2.%s",
              moved, constant >= 1 ? ", __constant__ memory included," : "", operands, m, n, k,
              operands / (moved > 0 ? moved : 1), reuse, tl_unmade_note());
    cr_assert(t->shared_store_requests > 0 && tl_shared_floats(t->shared_load_ideal) >= moved,
              "your kernels move few floats from global memory, but not through shared tiles (they "
              "stored %.0f floats in shared memory and read %.0f back): this lab's technique stages "
              "tiles of A and B in shared memory, where all the threads of a block read them.",
              tl_shared_floats(t->shared_store_ideal), tl_shared_floats(t->shared_load_ideal));
}

