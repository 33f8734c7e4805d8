/*
 * The widths of nvcc's loads and stores per line of a lab file, as
 * emu-sass-widths writes them from its SASS and emu-sites reads them into
 * the table of access checks: a line of text a source line, "LINE GL GS SL
 * SS", the kinds in sites.h's order, each the sizes in bytes of the line's
 * instructions of that kind, one bit each (line_widths.c).
 */
#ifndef TILELAB_EMU_LINE_WIDTHS_H
#define TILELAB_EMU_LINE_WIDTHS_H

#include <stdio.h>

#include "sites.h"

typedef struct {
    long line;
    unsigned widths[TL_SITE_KINDS];
} tl_line_widths;

void tl_line_widths_write(FILE *f, const tl_line_widths *w);

/* Every line of f, *n of them; NULL where there is none. */
tl_line_widths *tl_line_widths_read(FILE *f, size_t *n);

/* Whether path names SRC's file: nvcc and g++ each write its path their own way, its name
 * alike. */
int tl_names_file_of(const char *path, const char *src);

#endif
