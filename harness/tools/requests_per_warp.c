/*
 * requests-per-warp [--variants VARIANTS.csv] [--only VARIANT] [--name NAME] PROFILE.csv
 *
 * What a profile's counts (make labN profile's CSV, the emulator's or ncu's)
 * mean per request, a row a kernel, for the bar figures: "NAME,global load
 * sectors,global store sectors,shared load passes,shared store passes", each
 * per request of its kind ("-" where the kernel made none: no request is not
 * a request that cost nothing, and no figure draws it as a bar). A request is one
 * load or store instruction run by a warp: 4 sectors is a coalesced float
 * load, 32 one float a sector; 1 pass a conflict-free shared access, 32 a
 * column of a 32 x 32 tile.
 *
 * NAME is "LABEL; KERNEL", LABEL the variant's label from VARIANTS.csv (the
 * bench's table: "your code" for student), or the --name given. --only keeps
 * the rows of one variant.
 */
#include "csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *only = NULL, *name = NULL, *path = NULL;
    tl_variants *variants = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--variants") == 0 && i + 1 < argc) {
            if (!(variants = tl_variants_read(argv[++i]))) {
                perror(argv[i]);
                return 1;
            }
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc)
            name = argv[++i];
        else if (argv[i][0] != '-' && !path)
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path) {
        fprintf(stderr, "usage: requests-per-warp [--variants VARIANTS.csv] [--only VARIANT] [--name NAME] PROFILE.csv\n");
        return 2;
    }
    tl_csv *in = tl_csv_open(path);
    if (!in) {
        perror(path);
        return 1;
    }
    /* Each measure: its count of requests and what each request cost. */
    static const char *pairs[4][2] = {{"global_load_requests", "global_load_sectors"},
                                      {"global_store_requests", "global_store_sectors"},
                                      {"shared_load_requests", "shared_load_wavefronts"},
                                      {"shared_store_requests", "shared_store_wavefronts"}};
    int at[4][2], variant = tl_csv_column(in, "variant"), kernel = tl_csv_column(in, "kernel");
    if (variant < 0 || kernel < 0) {
        fprintf(stderr, "requests-per-warp: %s is not a profile (no variant or kernel column)\n", path);
        return 1;
    }
    for (int m = 0; m < 4; m++)
        for (int k = 0; k < 2; k++)
            at[m][k] = tl_csv_column(in, pairs[m][k]);
    while (tl_csv_next(in)) {
        if (only && strcmp(tl_csv_field(in, variant), only) != 0)
            continue;
        if (name)
            printf("%s", name);
        else
            printf("%s; %s", tl_csv_described(in, variants, "label"), tl_csv_field(in, kernel));
        for (int m = 0; m < 4; m++) {
            double requests = at[m][0] >= 0 ? atof(tl_csv_field(in, at[m][0])) : 0;
            if (requests > 0 && at[m][1] >= 0)
                printf(",%.2f", atof(tl_csv_field(in, at[m][1])) / requests);
            else
                printf(",-");
        }
        printf("\n");
    }
    tl_csv_close(in);
    tl_variants_free(variants);
    return 0;
}
