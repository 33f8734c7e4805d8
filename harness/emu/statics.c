/*
 * The __shared__ arrays the instrumentation cannot see: those of template
 * kernels. gcc gives each instance's function-local statics a section of
 * their own (to merge copies at link time), ignoring the tl_shared section
 * the emulator's header asks for, and registers no bounds for them. Their
 * bounds are in the program's symbol table: function-local statics are
 * the symbols whose names start with _ZZ. So are the bounds of its
 * functions, by which the emulator knows which kernel a pc is in.
 */
#define _GNU_SOURCE
#include "statics.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Calls found(start, size, name) for each such static of this program, and function(start,
 * size, name) for each function it defines; 0, or -1 when unreadable. */
int tl_emu_local_statics(const void *known, const char *known_name,
                         void (*found)(uintptr_t start, size_t size, const char *name),
                         void (*function)(uintptr_t start, size_t size, const char *name))
{
    int fd = open("/proc/self/exe", O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    const unsigned char *file = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED)
        return -1;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)file;
    int rc = -1;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64)
        goto done;
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(file + eh->e_shoff);
    const char *section_names = (const char *)file + sh[eh->e_shstrndx].sh_offset;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(file + sh[i].sh_offset);
        size_t n = sh[i].sh_size / sizeof *sym;
        const char *names = (const char *)file + sh[sh[i].sh_link].sh_offset;
        /* Where the program was loaded: a symbol whose address we know. */
        uintptr_t bias = 0;
        int have_bias = 0;
        for (size_t k = 0; k < n && !have_bias; k++)
            if (strcmp(names + sym[k].st_name, known_name) == 0)
                bias = (uintptr_t)known - sym[k].st_value, have_bias = 1;
        if (!have_bias)
            goto done;
        for (size_t k = 0; k < n; k++) {
            const char *name = names + sym[k].st_name;
            if (ELF64_ST_TYPE(sym[k].st_info) == STT_FUNC && sym[k].st_size && sym[k].st_shndx != SHN_UNDEF)
                function(bias + sym[k].st_value, sym[k].st_size, name);
            if (ELF64_ST_TYPE(sym[k].st_info) != STT_OBJECT || sym[k].st_size == 0 ||
                strncmp(name, "_ZZ", 3) != 0 || sym[k].st_shndx == SHN_UNDEF ||
                sym[k].st_shndx >= eh->e_shnum)
                continue;
            const char *section = section_names + sh[sym[k].st_shndx].sh_name;
            if (strncmp(section, ".bss", 4) == 0 || strncmp(section, ".data", 5) == 0)
                found(bias + sym[k].st_value, sym[k].st_size, name);
        }
        rc = 0;
    }
done:
    munmap((void *)file, (size_t)st.st_size);
    return rc;
}
