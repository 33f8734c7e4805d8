/* A seccomp filter written a rule at a time: see seccomp_program.h. */
#define _GNU_SOURCE
#include "seccomp_program.h"

#include <errno.h>
#include <sys/prctl.h>

void tl_bpf_put(tl_bpf_program *p, const struct sock_filter *rule, size_t n)
{
    for (size_t i = 0; i < n; i++, p->n++)
        if (p->n < TL_BPF_MAX)
            p->s[p->n] = rule[i];
}

void tl_bpf_on(tl_bpf_program *p, unsigned nr, unsigned action)
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 1), TL_BPF_RETURN(action));
}

void tl_bpf_allow_where(tl_bpf_program *p, unsigned nr, int arg, unsigned x, unsigned y, unsigned otherwise)
{
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(nr, 5), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(arg)), TL_BPF_SKIP_IF_EQUAL(x, 1),
               TL_BPF_UNLESS_EQUAL(y, 1), TL_BPF_RETURN(SECCOMP_RET_ALLOW), TL_BPF_RETURN(otherwise));
}

#if TL_SYSCALL_SITES
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/sockios.h>

void tl_bpf_signals_to_self(tl_bpf_program *p, unsigned self, unsigned otherwise)
{
    /* kill(pid, sig): pid 0 and below are groups, every process (-1) among them */
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(SYS_kill, 6), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(0)),
               TL_BPF_SKIP_IF_EQUAL(self, 3), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(1)), TL_BPF_SKIP_IF_EQUAL(0, 1),
               TL_BPF_RETURN(otherwise), TL_BPF_RETURN(SECCOMP_RET_ALLOW));
    /* a thread group named first (tgkill: the kernel then finds the thread in it), or the
     * main thread's id (tkill: any other thread's is another's, to a filter) */
    static const unsigned group_first[] = {SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo};
    for (size_t i = 0; i < sizeof group_first / sizeof *group_first; i++)
        tl_bpf_allow_where(p, group_first[i], 0, self, self, otherwise);
    /* a process named by a descriptor, which a filter cannot read */
    tl_bpf_on(p, SYS_pidfd_send_signal, otherwise);
    /* a descriptor's owner, who gets SIGIO (by default, the end of a process) as its I/O comes */
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(SYS_fcntl, 8), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(1)),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN_EX, 4, 0),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETOWN, 0, 4), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(2)),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1), TL_BPF_RETURN(SECCOMP_RET_ALLOW),
               TL_BPF_RETURN(otherwise), TL_BPF_LOAD(nr));
    TL_BPF_PUT(p, TL_BPF_UNLESS_EQUAL(SYS_ioctl, 5), TL_BPF_LOAD_AT(TL_BPF_ARG_LO(1)),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FIOSETOWN, 1, 0),
               BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SIOCSPGRP, 0, 1), TL_BPF_RETURN(otherwise),
               TL_BPF_LOAD(nr));
}
#endif

int tl_bpf_install(const tl_bpf_program *p)
{
    if (p->n > TL_BPF_MAX) {
        errno = E2BIG;
        return -1;
    }
    struct sock_fprog program = {.len = (unsigned short)p->n, .filter = (struct sock_filter *)p->s};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program);
}
