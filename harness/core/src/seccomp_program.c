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
