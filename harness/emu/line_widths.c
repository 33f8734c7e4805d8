/* Lines of widths, as emu-sass-widths writes them and emu-sites reads them (line_widths.h). */
#include "line_widths.h"

#include <stdlib.h>
#include <string.h>

void tl_line_widths_write(FILE *f, const tl_line_widths *w)
{
    fprintf(f, "%ld", w->line);
    for (int k = 0; k < TL_SITE_KINDS; k++)
        fprintf(f, " %u", w->widths[k]);
    fprintf(f, "\n");
}

tl_line_widths *tl_line_widths_read(FILE *f, size_t *n)
{
    tl_line_widths *w = NULL;
    size_t cap = 0;
    char *text = NULL;
    size_t len = 0;
    *n = 0;
    while (getline(&text, &len, f) > 0) {
        tl_line_widths l = {0};
        char *at = text, *end;
        l.line = strtol(at, &end, 10);
        if (end == at)
            continue;
        for (int k = 0; k < TL_SITE_KINDS; k++) {
            at = end;
            l.widths[k] = (unsigned)strtoul(at, &end, 10);
        }
        if (*n == cap && !(w = realloc(w, (cap = cap ? 2 * cap : 64) * sizeof *w))) {
            perror("emulator");
            exit(1);
        }
        w[(*n)++] = l;
    }
    free(text);
    return w;
}

static const char *name_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int tl_names_file_of(const char *path, const char *src)
{
    return strcmp(name_of(path), name_of(src)) == 0;
}
