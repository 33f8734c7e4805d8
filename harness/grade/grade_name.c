/*
 * grade-name: a hand-in's name as the grader keeps it, a folder and a row of
 * the gradebook: letters, digits and . _ - as they are, each other character
 * one _ ("Smith, Anna" is Smith__Anna, "Chloé Dubois" Chlo__Dubois: é is
 * one character, two bytes, and one _), a leading . dropped (no
 * hidden folder), a leading - as _ (a spreadsheet reads "-dave", the
 * gradebook's first cell of a row, as a formula, #NAME?, and a shell
 * build/grade/-dave/... read as an option), and "handin" for a name left
 * empty. A character is one of
 * UTF-8: a byte that starts one and the bytes that continue it; a byte that
 * is no part of a well-formed character counts as one. grade.sh and
 * handins.sh (grade-all, Slurm) both ask it, so that every path names a
 * hand-in alike.
 *
 * usage: grade-name NAME
 *
 * Exit status: 0; 2 for usage.
 */
#include <stdio.h>
#include <string.h>

/* The length of the UTF-8 character at s (n bytes left), 1 for a byte
 * that starts none or whose character is cut short or malformed. */
static size_t char_length(const unsigned char *s, size_t n)
{
    size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 1;
    if (len > n)
        return 1;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 1;
    return len;
}

static int kept(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: grade-name NAME\n");
        return 2;
    }
    const unsigned char *s = (const unsigned char *)argv[1];
    size_t n = strlen(argv[1]), i = s[0] == '.' ? 1 : 0, out = 0;
    for (; i < n; i += char_length(s + i, n - i), out++)
        putchar(kept(s[i]) && !(out == 0 && s[i] == '-') ? s[i] : '_');
    if (!out)
        fputs("handin", stdout);
    putchar('\n');
    return 0;
}
