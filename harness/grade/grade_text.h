/*
 * Text from student code, made safe to show: valid UTF-8 for JSON, no
 * control characters or terminal escapes for people, markup-safe for XML.
 */
#ifndef TILELAB_GRADE_TEXT_H
#define TILELAB_GRADE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* A JSON string, quotes included: invalid UTF-8 becomes U+FFFD, controls are escaped. */
void tl_json_string(FILE *f, const char *s);

/* XML character data: invalid UTF-8 becomes U+FFFD, controls other than newline are dropped. */
void tl_xml_text(FILE *f, const char *s);

/* What the first n bytes of s take, shown as tl_json_string (quotes left
 * out) and tl_xml_text show them: how a report keeps within a size. */
size_t tl_json_length(const char *s, size_t n);
size_t tl_xml_length(const char *s, size_t n);

/* n, or less where n would cut a UTF-8 character of s; strlen(s) at most. */
size_t tl_utf8_cut(const char *s, size_t n);

/* For a terminal or a text file: terminal escape sequences and control
 * characters are dropped (a tab becomes a space), invalid UTF-8 becomes '?',
 * and every line after the first starts with `indent`; at most max_lines lines. */
void tl_plain_text(FILE *f, const char *s, const char *indent, int max_lines);

/* s with every occurrence of from[k] replaced by to[k], k < n, tried in that
 * order at each place (put a folder before the folders it holds); s is freed. */
char *tl_replace_all(char *s, int n, char *const from[], char *const to[]);

/* The whole file, or "" if it cannot be read; at most max bytes. Free it. */
char *tl_slurp(const char *path, long max);

/* cp from to, to made with mode (less the umask) or emptied: 0, or -1 where a read or
 * a write failed. */
int tl_copy_file(const char *from, const char *to, unsigned mode);

#endif
