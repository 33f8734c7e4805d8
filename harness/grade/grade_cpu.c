/* The CPU time of the processes below the caller: grade_cpu.h. */
#define _GNU_SOURCE
#include "grade_cpu.h"
#include "timer.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    pid_t pid, ppid;
    double cpu; /* its own and its waited-for children's, seconds */
} proc;

/* Fields 4 (ppid) and 14-17 (utime, stime, cutime, cstime) of /proc/PID/stat; the
 * command's name, field 2, is in parentheses and may hold spaces and parentheses. */
static int read_stat(pid_t pid, proc *p, double tick)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *after = strrchr(buf, ')');
    int ppid;
    unsigned long long ut, st;
    long long cut, cst;
    if (!after || sscanf(after + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
                         &ppid, &ut, &st, &cut, &cst) != 5)
        return 0;
    p->pid = pid;
    p->ppid = ppid;
    p->cpu = (double)(ut + st + (unsigned long long)(cut + cst)) / tick;
    return 1;
}

/* Below the caller, by a pass over every process of the machine, each one's line of
 * parents followed up until it meets the caller: where the kernel keeps no lists of
 * children (CONFIG_PROC_CHILDREN). */
static double scanned_cpu(int kill_them)
{
    static proc *procs;
    static size_t cap;
    size_t n = 0;
    double tick = (double)sysconf(_SC_CLK_TCK);
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        if (n == cap) {
            size_t more = cap ? 2 * cap : 512;
            proc *grown = realloc(procs, more * sizeof *grown);
            if (!grown)
                break;
            procs = grown, cap = more;
        }
        n += read_stat((pid_t)pid, &procs[n], tick);
    }
    if (d)
        closedir(d);
    /* Below the caller: each process's line of parents, followed up until it
     * meets the caller (below), pid 1 or a process already judged. */
    size_t slots = 1;
    while (slots < 2 * n + 2)
        slots *= 2;
    ssize_t *at = malloc(slots * sizeof *at);  /* pid -> index of procs, open addressing */
    signed char *below = calloc(n ? n : 1, 1); /* 0: not yet judged, 1: below, -1: not */
    pid_t self = getpid();
    for (size_t s = 0; at && s < slots; s++)
        at[s] = -1;
    for (size_t i = 0; at && i < n; i++) {
        size_t s = (size_t)procs[i].pid & (slots - 1);
        while (at[s] >= 0)
            s = (s + 1) & (slots - 1);
        at[s] = (ssize_t)i;
    }
    for (size_t i = 0; at && below && i < n; i++) {
        size_t line[64];
        int len = 0, verdict = -1;
        for (ssize_t k = (ssize_t)i; k >= 0 && len < 64; len++) {
            if (below[k]) {
                verdict = below[k];
                break;
            }
            line[len] = (size_t)k;
            pid_t parent = procs[k].ppid;
            if (parent == self) {
                verdict = 1, len++;
                break;
            }
            size_t s = (size_t)parent & (slots - 1);
            while (at[s] >= 0 && procs[at[s]].pid != parent)
                s = (s + 1) & (slots - 1);
            k = parent > 1 ? at[s] : -1;
        }
        for (int j = 0; j < len; j++)
            below[line[j]] = (signed char)verdict;
    }
    free(at);
    double cpu = 0;
    for (size_t i = 0; below && i < n; i++)
        if (below[i] == 1) {
            cpu += procs[i].cpu;
            if (kill_them)
                kill(procs[i].pid, SIGKILL);
        }
    free(below);
    return cpu;
}

/* The list of pids still to visit, grown as needed. */
typedef struct {
    pid_t *pid;
    size_t n, cap;
} pids;

static void push(pids *p, pid_t pid)
{
    for (size_t i = 0; i < p->n; i++) /* found twice: its parent ended as it was listed */
        if (p->pid[i] == pid)
            return;
    if (p->n == p->cap) {
        size_t more = p->cap ? 2 * p->cap : 256;
        pid_t *grown = realloc(p->pid, more * sizeof *grown);
        if (!grown)
            return;
        p->pid = grown, p->cap = more;
    }
    p->pid[p->n++] = pid;
}

/* Appends the children of every thread of pid (/proc/PID/task/TID/children): 0, or -1
 * where the kernel keeps no such lists. */
static int push_children(pids *p, pid_t pid)
{
    char path[96];
    int listed = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%d/task/%.16s/children", (int)pid, e->d_name);
        FILE *f = fopen(path, "r");
        listed |= f != NULL;
        for (int child; f && fscanf(f, "%d", &child) == 1;)
            push(p, (pid_t)child);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return listed ? 0 : -1;
}

/*
 * Below the caller, by its children and theirs (the kernel's lists of each thread's
 * children), never by a pass over every process of the machine: a busy machine has
 * hundreds, read five times a second by every grader's command. As the caller is a
 * subreaper, a process whose parent ended is the caller's child, and still found.
 * A process is read before it is killed, and its children listed before that: killed,
 * they would come to the caller, and be found only at its next count.
 */
double tl_descendants_cpu(int kill_them)
{
    static pids todo;
    double tick = (double)sysconf(_SC_CLK_TCK), cpu = 0;
    todo.n = 0;
    if (push_children(&todo, getpid()))
        return scanned_cpu(kill_them) + tl_children_cpu();
    for (size_t i = 0; i < todo.n; i++) {
        pid_t pid = todo.pid[i];
        proc p;
        if (read_stat(pid, &p, tick))
            cpu += p.cpu;
        push_children(&todo, pid);
        if (kill_them)
            kill(pid, SIGKILL);
    }
    return cpu + tl_children_cpu();
}
