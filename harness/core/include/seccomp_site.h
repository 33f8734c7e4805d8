/*
 * What the kit's two seccomp filters share (the grader's measured run,
 * harness/grade/grade_confine.c; the emulator's lab process,
 * harness/emu/confine.c): the few BPF statements they are written in, and
 * a system call made from one known address.
 *
 * seccomp tells a filter the address of the instruction after the
 * `syscall` that called it. TL_SYSCALL_SITE(name) defines
 *     static long name(long nr, long a, long b, long c, long d, long e, long f)
 * whose one `syscall` ends at the label name_end: a filter that lets a
 * call through from that address, and from nowhere else, lets the kit's
 * own code make it while the code it confines cannot, even through the C
 * library. x86-64 Linux only (TL_SYSCALL_SITES is 1 there).
 */
#ifndef TILELAB_SECCOMP_SITE_H
#define TILELAB_SECCOMP_SITE_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#define TL_BPF_LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)offsetof(struct seccomp_data, field))
#define TL_BPF_LOAD_AT(offset) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned)(offset))
#define TL_BPF_RETURN(action) BPF_STMT(BPF_RET | BPF_K, (action))
/* go on where A == k, else skip the next `skip` statements */
#define TL_BPF_UNLESS_EQUAL(k, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), 0, (skip))
/* skip the next `skip` statements where A == k */
#define TL_BPF_SKIP_IF_EQUAL(k, skip) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (skip), 0)
/* go on where A has none of the bits of k, else skip the next `skip` statements */
#define TL_BPF_UNLESS_CLEAR(k, skip) BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, (k), (skip), 0)

/* A system call argument's low and high words (little-endian). */
#define TL_BPF_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define TL_BPF_ARG_HI(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)
#define TL_BPF_IP_LO offsetof(struct seccomp_data, instruction_pointer)
#define TL_BPF_IP_HI (offsetof(struct seccomp_data, instruction_pointer) + 4)

#if defined(__x86_64__)
#define TL_SYSCALL_SITES 1
#define TL_BPF_ARCH AUDIT_ARCH_X86_64
#define TL_BPF_X32_BIT 0x40000000u /* x32 system calls: never the kit's, refused */

/* Filter statements that kill a call of another architecture or an x32 one;
 * A holds the call's number after them. */
#define TL_BPF_NATIVE_CALLS_ONLY                                                                   \
    TL_BPF_LOAD(arch), TL_BPF_SKIP_IF_EQUAL(TL_BPF_ARCH, 1), TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS), \
        TL_BPF_LOAD(nr), BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, TL_BPF_X32_BIT, 0, 1),                 \
        TL_BPF_RETURN(SECCOMP_RET_KILL_PROCESS)

#define TL_SYSCALL_SITE(name)                                                                      \
    extern const char name##_end[] __attribute__((visibility("hidden")));                         \
    __attribute__((noinline, noclone, unused)) static long name(long nr, long a, long b, long c,  \
                                                                 long d, long e, long f)           \
    {                                                                                              \
        register long r10 __asm__("r10") = d;                                                      \
        register long r8 __asm__("r8") = e;                                                        \
        register long r9 __asm__("r9") = f;                                                        \
        long ret;                                                                                  \
        __asm__ volatile("syscall\n"                                                               \
                         ".globl " #name "_end\n"                                                  \
                         ".hidden " #name "_end\n" #name "_end:"                                   \
                         : "=a"(ret)                                                               \
                         : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)             \
                         : "rcx", "r11", "memory");                                                \
        return ret;                                                                                \
    }

/*
 * Filter statements: ALLOW where the call came from site (an address),
 * else on past them, with A holding a word of the caller's address: load
 * what the next statement tests.
 */
#define TL_BPF_ALLOW_FROM(site)                                                                    \
    TL_BPF_LOAD_AT(TL_BPF_IP_LO), TL_BPF_UNLESS_EQUAL((unsigned)(unsigned long long)(site), 3),   \
        TL_BPF_LOAD_AT(TL_BPF_IP_HI),                                                              \
        TL_BPF_UNLESS_EQUAL((unsigned)((unsigned long long)(site) >> 32), 1),                     \
        TL_BPF_RETURN(SECCOMP_RET_ALLOW)
#else
#define TL_SYSCALL_SITES 0
#endif

#endif
