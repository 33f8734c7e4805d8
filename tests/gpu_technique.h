/*
 * Technique checks for the GPU labs that need no GPU: what the compiler
 * reports about each kernel (ptxas -v, or the emulator's device-code.sh,
 * saved at build time as resources.txt beside the test binary) and the configuration transpose() launches with,
 * which the harness records even when no device is present.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "tl_test.h"

/* resources.txt in the test binary's own folder: found from the binary, so
 * that a build folder moved or mounted elsewhere still works. */
static inline FILE *tl_open_resources(char *path, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", path, len - sizeof "resources.txt");
    char *slash = n > 0 ? memchr(path, '/', (size_t)n) : NULL;
    if (!slash)
        return NULL;
    path[n] = '\0';
    strcpy(strrchr(path, '/') + 1, "resources.txt");
    return fopen(path, "r");
}

/*
 * A kernel's name in either compiler's report, or in a launch (launch.h),
 * cut to the function's own identifier, so that names written three ways
 * meet: "coalesced<float, TILE_DIM>" (the source, as the emulator's launch
 * gives it), "coalesced<float, 32>" (the emulator's report) and
 * "_Z9coalescedIfLi32EEvPT_PKS0_ii" (ptxas's report, a GPU's launch) are
 * all "coalesced".
 */
static inline void tl_kernel_base(const char *name, char *base, size_t len)
{
    const char *at = name, *end;
    if (!strncmp(name, "_Z", 2)) { /* <length><identifier>, the last of a nested name _ZN..E */
        at = name + 2 + (name[2] == 'N');
        const char *id = at;
        long n = 0;
        while (*at >= '0' && *at <= '9' && (n = strtol(at, (char **)&end, 10)) > 0 && (long)strlen(end) >= n) {
            id = end, at = end + n;
            if (name[2] != 'N')
                break;
        }
        snprintf(base, len, "%.*s", (int)(at - id), id);
        return;
    }
    end = at + strcspn(at, "<(");
    for (const char *c = at; c + 1 < end; c++)
        if (c[0] == ':' && c[1] == ':')
            at = c + 2;
    while (*at == ' ')
        at++;
    while (end > at && end[-1] == ' ')
        end--;
    snprintf(base, len, "%.*s", (int)(end - at), at);
}

/*
 * The static shared memory of the kernel named by a line of either
 * compiler's report, in bytes, or -1 for a line that gives none; *kernel
 * follows the kernel ptxas is at (its lines name it once, then its sizes):
 *   nvcc (ptxas -v):  ptxas info    : Compiling entry function '_Z9transposePfPKfii' for 'sm_90'
 *                     ptxas info    : Used 10 registers, 4224 bytes smem, 400 bytes cmem[0]
 *                     (no "bytes smem" where it has none)
 *   the emulator:     emulator: kernel 'transpose' uses 4224 bytes of shared memory ...
 */
static inline long tl_shared_bytes_of(const char *line, char *kernel, size_t len)
{
    const char *at, *end;
    if (!strncmp(line, "emulator: kernel '", 18) && (at = strstr(line, "' uses "))) {
        snprintf(kernel, len, "%.*s", (int)(at - line - 18), line + 18);
        return strtol(at + 7, NULL, 10);
    }
    if (strncmp(line, "ptxas info", 10))
        return -1;
    if ((at = strstr(line, "entry function '")) && (end = strchr(at + 16, '\''))) {
        snprintf(kernel, len, "%.*s", (int)(end - at - 16), at + 16);
        return -1;
    }
    if (!strstr(line, ": Used "))
        return -1;
    if (!(at = strstr(line, " bytes smem"))) /* ptxas leaves out a size of 0 */
        return 0;
    while (at > line && at[-1] >= '0' && at[-1] <= '9')
        at--;
    return strtol(at, NULL, 10);
}

/*
 * The static shared memory of the kernel a launch ran, in bytes, from the
 * compiler's report beside the test: the kernel of that name (of that base
 * name, where the launch and the report write it differently; the most, for
 * a template built more than once). A launch whose kernel the report does
 * not name (one made through a function pointer) gets the most any kernel
 * of the lab file declares.
 */
static inline long tl_kernel_shared_bytes(const char *launched)
{
    char line[512], path[4096] = "", kernel[TL_LAUNCH_NAME] = "", base[TL_LAUNCH_NAME], want[TL_LAUNCH_NAME];
    long exact = -1, same_base = -1, most = 0;
    FILE *f = tl_open_resources(path, sizeof path);
    if (!f)
        cr_assert_fail("cannot read the compiler's report %s beside the test: rebuild with make", path);
    tl_kernel_base(launched, want, sizeof want);
    while (fgets(line, sizeof line, f)) {
        long bytes = tl_shared_bytes_of(line, kernel, sizeof kernel);
        if (bytes < 0)
            continue;
        tl_kernel_base(kernel, base, sizeof base);
        if (*launched && !strcmp(kernel, launched) && bytes > exact)
            exact = bytes;
        if (*want && !strcmp(base, want) && bytes > same_base)
            same_base = bytes;
        if (bytes > most)
            most = bytes;
    }
    fclose(f);
    return exact >= 0 ? exact : same_base >= 0 ? same_base : most;
}

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
static inline int tl_launches_of(void (*entry)(void), int rows, int cols, int depth)
{
    static tl_verdict v;
    tl_shape s = {rows, cols, depth};
    if (entry == (void (*)(void))transpose)
        tl_check_transpose(&v, transpose, tl_test_backend(), s, tl_test_seed());
    else if (entry == (void (*)(void))transpose_inplace)
        tl_check_inplace(&v, transpose_inplace, tl_test_backend(), rows, tl_test_seed());
    else
        tl_check_matmul(&v, (tl_matmul_fn)entry, entry != (void (*)(void))matmul_naive,
                        tl_test_backend(), s, tl_test_seed());
    if (tl_todo_message())
        cr_assert_fail("not implemented yet: %s", tl_todo_message());
    int n = tl_launch_count();
    cr_assert(n > 0, "no kernel was launched (launch yours with kernel<<<grid, block>>>(...)): %s",
              v.message);
    cr_assert(n <= TL_MAX_LAUNCHES, "one call made %d launches; the checks read %d at most, and "
                                    "one launch (a few at most) does this lab's work", n, TL_MAX_LAUNCHES);
    return n;
}
#define tl_launches(rows, cols) tl_launches_of((void (*)(void))transpose, rows, cols, 1)

/* How a message names launch i of n: nothing when there is one. */
static inline const char *tl_launch_named(int i, int n)
{
    static char name[64];
    if (n == 1)
        return "";
    snprintf(name, sizeof name, "launch %d of the %d your call made: ", i + 1, n);
    return name;
}

/* The shared memory a launch has: its kernel's static arrays and the
 * dynamic bytes it asked for. */
static inline long tl_launch_shared_bytes(const tl_launch *l)
{
    return tl_kernel_shared_bytes(l->kernel) + (long)l->shared;
}

/* Launch i of n has a shared tile, padded or not, TILE_DIM its block's x. */
static inline void tl_expect_shared_tile(int i, int n, int padded)
{
    const tl_launch *l = tl_launch_get(i);
    int side = (int)l->block[0];
    long need = (long)side * (side + (padded ? 1 : 0)) * (long)sizeof(float);
    long have = tl_launch_shared_bytes(l);
    cr_assert(have > 0,
              "%syour kernel uses no shared memory, so it cannot be the tiled transpose of this "
              "lab. It may pass the correctness tests, but every write it makes is strided "
              "(lab 3). Stage a tile in a __shared__ array: README.md, step 2.",
              tl_launch_named(i, n));
    cr_assert(have >= need,
              "%syour kernel has %ld bytes of shared memory; a %s tile of %d x %d floats needs "
              "%ld (blocks of %d threads in x, so TILE_DIM is %d).%s",
              tl_launch_named(i, n), have, padded ? "padded" : "whole", side, side + (padded ? 1 : 0), need, side, side,
              padded && have >= (long)side * side * 4
                  ? " Pad each row by one float, tile[TILE_DIM][TILE_DIM + 1]: README.md explains "
                    "why that removes the bank conflicts."
                  : "");
}
