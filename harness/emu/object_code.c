/*
 * A lab object's functions, __shared__ arrays and calls, from its ELF
 * symbol table and relocations (object_code.h). The emulator's build is
 * x86-64 (emu-compile.sh's indirect-branch thunks), and g++ writes RELA
 * relocations there.
 */
#include "object_code.h"

#include "kernel_edits.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C++ ABI's demangler (libstdc++'s, which c++filt's shares). */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

typedef struct {
    const unsigned char *data;
    size_t size;
    const Elf64_Ehdr *header;
    const Elf64_Shdr *sections;
    const char *section_names;
    const char *strings; /* the symbol table's names */
    size_t strings_size;
} elf_file;

static void *grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, n * size);
    if (!q) {
        perror("emulator");
        exit(1);
    }
    return q;
}

static int failed(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Whether bytes at..at + n lie inside the file. */
static int inside(const elf_file *e, uint64_t at, uint64_t n)
{
    return at <= e->size && n <= e->size - at;
}

static const char *section_name(const elf_file *e, size_t i)
{
    return e->section_names + e->sections[i].sh_name;
}

/* A symbol's name as c++filt writes it: demangled where it is a C++ name (c++filt tries
 * only those, as here: another would read as a type, "f" as float). */
static char *demangled(const char *name)
{
    int status = -1;
    char *d = NULL;
    if (strncmp(name, "_Z", 2) == 0 ||
        (strncmp(name, "_GLOBAL_", 8) == 0 && name[8] && strchr("._$", name[8]) &&
         (name[9] == 'D' || name[9] == 'I') && name[10] == '_'))
        d = __cxa_demangle(name, NULL, NULL, &status);
    if (status != 0 || !d) {
        free(d);
        d = strdup(name);
        if (!d) {
            perror("emulator");
            exit(1);
        }
    }
    return d;
}

/* The name a relocation or a symbol goes by, as objdump prints it: a section's symbol by
 * its section's name. */
static char *symbol_name(const elf_file *e, const Elf64_Sym *sym)
{
    if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION && sym->st_shndx < e->header->e_shnum)
        return demangled(section_name(e, sym->st_shndx));
    return demangled(sym->st_name < e->strings_size ? e->strings + sym->st_name : "");
}

static int read_file(const char *path, elf_file *e, char *why, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return failed(why, len, "%s: cannot be read", path);
    unsigned char *data = NULL;
    size_t size = 0, cap = 0, got;
    do {
        if (size == cap)
            data = grow(data, cap = cap ? 2 * cap : 1 << 16, 1);
        got = fread(data + size, 1, cap - size, f);
        size += got;
    } while (got > 0);
    fclose(f);
    e->data = data, e->size = size;
    e->header = (const Elf64_Ehdr *)data;
    const Elf64_Ehdr *h = e->header;
    if (size < sizeof *h || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 || h->e_ident[EI_CLASS] != ELFCLASS64 ||
        h->e_ident[EI_DATA] != ELFDATA2LSB || h->e_type != ET_REL || h->e_machine != EM_X86_64)
        return failed(why, len, "%s: not an x86-64 relocatable object (ELF), as g++ writes for the emulator", path);
    if (h->e_shentsize != sizeof(Elf64_Shdr) || !inside(e, h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr)) ||
        h->e_shstrndx >= h->e_shnum)
        return failed(why, len, "%s: its section table is cut short", path);
    e->sections = (const Elf64_Shdr *)(data + h->e_shoff);
    for (size_t i = 0; i < h->e_shnum; i++)
        if (e->sections[i].sh_type != SHT_NOBITS && !inside(e, e->sections[i].sh_offset, e->sections[i].sh_size))
            return failed(why, len, "%s: section %zu lies past the file's end", path, i);
    const Elf64_Shdr *names = &e->sections[h->e_shstrndx];
    if (names->sh_type == SHT_NOBITS || names->sh_size == 0 || data[names->sh_offset + names->sh_size - 1] != '\0')
        return failed(why, len, "%s: its section names are not ended", path);
    e->section_names = (const char *)data + names->sh_offset;
    for (size_t i = 0; i < h->e_shnum; i++)
        if (e->sections[i].sh_name >= names->sh_size)
            return failed(why, len, "%s: section %zu's name lies outside the section names", path, i);
    return 0;
}

uint64_t tl_object_code_size(const tl_object_code *o, const char *name)
{
    for (size_t i = o->n_sizes; i-- > 0;)
        if (strcmp(o->sizes[i].name, name) == 0)
            return o->sizes[i].size;
    return 0;
}

static int sized(const tl_object_code *o, const char *name)
{
    for (size_t i = 0; i < o->n_sizes; i++)
        if (strcmp(o->sizes[i].name, name) == 0)
            return 1;
    return 0;
}

/* The references of namespace scope that rewrite made for its variables (kernel_edits.c), in
 * the section tl_refs: a kernel's code reaches a __shared__ array x_tl_emu_shared of the file
 * through the reference x there. */
typedef struct {
    char *name;
    uint64_t lo, hi;
} reference;
static reference *refs;
static size_t n_refs;

/* The symbols: functions, and the __shared__ arrays with their sizes. */
static void read_symbols(const elf_file *e, const Elf64_Shdr *symtab, tl_object_code *o)
{
    const Elf64_Sym *syms = (const Elf64_Sym *)(e->data + symtab->sh_offset);
    size_t n = symtab->sh_size / sizeof *syms;
    for (size_t i = 1; i < n; i++) {
        const Elf64_Sym *s = &syms[i];
        int type = ELF64_ST_TYPE(s->st_info), common = s->st_shndx == SHN_COMMON;
        const char *sec = s->st_shndx > 0 && s->st_shndx < e->header->e_shnum ? section_name(e, s->st_shndx) : "";
        if (type == STT_FUNC || type == STT_GNU_IFUNC) {
            o->functions = grow(o->functions, o->n_functions + 1, sizeof *o->functions);
            o->functions[o->n_functions++] = (tl_function){symbol_name(e, s), s->st_shndx, s->st_value,
                                                           s->st_value + s->st_size};
            continue;
        }
        if (type != STT_OBJECT && !common)
            continue;
        char *name = symbol_name(e, s);
        if (strcmp(sec, "tl_refs") == 0) {
            refs = grow(refs, n_refs + 1, sizeof *refs);
            refs[n_refs++] = (reference){name, s->st_value, s->st_value + s->st_size};
            continue;
        }
        int in_shared = strcmp(sec, "tl_shared") == 0;
        /* A function's static (a template kernel's __shared__ array, which g++ keeps out of
         * tl_shared): kern<64>()::tile. */
        if (!in_shared && !(strstr(name, ")::") && (strncmp(sec, ".bss", 4) == 0 || common))) {
            free(name);
            continue;
        }
        o->sizes = grow(o->sizes, o->n_sizes + 1, sizeof *o->sizes);
        o->sizes[o->n_sizes++] = (struct tl_sized_name){name, s->st_size};
        if (in_shared) {
            o->arrays = grow(o->arrays, o->n_arrays + 1, sizeof *o->arrays);
            o->arrays[o->n_arrays++] = (tl_shared_array){name, 1, s->st_value, s->st_value + s->st_size};
        }
    }
}

static void use(tl_object_code *o, size_t from, size_t array)
{
    o->uses = grow(o->uses, o->n_uses + 1, sizeof *o->uses);
    o->uses[o->n_uses++] = (tl_shared_use){from, array};
}

/* One relocation of the code of function `from`: a reference to a __shared__ array, or a
 * call. */
/* Where in its section a relocation against a section's symbol points: the addend of a
 * pc-relative field counts from the field's end, 4 bytes on. */
static int64_t place_in_section(const Elf64_Rela *r)
{
    unsigned type = ELF64_R_TYPE(r->r_info);
    return r->r_addend + (type == R_X86_64_PC32 || type == R_X86_64_PLT32 ? 4 : 0);
}

static void read_relocation(tl_object_code *o, size_t from, const Elf64_Rela *r, char *target)
{
    unsigned type = ELF64_R_TYPE(r->r_info);
    /* A reference of tl_refs, by its name or by its place there: the array it names. */
    const char *ref = NULL;
    if (strcmp(target, "tl_refs") == 0) {
        int64_t at = place_in_section(r);
        for (size_t i = 0; i < n_refs && !ref; i++)
            if (at >= (int64_t)refs[i].lo && at < (int64_t)refs[i].hi)
                ref = refs[i].name;
    } else
        for (size_t i = 0; i < n_refs && !ref; i++)
            if (strcmp(refs[i].name, target) == 0)
                ref = refs[i].name;
    if (ref) {
        char array[512];
        snprintf(array, sizeof array, "%s" TL_EMU_SHARED_SUFFIX, ref);
        for (size_t a = 0; a < o->n_arrays; a++)
            if (o->arrays[a].placed && strcmp(o->arrays[a].name, array) == 0)
                use(o, from, a);
        free(target);
        return;
    }
    if (strcmp(target, "tl_shared") == 0) {
        int64_t at = place_in_section(r); /* an array of tl_shared by its place */
        for (size_t s = 0; s < o->n_arrays; s++)
            if (o->arrays[s].placed && at >= (int64_t)o->arrays[s].lo && at < (int64_t)o->arrays[s].hi)
                use(o, from, s);
        free(target);
    } else if (sized(o, target)) {
        size_t s = 0;
        while (s < o->n_arrays && strcmp(o->arrays[s].name, target) != 0)
            s++;
        if (s == o->n_arrays) {
            o->arrays = grow(o->arrays, o->n_arrays + 1, sizeof *o->arrays);
            o->arrays[o->n_arrays++] = (tl_shared_array){target, 0, 0, 0};
        } else
            free(target);
        use(o, from, s);
    } else if (strncmp(target, TL_DEVICE_BUILTIN, strlen(TL_DEVICE_BUILTIN)) == 0) {
        o->builtin_reads = grow(o->builtin_reads, o->n_builtin_reads + 1, sizeof *o->builtin_reads);
        o->builtin_reads[o->n_builtin_reads++] = (tl_call){from, target};
    } else if (type == R_X86_64_PLT32) {
        o->calls = grow(o->calls, o->n_calls + 1, sizeof *o->calls);
        o->calls[o->n_calls++] = (tl_call){from, target};
    } else
        free(target);
}

/* The relocations of one section's code, each given to the function that holds it. */
static void read_relocations(const elf_file *e, const Elf64_Shdr *rela, tl_object_code *o)
{
    const Elf64_Shdr *symtab = &e->sections[rela->sh_link];
    const Elf64_Sym *syms = (const Elf64_Sym *)(e->data + symtab->sh_offset);
    size_t n_syms = symtab->sh_size / sizeof *syms, n = rela->sh_size / sizeof(Elf64_Rela);
    const Elf64_Rela *r = (const Elf64_Rela *)(e->data + rela->sh_offset);
    for (size_t i = 0; i < n; i++) {
        size_t from = 0, sym = ELF64_R_SYM(r[i].r_info);
        while (from < o->n_functions &&
               !(o->functions[from].section == rela->sh_info && r[i].r_offset >= o->functions[from].lo &&
                 r[i].r_offset < o->functions[from].hi))
            from++;
        if (from == o->n_functions || sym == 0 || sym >= n_syms)
            continue;
        read_relocation(o, from, &r[i], symbol_name(e, &syms[sym]));
    }
}

int tl_object_code_read(const char *path, tl_object_code *o, char *why, size_t why_len)
{
    elf_file e;
    memset(o, 0, sizeof *o);
    if (read_file(path, &e, why, why_len) != 0)
        return -1;
    const Elf64_Shdr *symtab = NULL;
    for (size_t i = 0; i < e.header->e_shnum; i++) {
        const Elf64_Shdr *s = &e.sections[i];
        if (s->sh_type == SHT_SYMTAB)
            symtab = s;
        if ((s->sh_type == SHT_SYMTAB && s->sh_entsize != sizeof(Elf64_Sym)) ||
            (s->sh_type == SHT_RELA && s->sh_entsize != sizeof(Elf64_Rela)) ||
            ((s->sh_type == SHT_SYMTAB || s->sh_type == SHT_RELA) && s->sh_link >= e.header->e_shnum))
            return failed(why, why_len, "%s: section %zu is not an ELF64 symbol table or relocations "
                                        "as g++ writes them", path, i);
    }
    if (!symtab)
        return failed(why, why_len, "%s: has no symbol table", path);
    const Elf64_Shdr *strings = &e.sections[symtab->sh_link];
    if (strings->sh_type == SHT_NOBITS || strings->sh_size == 0 || e.data[strings->sh_offset + strings->sh_size - 1] != '\0')
        return failed(why, why_len, "%s: its symbol names are not ended", path);
    e.strings = (const char *)e.data + strings->sh_offset, e.strings_size = strings->sh_size;
    read_symbols(&e, symtab, o);
    for (size_t i = 0; i < e.header->e_shnum; i++)
        if (e.sections[i].sh_type == SHT_RELA && &e.sections[e.sections[i].sh_link] == symtab)
            read_relocations(&e, &e.sections[i], o);
    for (size_t i = 0; i < n_refs; i++)
        free(refs[i].name);
    free(refs);
    refs = NULL, n_refs = 0;
    free((void *)e.data);
    return 0;
}
