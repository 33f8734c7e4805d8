/* Function-local statics the instrumentation does not register, and the program's functions (statics.c). */
#ifndef TILELAB_EMU_STATICS_H
#define TILELAB_EMU_STATICS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Calls found() with the address, size and (mangled) name of each
 * function-local static of this program in .bss or .data, and function()
 * with the address, size and (mangled) name of each function it defines; known is the
 * address of the symbol known_name, which tells where the program was
 * loaded. 0, or -1 when the program's symbol table cannot be read.
 */
int tl_emu_local_statics(const void *known, const char *known_name,
                         void (*found)(uintptr_t start, size_t size, const char *name),
                         void (*function)(uintptr_t start, size_t size, const char *name));

#endif
