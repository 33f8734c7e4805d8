/*
 * A seccomp filter written a rule at a time, as the kit's allow-lists are:
 * the emulator's lab process (harness/emu/confine.c) and the grader's
 * measured CPU run (harness/grade/grade_perf_confine.c). Each rule tests
 * the call's number, held in A, and returns where it matches; where it does
 * not, A still holds the number for the next rule. The statements
 * themselves are seccomp_site.h's.
 */
#ifndef TILELAB_SECCOMP_PROGRAM_H
#define TILELAB_SECCOMP_PROGRAM_H

#include <stddef.h>

#include "seccomp_site.h"

#define TL_BPF_MAX 512

typedef struct {
    struct sock_filter s[TL_BPF_MAX];
    size_t n; /* past TL_BPF_MAX: it did not fit, and tl_bpf_install refuses it */
} tl_bpf_program;

void tl_bpf_put(tl_bpf_program *p, const struct sock_filter *rule, size_t n);
#define TL_BPF_PUT(p, ...)                                                                         \
    tl_bpf_put(p, (const struct sock_filter[]){__VA_ARGS__},                                       \
               sizeof((const struct sock_filter[]){__VA_ARGS__}) / sizeof(struct sock_filter))

/* nr: action (SECCOMP_RET_ALLOW, SECCOMP_RET_KILL_PROCESS, SECCOMP_RET_ERRNO | e) */
void tl_bpf_on(tl_bpf_program *p, unsigned nr, unsigned action);
/* nr where the low word of its argument arg is x or y: allowed; with another: otherwise */
void tl_bpf_allow_where(tl_bpf_program *p, unsigned nr, int arg, unsigned x, unsigned y, unsigned otherwise);
/*
 * Every call that sends a signal to a process, or arranges for one to be sent (the owner of a
 * descriptor's SIGIO), allowed where its target is the process self alone; any other target:
 * otherwise. A signal of 0, which sends nothing (a probe whether a process is there), is let
 * through. x86-64 Linux only, as the filters (TL_SYSCALL_SITES).
 */
void tl_bpf_signals_to_self(tl_bpf_program *p, unsigned self, unsigned otherwise);
/* The program installed on this thread and those it starts (no new privileges first): 0,
 * or -1 with errno (E2BIG: it did not fit). */
int tl_bpf_install(const tl_bpf_program *p);

#endif
