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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 64, LINE = 4096, MAX_VARIANTS = 64 };

static int split(char *line, char **field)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < MAX_FIELDS; p++) {
        field[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p = 0;
    }
    return n;
}

static int column(char **head, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return i;
    return -1;
}

static char names[MAX_VARIANTS][64], labels[MAX_VARIANTS][64];
static int nvariants;

/* unit,variant,label,role: the first label of each variant. */
static void read_variants(const char *path)
{
    char line[LINE], *f[MAX_FIELDS];
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        exit(1);
    }
    while (fgets(line, sizeof line, in) && nvariants < MAX_VARIANTS)
        if (split(line, f) >= 3 && strcmp(f[1], "variant") != 0) {
            snprintf(names[nvariants], sizeof names[0], "%s", f[1]);
            snprintf(labels[nvariants++], sizeof labels[0], "%s", f[2]);
        }
    fclose(in);
}

static const char *label_of(const char *variant)
{
    for (int i = 0; i < nvariants; i++)
        if (strcmp(names[i], variant) == 0)
            return labels[i];
    return variant;
}

int main(int argc, char **argv)
{
    const char *only = NULL, *name = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--variants") == 0 && i + 1 < argc)
            read_variants(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
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
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 1;
    }
    /* Each measure: its count of requests and what each request cost. */
    static const char *pairs[4][2] = {{"global_load_requests", "global_load_sectors"},
                                      {"global_store_requests", "global_store_sectors"},
                                      {"shared_load_requests", "shared_load_wavefronts"},
                                      {"shared_store_requests", "shared_store_wavefronts"}};
    char line[LINE], head_line[LINE], *head[MAX_FIELDS], *f[MAX_FIELDS];
    int nhead = 0, at[4][2], variant = -1, kernel = -1;
    while (fgets(line, sizeof line, in)) {
        if (line[0] == '#' || line[strspn(line, " \r\n")] == 0)
            continue;
        if (!nhead) {
            strcpy(head_line, line);
            nhead = split(head_line, head);
            variant = column(head, nhead, "variant");
            kernel = column(head, nhead, "kernel");
            for (int m = 0; m < 4; m++)
                for (int k = 0; k < 2; k++)
                    at[m][k] = column(head, nhead, pairs[m][k]);
            if (variant < 0 || kernel < 0) {
                fprintf(stderr, "requests-per-warp: %s is not a profile (no variant or kernel column)\n", path);
                return 1;
            }
            continue;
        }
        int n = split(line, f);
        if (n != nhead || (only && strcmp(f[variant], only) != 0))
            continue;
        if (name)
            printf("%s", name);
        else
            printf("%s; %s", label_of(f[variant]), f[kernel]);
        for (int m = 0; m < 4; m++) {
            double requests = at[m][0] >= 0 ? atof(f[at[m][0]]) : 0;
            if (requests > 0 && at[m][1] >= 0)
                printf(",%.2f", atof(f[at[m][1]]) / requests);
            else
                printf(",-");
        }
        printf("\n");
    }
    fclose(in);
    return 0;
}
