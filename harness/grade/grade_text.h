/*
 * Text from student code, made safe to show: valid UTF-8 for JSON, no
 * control characters or terminal escapes for people, markup-safe for XML.
 */
#ifndef TILELAB_GRADE_TEXT_H
#define TILELAB_GRADE_TEXT_H

#include <stdio.h>

/* A JSON string, quotes included: invalid UTF-8 becomes U+FFFD, controls are escaped. */
void tl_json_string(FILE *f, const char *s);

/* XML character data: invalid UTF-8 becomes U+FFFD, controls other than newline are dropped. */
void tl_xml_text(FILE *f, const char *s);

/* For a terminal or a text file: terminal escape sequences and control
 * characters are dropped (a tab becomes a space), invalid UTF-8 becomes '?',
 * and every line after the first starts with `indent`; at most max_lines lines. */
void tl_plain_text(FILE *f, const char *s, const char *indent, int max_lines);

/* The whole file, or "" if it cannot be read; at most max bytes. Free it. */
char *tl_slurp(const char *path, long max);

#endif
