/* rewrite's list of a lab file's device functions, and C++ names' forms (device_names.h). */
#include "device_names.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_of(const char *s, size_t n)
{
    char *c = strndup(s, n);
    if (!c) {
        perror("emulator");
        exit(1);
    }
    return c;
}

int tl_device_names_read(const char *path, tl_device_names *d, char *why, size_t why_len)
{
    FILE *f = fopen(path, "r");
    memset(d, 0, sizeof *d);
    if (!f) {
        snprintf(why, why_len, "%s: cannot be read", path);
        return -1;
    }
    char *line = NULL;
    size_t len = 0;
    while (getline(&line, &len, f) > 0) {
        const char *kind = line + strspn(line, " \t\n");
        size_t kind_len = strcspn(kind, " \t\n");
        const char *name = kind + kind_len;
        name += strspn(name, " \t\n");
        char **names = realloc(d->names, (d->n + 1) * sizeof *names), **kinds = realloc(d->kinds, (d->n + 1) * sizeof *kinds);
        if (!names || !kinds) {
            perror("emulator");
            exit(1);
        }
        d->names = names, d->kinds = kinds;
        d->kinds[d->n] = copy_of(kind, kind_len);
        d->names[d->n++] = copy_of(name, strcspn(name, " \t\n"));
    }
    free(line);
    fclose(f);
    return 0;
}

const char *tl_device_kind(const tl_device_names *d, const char *base)
{
    /* The last line that names it, where two do. */
    for (size_t i = d->n; i-- > 0;)
        if (strcmp(d->names[i], base) == 0)
            return d->kinds[i];
    return NULL;
}

char *tl_cxx_qualified(const char *name)
{
    size_t end = strcspn(name, "(<");
    const char *start = name, *conversion = strstr(name, "operator ");
    /* A conversion operator has no return type, and its type follows a space: "S<float>::operator
     * float*() const" is S<float>::operator (its base "operator", as rewrite lists it). */
    if (conversion && (size_t)(conversion - name) < strcspn(name, "("))
        return copy_of(name, (size_t)(conversion - name) + 8);
    /* An operator of symbols ("operator<<", "operator()") ends after them. */
    const char *symbols = strstr(name, "operator");
    if (symbols && (size_t)(symbols - name) < end && symbols[8] && strchr("+-*/%^&|~!=<>[](,", symbols[8])) {
        size_t n = strspn(symbols + 8, "+-*/%^&|~!=<>[],");
        if (n == 0 && strncmp(symbols + 8, "()", 2) == 0)
            n = 2;
        end = (size_t)(symbols - name) + 8 + n + strcspn(symbols + 8 + n, "(<");
    }
    for (size_t i = 0; i < end; i++)
        if (name[i] == ' ')
            start = name + i + 1;
    return copy_of(start, end - (size_t)(start - name));
}

char *tl_cxx_base(const char *name)
{
    char *q = tl_cxx_qualified(name), *at = q, *colons;
    while ((colons = strstr(at, "::")) != NULL)
        at = colons + 2;
    char *b = copy_of(at, strlen(at));
    free(q);
    return b;
}

char *tl_cxx_shown(const char *name)
{
    static regex_t return_type;
    static int compiled;
    /* "void kern<64>": a return type, then a name with template arguments or none. */
    if (!compiled && regcomp(&return_type, "^[A-Za-z_0-9:<>, ]* [A-Za-z_][A-Za-z_0-9:]*(<.*>)?$", REG_EXTENDED | REG_NOSUB) != 0)
        abort();
    compiled = 1;
    char *shown = copy_of(name, strcspn(name, "("));
    const char *space = strchr(shown, ' '), *angle = strchr(shown, '<');
    /* (A conversion operator has none: "S::operator float" stays.) */
    int conversion = space && space - shown >= 8 && strncmp(space - 8, "operator", 8) == 0;
    if (space && !conversion && (!angle || space < angle) && regexec(&return_type, shown, 0, NULL, 0) == 0)
        memmove(shown, space + 1, strlen(space + 1) + 1);
    return shown;
}
