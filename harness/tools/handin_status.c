/*
 * handin-status BUILD NN:FILE...
 *
 * What make handin says of each lab file it packs: a stub still, or unfinished
 * (it calls TODO(), as every stub does and no finished lab does), passing N of M (its
 * last `make labN test`, read from the TAP file the suite wrote beside its
 * build, BUILD/labNN/student or student-emu/last-test.tap), edited since that
 * run (its bytes differ from those the run began with, BUILD/labNN/.../last-test.digest, which
 * make labN test writes by `handin-status --digest FILE`; where there is none, its time is later),
 * did not build at that run, or never tested. Exits 0; prints a warning when any lab
 * is a stub still, did not build, or includes a header beside it (which is not packed),
 * since such a lab scores 0 however the rest of the hand-in does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The line of the first TODO(" call, 0 when none: the stubs' way of failing with what to do. */
static int todo_line(const char *path)
{
    char line[4096];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f)) {
        n++;
        char *t = strstr(line, "TODO(\"");
        /* Not inside a comment that quotes it: what precedes it on the line is code or blank. */
        if (t && !strstr(line, "/*") && !strstr(line, "//")) {
            fclose(f);
            return n;
        }
    }
    fclose(f);
    return 0;
}

/* Tests passed and run in a TAP file; skipped ones (no held-back shapes here) count as neither.
 * *unbuilt: the file holds only the line make labN test writes before its build, which a
 * suite's report replaces: the build failed. */
static int tap_counts(const char *path, int *passed, int *run, int *unbuilt)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    *passed = *run = *unbuilt = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "# tilelab: make lab", 19) == 0 && strstr(line, "the build did not finish"))
            *unbuilt = 1;
        if (strstr(line, "# SKIP"))
            continue;
        if (strncmp(line, "ok ", 3) == 0)
            ++*passed, ++*run;
        else if (strncmp(line, "not ok ", 7) == 0)
            ++*run;
    }
    fclose(f);
    return 1;
}

static time_t modified(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_mtime : 0;
}

/* A digest of the file's bytes (FNV-1a, 64 bits) and its length, as one line: what make labN
 * test records of the file it tests. 0 where it cannot be read. */
static int digest(const char *path, char *line, size_t size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned long long h = 0xcbf29ce484222325ull, bytes = 0;
    int c;
    while ((c = getc(f)) != EOF)
        h = (h ^ (unsigned char)c) * 0x100000001b3ull, bytes++;
    fclose(f);
    snprintf(line, size, "fnv1a64 %016llx %llu", h, bytes);
    return 1;
}

/* Whether file was edited since the test run whose TAP report is tap, begun at `since`: its
 * bytes differ from the digest recorded beside the report when the run began; without one,
 * whether the file is newer (a checkout or an editor that saves unchanged bytes moves a file's
 * time, not its bytes). */
static int edited_since(const char *file, const char *tap, time_t since)
{
    char path[4096], recorded[128] = "", now[128];
    const char *slash = strrchr(tap, '/');
    snprintf(path, sizeof path, "%.*s/last-test.digest", slash ? (int)(slash - tap) : 1, slash ? tap : ".");
    FILE *f = fopen(path, "r");
    int have = f && fgets(recorded, sizeof recorded, f);
    if (f)
        fclose(f);
    recorded[strcspn(recorded, "\n")] = 0;
    if (have && recorded[0] && digest(file, now, sizeof now))
        return strcmp(now, recorded) != 0;
    return modified(file) > since;
}

/* The first #include "NAME" of the lab file whose NAME lies beside it (its folder),
 * into beside; 0 when none. make labN test compiles the file where it lies, so such a
 * header is found there; make handin packs the lab file alone and the grader builds
 * it alone, where the header is missing: the lab does not build. */
static int includes_beside(const char *path, char *beside, size_t size)
{
    char line[4096];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p++ != '#')
            continue;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "include", 7) != 0)
            continue;
        p += 7;
        while (*p == ' ' || *p == '\t')
            p++;
        char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
        if (!end)
            continue;
        snprintf(beside, size, "%.*s%.*s", dir, path, (int)(end - p - 1), p + 1);
        found = modified(beside) != 0;
    }
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--digest") == 0) {
        char line[128];
        if (!digest(argv[2], line, sizeof line)) {
            perror(argv[2]);
            return 1;
        }
        puts(line);
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: handin-status BUILD NN:FILE...\n       handin-status --digest FILE\n");
        return 2;
    }
    const char *build = argv[1];
    char stubs[512] = "", unbuilt_labs[512] = "";
    /* Each lab's header beside it, said after the labs' lines (at most one a lab). */
    struct { int lab; char header[1024], file[1024]; } beside[16];
    int besides = 0;
    for (int i = 2; i < argc; i++) {
        char lab[8] = "";
        const char *file = strchr(argv[i], ':');
        if (!file || file - argv[i] >= (long)sizeof lab)
            continue;
        memcpy(lab, argv[i], (size_t)(file - argv[i]));
        file++;
        int number = atoi(lab);
        printf("  lab %-2d  %-36s ", number, file); /* lab 10 in line with lab 9 */
        if (!modified(file)) {
            printf("missing: not packed\n");
            continue;
        }
        if (besides < 16 && includes_beside(file, beside[besides].header, sizeof beside[besides].header)) {
            beside[besides].lab = number;
            snprintf(beside[besides++].file, sizeof beside[0].file, "%s", file);
        }
        int todo = todo_line(file);
        if (todo) {
            printf("a stub still, or unfinished: it calls TODO() at line %d\n", todo);
            size_t n = strlen(stubs);
            snprintf(stubs + n, sizeof stubs - n, "%s%d", n ? ", " : "", number);
            continue;
        }
        /* The newest of its test runs: on the CPU, a GPU, or the emulator. */
        const char *dirs[] = {"student", "student-emu"};
        char tap[4096] = "";
        time_t newest = 0;
        for (int d = 0; d < 2; d++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/lab%s/%s/last-test.tap", build, lab, dirs[d]);
            if (modified(path) > newest)
                newest = modified(path), snprintf(tap, sizeof tap, "%s", path);
        }
        int passed, run, unbuilt;
        if (!newest || !tap_counts(tap, &passed, &run, &unbuilt)) {
            printf("edited, never tested: make lab%d test\n", number);
        } else if (unbuilt && !run) {
            char when[32];
            strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&newest));
            printf("did not build at its last make lab%d test (%s)%s\n", number, when,
                   edited_since(file, tap, newest) ? "; edited since: test it again" : "");
            size_t n = strlen(unbuilt_labs);
            snprintf(unbuilt_labs + n, sizeof unbuilt_labs - n, "%s%d", n ? ", " : "", number);
        } else {
            char when[32];
            strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&newest));
            printf("passing %d of %d (make lab%d test, %s)%s\n", passed, run, number, when,
                   edited_since(file, tap, newest) ? "; edited since: test it again" : "");
        }
    }
    for (int i = 0; i < besides; i++)
        printf("warning: lab %d includes %s, which make handin does not pack: the grader builds\n"
               "  %s alone, where it does not build and scores 0. Put what the header holds\n"
               "  into %s itself, test again, and hand in again.\n",
               beside[i].lab, beside[i].header, beside[i].file, beside[i].file);
    if (stubs[0]) {
        int many = strchr(stubs, ',') != NULL;
        printf("warning: lab%s %s still call%s TODO(), as the stub%s do%s: each test that reaches it fails and\n"
               "  scores 0. Finish %s, or pack only the labs your course asks for: make handin LABS=\"1 2\"\n",
               many ? "s" : "", stubs, many ? "" : "s", many ? "s" : "", many ? "" : "es", many ? "them" : "it");
    }
    if (unbuilt_labs[0]) {
        int many = strchr(unbuilt_labs, ',') != NULL;
        printf("warning: lab%s %s did not build at %s last test: a lab that does not build scores 0.\n"
               "  Read the first error that make labN test prints, fix it, and test again.\n",
               many ? "s" : "", unbuilt_labs, many ? "their" : "its");
    }
    return 0;
}
