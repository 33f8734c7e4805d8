/*
 * The reader's side of the sites table (harness/emu/sites.h), for
 * tests/emu_tools_test.sh: linked with a planted assembly that emu-sites
 * gave its table, it prints each entry as the emulator reads it. The test
 * compares that with what it wrote; a writer of another layout shows here.
 */
#include <stdint.h>
#include <stdio.h>

#include "sites.h"

extern const tl_site __start_tl_sites[] __attribute__((weak));
extern const tl_site __stop_tl_sites[] __attribute__((weak));
/* The planted checks' return addresses, labelled in the assembly. */
extern const char after_0[], after_1[], after_2[], after_3[];

/* The checks the planted code calls, which never runs. */
void __asan_load4(uintptr_t a);
void __asan_store16(uintptr_t a);
void __asan_load4(uintptr_t a) { (void)a; }
void __asan_store16(uintptr_t a) { (void)a; }

static const char *pc_name(uintptr_t pc)
{
    const char *labels[] = {after_0, after_1, after_2, after_3}, *names[] = {"after_0", "after_1", "after_2", "after_3"};
    if (!pc)
        return "0";
    for (int i = 0; i < 4; i++)
        if (pc == (uintptr_t)labels[i])
            return names[i];
    return "elsewhere";
}

int main(void)
{
    size_t bytes = __start_tl_sites ? (size_t)((const char *)__stop_tl_sites - (const char *)__start_tl_sites) : 0;
    long n = (long)(bytes / sizeof(tl_site));
    if (bytes % sizeof(tl_site)) {
        printf("%zu bytes, not a whole number of entries of %zu\n", bytes, sizeof(tl_site));
        return 1;
    }
    printf("%ld entries\n", n);
    for (long i = 0; i < n; i++) {
        const tl_site *s = &__start_tl_sites[i];
        printf("%ld pc=%s first=", i, pc_name(s->pc));
        if (s->first)
            printf("%ld", (long)(s->first - __start_tl_sites));
        else
            printf("none");
        printf(" line=%lu widths=", (unsigned long)s->line);
        for (int k = 0; k < TL_SITE_KINDS; k++)
            printf("%s%u", k ? " " : "", s->widths[k]);
        printf("\n");
    }
    return 0;
}
