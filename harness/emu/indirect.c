/*
 * Calls through a pointer from the lab file's code.
 *
 * A kernel runs here as the CPU's code, and a pointer it calls may hold any
 * address of the process: a host function of the C library (wmemcpy,
 * passed from the host as a kernel argument) would run natively, its
 * accesses neither checked nor counted. On a GPU, device code can call only
 * device code; a host function's address is no instruction of the GPU's,
 * and the kernel fails there.
 *
 * So emu-compile.sh builds the lab file with every indirect call and jump
 * through a thunk (-mindirect-branch=thunk-extern -mindirect-branch-register,
 * and no jump tables), and with a one-byte entry mark on each function it
 * compiles (-fpatchable-function-entry=1): the linker gathers the marks'
 * addresses in section __patchable_function_entries, which nothing else of
 * the program is built with. The thunks below hand the target to
 * tl_emu_called_through_pointer (emulator.c), which, in a kernel, refuses a
 * target that is not one of those functions, and jump to it otherwise.
 */
#define _GNU_SOURCE
#include "emulator.h"

#include <stdint.h>
#include <stdlib.h>

extern const uintptr_t __start___patchable_function_entries[] __attribute__((weak));
extern const uintptr_t __stop___patchable_function_entries[] __attribute__((weak));

static uintptr_t *entries;
static size_t n_entries;

static int by_value(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return (a > b) - (a < b);
}

int tl_emu_is_lab_function(uintptr_t target)
{
    if (!entries) {
        size_t n = __start___patchable_function_entries
                       ? (size_t)(__stop___patchable_function_entries - __start___patchable_function_entries)
                       : 0;
        entries = malloc((n ? n : 1) * sizeof *entries);
        if (!entries)
            abort();
        for (size_t i = 0; i < n; i++)
            entries[i] = __start___patchable_function_entries[i];
        qsort(entries, n, sizeof *entries, by_value);
        n_entries = n;
    }
    return bsearch(&target, entries, n_entries, sizeof *entries, by_value) != NULL;
}

/* One thunk a register: keep what a call passes in registers (the integer and vector
 * argument registers, rax for a variadic call, r10 and r11), let the emulator see the
 * target, and go there. The stack is 8 past a 16-byte boundary on entry (a call's or a
 * sibling call's), 16-byte aligned after the nine pushes. */
#define TL_THUNK_BODY(reg, load)                                                             \
    __asm__(".text\n.globl __x86_indirect_thunk_" #reg "\n"                                  \
            ".type __x86_indirect_thunk_" #reg ", @function\n"                               \
            "__x86_indirect_thunk_" #reg ":\n"                                               \
            "push %rdi\npush %rsi\npush %rdx\npush %rcx\npush %r8\npush %r9\n"               \
            "push %r10\npush %r11\npush %rax\n"                                              \
            "sub $128, %rsp\n"                                                               \
            "movdqu %xmm0, 0(%rsp)\nmovdqu %xmm1, 16(%rsp)\nmovdqu %xmm2, 32(%rsp)\n"         \
            "movdqu %xmm3, 48(%rsp)\nmovdqu %xmm4, 64(%rsp)\nmovdqu %xmm5, 80(%rsp)\n"        \
            "movdqu %xmm6, 96(%rsp)\nmovdqu %xmm7, 112(%rsp)\n" load                         \
            "call tl_emu_called_through_pointer\n"                                           \
            "movdqu 0(%rsp), %xmm0\nmovdqu 16(%rsp), %xmm1\nmovdqu 32(%rsp), %xmm2\n"         \
            "movdqu 48(%rsp), %xmm3\nmovdqu 64(%rsp), %xmm4\nmovdqu 80(%rsp), %xmm5\n"        \
            "movdqu 96(%rsp), %xmm6\nmovdqu 112(%rsp), %xmm7\n"                              \
            "add $128, %rsp\n"                                                               \
            "pop %rax\npop %r11\npop %r10\npop %r9\npop %r8\npop %rcx\npop %rdx\n"            \
            "pop %rsi\npop %rdi\n"                                                           \
            "jmp *%" #reg "\n"                                                               \
            ".size __x86_indirect_thunk_" #reg ", .-__x86_indirect_thunk_" #reg "\n")
/* The target, read before the call may change it (rdi is the first argument's register). */
#define TL_THUNK_OF(reg) TL_THUNK_BODY(reg, "mov %" #reg ", %rdi\n")

TL_THUNK_OF(rax);
TL_THUNK_OF(rbx);
TL_THUNK_OF(rcx);
TL_THUNK_OF(rdx);
TL_THUNK_OF(rsi);
TL_THUNK_OF(rdi);
TL_THUNK_OF(rbp);
TL_THUNK_OF(r8);
TL_THUNK_OF(r9);
TL_THUNK_OF(r10);
TL_THUNK_OF(r11);
TL_THUNK_OF(r12);
TL_THUNK_OF(r13);
TL_THUNK_OF(r14);
TL_THUNK_OF(r15);
