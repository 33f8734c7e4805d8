/*
 * The sandbox's command line (grade_sandbox.h): what a hand-in's command sees.
 */
#define _GNU_SOURCE
#include "grade_sandbox.h"

#include <dirent.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a hand-in's build needs of the kit's folder: its sources, never the
 * solutions, nor hand-ins an instructor keeps there (#include "../../../handins/y/...").
 * Of tests/, the files alone: its folders hold working kernels (the emulator's
 * corpus, the hostile hand-ins), shown empty. */
static const char *const kit_sources[] = {"Makefile", "labs", "harness", "tests"};
/* The system's folders, read-only (a link among them, as /lib on a merged /usr, as a link). */
static const char *const system_dirs[] = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/sys"};

void tl_argv_add(tl_argv *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
        if (!a->v) {
            perror("grade-sandbox");
            exit(1);
        }
    }
    a->v[a->n] = strdup(s);
    if (!a->v[a->n]) {
        perror("grade-sandbox");
        exit(1);
    }
    a->v[++a->n] = NULL;
}

static void add2(tl_argv *a, const char *x, const char *y)
{
    tl_argv_add(a, x);
    tl_argv_add(a, y);
}

static void add3(tl_argv *a, const char *x, const char *y, const char *z)
{
    tl_argv_add(a, x);
    tl_argv_add(a, y);
    tl_argv_add(a, z);
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v ? v : fallback;
}

int tl_sandbox_environment(tl_sandbox *sb)
{
    static const char *const search[TL_SANDBOX_SEARCH] = {"CPATH", "LIBRARY_PATH", "LD_LIBRARY_PATH", "VALGRIND_LIB"};
    sb->tools = env_or("TOOLS", "");
    sb->prebuilt = env_or("PREBUILT", "");
    sb->submissions = env_or("SUBMISSIONS", "");
    sb->hidden = env_or("HIDDEN", "");
    sb->path = env_or("PATH", "/usr/bin:/bin");
    /* Each search path the grader has, by NAME=VALUE, as its environment holds it. */
    extern char **environ;
    sb->n_search = 0;
    for (int k = 0; k < TL_SANDBOX_SEARCH; k++) {
        const char *v = getenv(search[k]);
        if (!v || !*v)
            continue;
        for (char **e = environ; *e; e++)
            if (!strncmp(*e, search[k], strlen(search[k])) && (*e)[strlen(search[k])] == '=')
                sb->search[sb->n_search++] = *e;
    }
    sb->compilers[0] = env_or("CC", "cc");
    sb->compilers[1] = env_or("NVCC", "nvcc");
    sb->compilers[2] = env_or("VALGRIND", "");
    return *sb->tools && *sb->prebuilt ? 0 : -1;
}

void tl_argv_free(tl_argv *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
    a->v = NULL;
    a->n = a->cap = 0;
}

/* Appends a followed by b, one argument (a variable's NAME= and its value, a path's parts). */
static void add_cat(tl_argv *out, const char *a, const char *b)
{
    char *s;
    if (asprintf(&s, "%s%s", a, b) < 0) {
        perror("grade-sandbox");
        exit(1);
    }
    tl_argv_add(out, s);
    free(s);
}

/* s starts with prefix */
static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Each folder of a colon-separated list, to f(folder, arg). */
static void each_dir(const char *list, void (*f)(const char *, void *), void *arg)
{
    char *copy = strdup(list ? list : ""), *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
        f(d, arg);
    free(copy);
}

/* A tool's installation: the folder above the one that holds it, as the grader
 * finds it on its PATH (its compilers under /opt/..., say). NULL where not found. */
static char *installation(const char *tool, const char *path)
{
    char found[PATH_MAX], real[PATH_MAX];
    if (!tool || !*tool)
        return NULL;
    if (strchr(tool, '/')) {
        snprintf(found, sizeof found, "%s", tool);
    } else {
        char *copy = strdup(path ? path : ""), *save = NULL;
        found[0] = '\0';
        for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
            snprintf(found, sizeof found, "%s/%s", *d ? d : ".", tool);
            if (access(found, X_OK) == 0)
                break;
            found[0] = '\0';
        }
        free(copy);
    }
    if (!found[0] || !realpath(found, real))
        return NULL;
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(real, '/');
        if (!slash)
            return NULL;
        if (slash == real)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    return strdup(real);
}

typedef struct {
    const tl_sandbox *sb;
    tl_argv *out;
} view_arg;

/* One folder of the grader's tools, read-only where the system's folders and the kit
 * do not show it already. */
static void tool_dir(const char *d, void *arg)
{
    view_arg *v = arg;
    char real[PATH_MAX];
    struct stat st;
    if (!*d || stat(d, &st) != 0 || !S_ISDIR(st.st_mode) || !realpath(d, real))
        return;
    const char *root = v->sb->root;
    size_t n = strlen(root);
    /* the kit itself, or its build folder: the kit's view says what of them shows */
    int in_kit = !strncmp(real, root, n) && (!real[n] || !strcmp(real + n, "/build") || starts(real + n, "/build/"));
    if (starts(real, "/usr/") || !strcmp(real, "/usr") || starts(real, "/bin/") || !strcmp(real, "/bin") ||
        starts(real, "/sbin/") || !strcmp(real, "/sbin") || starts(real, "/lib") || starts(real, "/etc/") ||
        !strcmp(real, "/etc") || in_kit || !strcmp(real, "/"))
        return;
    add3(v->out, "--ro-bind", real, real);
}

/* What the hand-in sees of the machine: the system's folders and the grader's tools
 * (every folder of the grader's PATH and search paths, the installations of its
 * compilers and of valgrind), read-only. Not the rest: another checkout's
 * solutions, an instructor's home. */
static void machine_view(const tl_sandbox *sb, tl_argv *out)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++) {
        struct stat st;
        char target[PATH_MAX];
        if (lstat(system_dirs[i], &st) != 0)
            continue;
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(system_dirs[i], target, sizeof target - 1);
            if (n < 0)
                continue;
            target[n] = '\0';
            add3(out, "--symlink", target, system_dirs[i]);
        } else if (S_ISDIR(st.st_mode)) {
            add3(out, "--ro-bind", system_dirs[i], system_dirs[i]);
        }
    }
    view_arg v = {sb, out};
    each_dir(sb->path, tool_dir, &v);
    for (int i = 0; i < sb->n_search; i++)
        each_dir(strchr(sb->search[i], '=') + 1, tool_dir, &v);
    for (int i = 0; i < 3; i++) {
        char *inst = installation(sb->compilers[i], sb->path);
        if (inst)
            tool_dir(inst, &v);
        free(inst);
    }
}

/* The kit's folder: its sources alone, the folders of tests/ shown empty. */
static void kit_view(const tl_sandbox *sb, tl_argv *out)
{
    char p[PATH_MAX];
    for (size_t i = 0; i < sizeof kit_sources / sizeof *kit_sources; i++) {
        snprintf(p, sizeof p, "%s/%s", sb->root, kit_sources[i]);
        add3(out, "--ro-bind", p, p);
    }
    glob_t g;
    snprintf(p, sizeof p, "%s/tests/*/", sb->root);
    if (glob(p, GLOB_MARK, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            snprintf(p, sizeof p, "%s", g.gl_pathv[i]);
            p[strlen(p) - 1] = '\0'; /* GLOB_MARK's slash */
            add2(out, "--tmpfs", p);
            add2(out, "--remount-ro", p);
        }
        globfree(&g);
    }
}

static void gpu_nodes(tl_argv *out)
{
    glob_t g;
    const char *patterns[] = {"/dev/nvidia*", "/dev/nvidia-caps/*"};
    for (int k = 0; k < 2; k++) {
        if (glob(patterns[k], 0, NULL, &g) != 0)
            continue;
        for (size_t i = 0; i < g.gl_pathc; i++) {
            struct stat st;
            if (stat(g.gl_pathv[i], &st) == 0 && S_ISCHR(st.st_mode))
                add3(out, "--dev-bind", g.gl_pathv[i], g.gl_pathv[i]);
        }
        globfree(&g);
    }
}

/* Each entry of the build's lab folders (labNN/ENTRY) as it is now, to f(path, is_dir, student,
 * arg): student says it is one of the lab's own builds of the hand-in's file (student*). */
static void each_lab_entry(const char *build, void (*f)(const char *, int, int, void *), void *arg)
{
    DIR *labs = opendir(build);
    struct dirent *lab;
    while (labs && (lab = readdir(labs))) {
        char dir[PATH_MAX], p[PATH_MAX];
        if (strncmp(lab->d_name, "lab", 3) || snprintf(dir, sizeof dir, "%s/%s", build, lab->d_name) >= (int)sizeof dir)
            continue;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            struct stat st;
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= (int)sizeof p || lstat(p, &st))
                continue;
            f(p, S_ISDIR(st.st_mode), !strncmp(e->d_name, "student", 7), arg);
        }
        if (d)
            closedir(d);
    }
    if (labs)
        closedir(labs);
}

/* A test's run: a lab's own builds alone, read-only. */
static void show_student(const char *p, int is_dir, int student, void *out)
{
    if (student && is_dir)
        add3(out, "--ro-bind", p, p);
}

/* A build: all but what a lab's measurement made, which is hidden. */
static void hide_measured(const char *p, int is_dir, int student, void *out)
{
    if (student)
        return;
    if (is_dir)
        add2(out, "--tmpfs", p);
    else
        add3(out, "--ro-bind", "/dev/null", p);
}

/*
 * The hand-in's build folder: read-only to a measurement (whose programs, the reference's
 * among them, are in it); to a test's run, each lab's own builds of the hand-in's file
 * (labNN/student*: its suite, its lab process) alone; to a build, writable, but for what its
 * labs' measurements made (labNN/ENTRY but student*) as the build starts, which is hidden.
 * That is the measuring programs and benches linked with the reference's code, and the
 * reference's objects, which another lab's measurement adds while the hand-in's labs are
 * built and run: a lab's code that runs unconfined (a CPU lab's, or any lab's on a GPU) read
 * the reference's machine code from them and printed it in its own test's output, and a lab
 * built after another was measured (one lab at a time) embedded it (.incbin) at its compile
 * (a cheating helper, 2026-11-29).
 */
static void build_view(const char *build, const char *mode, tl_argv *out)
{
    if (!strcmp(mode, "run")) {
        add2(out, "--tmpfs", build);
        each_lab_entry(build, show_student, out);
        add2(out, "--remount-ro", build);
    } else if (!strcmp(mode, "build")) {
        add3(out, "--bind", build, build);
        each_lab_entry(build, hide_measured, out);
    } else {
        add3(out, strcmp(mode, "link") ? "--ro-bind" : "--bind", build, build);
    }
}

static int bwrap_argv(const tl_sandbox *sb, const char *mode, const char *dir, const char *done_fifo, tl_argv *out)
{
    char build[PATH_MAX], sub[PATH_MAX], records[PATH_MAX], p[PATH_MAX], size[32];
    snprintf(build, sizeof build, "%s/build", sb->work);
    snprintf(sub, sizeof sub, "%s/submission", sb->work);
    snprintf(records, sizeof records, "%s/records", sb->work);
    snprintf(size, sizeof size, "%ld", sb->tmp_limit);
    tl_argv_add(out, "bwrap");
    machine_view(sb, out);
    tl_argv_add(out, "--dev");
    tl_argv_add(out, "/dev");
    if (sb->gpu)
        gpu_nodes(out);
    add2(out, "--proc", "/proc");
    add2(out, "--size", size);
    add2(out, "--tmpfs", "/tmp");
    kit_view(sb, out);
    add2(out, "--tmpfs", sb->tools);
    snprintf(p, sizeof p, "%s/grade-gpu-probe", sb->tools);
    add3(out, "--ro-bind-try", p, p);
    snprintf(p, sizeof p, "%s/grade-confine", sb->tools);
    add3(out, "--ro-bind-try", p, p);
    if (sb->submissions && *sb->submissions) {
        struct stat st;
        if (stat(sb->submissions, &st) == 0 && S_ISDIR(st.st_mode)) {
            add2(out, "--tmpfs", sb->submissions);
            add2(out, "--remount-ro", sb->submissions);
        }
    }
    if (sb->hidden && *sb->hidden)
        add3(out, "--ro-bind", "/dev/null", sb->hidden);
    add2(out, "--tmpfs", sb->out);
    add3(out, "--ro-bind", sub, sub);
    build_view(build, mode, out);
    add3(out, "--ro-bind", records, records);
    if (!strcmp(mode, "link"))
        add3(out, "--ro-bind", sb->prebuilt, sb->prebuilt);
    else if (!strcmp(mode, "perf"))
        add3(out, "--bind", dir, dir);
    add2(out, "--remount-ro", sb->out);
    add2(out, "--remount-ro", sb->tools);
    const char *flags[] = {"--unshare-all", "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv"};
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        tl_argv_add(out, flags[i]);
    add3(out, "--setenv", "PATH", sb->path);
    for (int i = 0; i < sb->n_search; i++) {
        const char *eq = strchr(sb->search[i], '=');
        snprintf(p, sizeof p, "%.*s", (int)(eq - sb->search[i]), sb->search[i]);
        add3(out, "--setenv", p, eq + 1);
    }
    add3(out, "--setenv", "HOME", "/tmp");
    add3(out, "--setenv", "TMPDIR", "/tmp");
    add3(out, "--setenv", "LANG", "C.UTF-8");
    add3(out, "--setenv", "TILELAB_DONE_FILE", done_fifo);
    add2(out, "--chdir", sb->root);
    return 0;
}

/* What the setpriv sandbox's command reads where it lies under /tmp (its own
 * folder, in grade-private's view), shown there. */
static void show_under_tmp(const char *d, void *arg)
{
    char real[PATH_MAX];
    if (*d && realpath(d, real) && starts(real, "/tmp/") && real[5])
        add2(arg, "--show", real);
}

/* setpriv: the same modes, by ownership (grade_setpriv.c gives the
 * hand-in's user what it may write); its /tmp its own folder, and with
 * grade-private's view (every mount read-only, the PID, IPC and network
 * namespaces its own) the only place writable besides those. */
static int setpriv_argv(const tl_sandbox *sb, const char *mode, const char *dir, const char *done_fifo, tl_argv *out)
{
    char p[PATH_MAX], uid[64];
    int private_view = sb->namespaces && !strcmp(sb->namespaces, "private");
    const char *tmp = private_view ? "/tmp" : sb->private_tmp;
    if (private_view || (sb->namespaces && !strcmp(sb->namespaces, "net"))) {
        const char *unshare[] = {"unshare", "--net", "--pid", "--ipc", "--mount", "--fork", "--kill-child", "--mount-proc", "--"};
        if (private_view)
            for (size_t i = 0; i < sizeof unshare / sizeof *unshare; i++)
                tl_argv_add(out, unshare[i]);
        else
            add3(out, "unshare", "--net", "--");
    }
    if (private_view) {
        snprintf(p, sizeof p, "%s/grade-private", sb->tools);
        add2(out, p, sb->private_tmp);
        const char *read[] = {sb->root, sb->tools, sb->work};
        for (int i = 0; i < 3; i++)
            show_under_tmp(read[i], out);
        each_dir(sb->path, show_under_tmp, out);
        for (int i = 0; i < sb->n_search; i++)
            each_dir(strchr(sb->search[i], '=') + 1, show_under_tmp, out);
        if (!strcmp(mode, "build") || !strcmp(mode, "link")) {
            snprintf(p, sizeof p, "%s/build", sb->work);
            add2(out, "--write", p);
        } else if (!strcmp(mode, "perf")) {
            add2(out, "--write", dir);
        }
        tl_argv_add(out, "--");
    }
    tl_argv_add(out, "setpriv");
    snprintf(uid, sizeof uid, "--reuid=%d", sb->uid);
    tl_argv_add(out, uid);
    snprintf(uid, sizeof uid, "--regid=%d", sb->uid);
    tl_argv_add(out, uid);
    const char *drop[] = {"--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "env", "-i"};
    for (size_t i = 0; i < sizeof drop / sizeof *drop; i++)
        tl_argv_add(out, drop[i]);
    add_cat(out, "PATH=", sb->path);
    for (int i = 0; i < sb->n_search; i++)
        tl_argv_add(out, sb->search[i]);
    add_cat(out, "HOME=", tmp);
    add_cat(out, "TMPDIR=", tmp);
    tl_argv_add(out, "LANG=C.UTF-8");
    add_cat(out, "TILELAB_DONE_FILE=", done_fifo);
    return 0;
}

int tl_sandbox_argv(const tl_sandbox *sb, const char *mode, const char *dir, tl_argv *out)
{
    char done_fifo[PATH_MAX];
    if (strcmp(mode, "build") && strcmp(mode, "link") && strcmp(mode, "run") && strcmp(mode, "perf")) {
        fprintf(stderr, "grade-sandbox: no such mode: %s (build, link, run or perf)\n", mode);
        return -1;
    }
    if (!strcmp(mode, "perf") && (!dir || !*dir)) {
        fprintf(stderr, "grade-sandbox: perf needs the measurement's folder\n");
        return -1;
    }
    /* Where grade-run --records makes a test's FIFO for its completion record. */
    snprintf(done_fifo, sizeof done_fifo, "%s/done.fifo", sb->records);
    if (!strcmp(sb->kind, "bwrap"))
        return bwrap_argv(sb, mode, dir, done_fifo, out);
    if (!strcmp(sb->kind, "setpriv")) {
        if (sb->uid <= 0 || !sb->private_tmp || !*sb->private_tmp) {
            fprintf(stderr, "grade-sandbox: setpriv needs the hand-in's uid and its /tmp\n");
            return -1;
        }
        return setpriv_argv(sb, mode, dir, done_fifo, out);
    }
    if (!strcmp(sb->kind, "none")) {
        tl_argv_add(out, "env");
        tl_argv_add(out, "HOME=/tmp");
        add_cat(out, "TILELAB_DONE_FILE=", done_fifo);
        return 0;
    }
    fprintf(stderr, "grade-sandbox: no such sandbox: %s (bwrap, setpriv or none)\n", sb->kind);
    return -1;
}

/* need (a folder the hand-in's commands use) lies in or is path */
static int holds(const char *path, const char *need)
{
    size_t n = strlen(path);
    return need && *need && !strncmp(need, path, n) && (need[n] == '/' || !need[n] || (n && path[n - 1] == '/'));
}

typedef struct {
    const char *path;
    int held;
} hold_arg;

static void hold_dir(const char *d, void *arg)
{
    hold_arg *h = arg;
    h->held |= holds(h->path, d);
}

/* path holds a folder the hand-in's commands need: the grader's tools, the results,
 * the PATH and search paths */
static int needed(const tl_sandbox *sb, const char *path)
{
    hold_arg h = {path, holds(path, sb->tools) || holds(path, sb->out)};
    each_dir(sb->path, hold_dir, &h);
    for (int i = 0; i < sb->n_search; i++)
        each_dir(strchr(sb->search[i], '=') + 1, hold_dir, &h);
    return h.held;
}

static void close_if(const tl_sandbox *sb, const char *path, tl_argv *out)
{
    struct stat st;
    size_t n = strlen(sb->tools);
    if (!path || !*path || stat(path, &st) != 0)
        return;
    if (!strncmp(path, sb->tools, n) && path[n] == '/' &&
        (!strcmp(path + n, "/grade-confine") || !strcmp(path + n, "/grade-gpu-probe")))
        return;
    n = strlen(sb->root);
    if (!strncmp(path, sb->root, n) && path[n] == '/' && !strchr(path + n + 1, '/'))
        for (size_t i = 0; i < sizeof kit_sources / sizeof *kit_sources; i++)
            if (!strcmp(path + n + 1, kit_sources[i]))
                return;
    if (!needed(sb, path))
        tl_argv_add(out, path);
}

static void close_glob(const tl_sandbox *sb, const char *pattern, int strip_slash, tl_argv *out)
{
    glob_t g;
    if (glob(pattern, strip_slash ? GLOB_MARK : 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *p = g.gl_pathv[i];
        size_t n = strlen(p);
        if (strip_slash && n > 1 && p[n - 1] == '/')
            p[n - 1] = '\0';
        close_if(sb, p, out);
    }
    globfree(&g);
}

int tl_sandbox_closed(const tl_sandbox *sb, const char *submission, const char *home, tl_argv *out)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/*", sb->root);
    close_glob(sb, p, 0, out);
    snprintf(p, sizeof p, "%s/.[!.]*", sb->root);
    close_glob(sb, p, 0, out);
    snprintf(p, sizeof p, "%s/tests/*/", sb->root);
    close_glob(sb, p, 1, out);
    snprintf(p, sizeof p, "%s/*", sb->tools);
    close_glob(sb, p, 0, out);
    close_if(sb, sb->submissions, out);
    close_if(sb, sb->hidden, out);
    /* The folder that holds this hand-in, unless every user shares it, or it holds the kit,
     * the results or the tools. */
    snprintf(p, sizeof p, "%s", submission);
    char *slash = strrchr(p, '/');
    if (!slash)
        return 0;
    if (slash == p)
        slash[1] = '\0';
    else
        *slash = '\0';
    static const char *const shared[] = {"/", "/tmp", "/var/tmp", "/dev/shm", "/home", "/root", "/run", "/mnt", "/media", "/srv"};
    for (size_t i = 0; i < sizeof shared / sizeof *shared; i++)
        if (!strcmp(p, shared[i]))
            return 0;
    if (!strcmp(p, sb->root) || !strcmp(p, home && *home ? home : "/"))
        return 0;
    const char *inside[] = {sb->root, sb->out, sb->tools};
    for (int i = 0; i < 3; i++)
        if (holds(p, inside[i]))
            return 0;
    tl_argv_add(out, p);
    return 0;
}
