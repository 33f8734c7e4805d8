#define _XOPEN_SOURCE 700
#include "fiber.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__x86_64__)
/*
 * A switch saves what the System V ABI says a callee keeps (rbx, rbp,
 * r12-r15 and the stack pointer) and nothing else: a few nanoseconds,
 * where swapcontext makes a system call.
 */
struct tl_fiber {
    void *sp;
};

void tl_fiber_switch_sp(void **save, void *load);
__asm__(".text\n"
        ".globl tl_fiber_switch_sp\n"
        ".type tl_fiber_switch_sp,@function\n"
        "tl_fiber_switch_sp:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size tl_fiber_switch_sp,.-tl_fiber_switch_sp\n"
        ".section .note.GNU-stack,\"\",@progbits\n"
        ".text\n");

static tl_fiber main_fiber;

tl_fiber *tl_fiber_main(void)
{
    return &main_fiber;
}

static void fiber_exit_trap(void)
{
    abort(); /* a fiber function must never return: it switches away for good */
}

tl_fiber *tl_fiber_at(void *stack, size_t stack_bytes, tl_fiber_fn fn)
{
    /* The fiber record sits at the top of its stack, above the first frame: in the lines a
     * switch to it touches anyway. At the bottom, the records of a block's threads lay 64 KiB
     * apart (emulator.c's stacks), in one set of every cache, and each switch missed it. */
    uintptr_t top = ((uintptr_t)stack + stack_bytes - sizeof(tl_fiber)) & ~(uintptr_t)15;
    tl_fiber *f = (tl_fiber *)top;
    void **sp = (void **)top;
    *--sp = (void *)fiber_exit_trap; /* where fn would return to; keeps rsp+8 aligned */
    *--sp = (void *)fn;              /* popped by ret */
    for (int i = 0; i < 6; i++)
        *--sp = 0;                   /* rbp rbx r12-r15 */
    f->sp = sp;
    return f;
}

void tl_fiber_switch(tl_fiber *from, tl_fiber *to)
{
    tl_fiber_switch_sp(&from->sp, to->sp);
}

void tl_fiber_prefetch(const tl_fiber *f, int deep)
{
    if (!f)
        return;
    if (!deep) {
        __builtin_prefetch(f);
        return;
    }
    /* the callee-saved registers and return address a switch pops, and the frame above them */
    __builtin_prefetch(f->sp);
    __builtin_prefetch((const char *)f->sp + 64);
}

#else
#include <ucontext.h>

struct tl_fiber {
    ucontext_t uc;
};

static tl_fiber main_fiber;

tl_fiber *tl_fiber_main(void)
{
    return &main_fiber;
}

tl_fiber *tl_fiber_at(void *stack, size_t stack_bytes, tl_fiber_fn fn)
{
    tl_fiber *f = stack;
    size_t skip = (sizeof *f + 63) & ~(size_t)63;
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = (char *)stack + skip;
    f->uc.uc_stack.ss_size = stack_bytes - skip;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, fn, 0);
    return f;
}

void tl_fiber_switch(tl_fiber *from, tl_fiber *to)
{
    swapcontext(&from->uc, &to->uc);
}

void tl_fiber_prefetch(const tl_fiber *f, int deep)
{
    (void)f, (void)deep;
}
#endif
