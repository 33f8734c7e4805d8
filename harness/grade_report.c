/*
 * grade-report NAME RESULTS.tsv OUT_DIR NOTE
 *
 * Turns the grader's results (one line per graded item: lab, test, part,
 * score, max score, visibility, file holding its output) into
 * OUT_DIR/results.json (Gradescope's format), OUT_DIR/junit.xml,
 * OUT_DIR/summary.txt for people, and OUT_DIR/scores.tsv (lab, score, max)
 * for the class gradebook.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 4096
#define MAX_LABS 100

typedef struct {
    int lab;
    char test[128], part[32], visibility[16], output_path[1024];
    double score, max;
} item;

static item items[MAX_ITEMS];
static int n_items;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!buf)
        return strdup("");
    buf[got] = '\0';
    return buf;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if (*p >= 0x20 || *p == '\n' || *p == '\t')
                fputc(*p, f);
        }
    }
}

static int read_results(const char *path)
{
    char line[2048];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    while (n_items < MAX_ITEMS && fgets(line, sizeof line, f)) {
        item *it = &items[n_items];
        char *field[7];
        char *save = NULL, *p = line;
        int n = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *tok = strtok_r(p, "\t", &save); tok && n < 7; tok = strtok_r(NULL, "\t", &save))
            field[n++] = tok;
        if (n != 7)
            continue;
        it->lab = atoi(field[0]);
        snprintf(it->test, sizeof it->test, "%s", field[1]);
        snprintf(it->part, sizeof it->part, "%s", field[2]);
        it->score = atof(field[3]);
        it->max = atof(field[4]);
        snprintf(it->visibility, sizeof it->visibility, "%s", field[5]);
        snprintf(it->output_path, sizeof it->output_path, "%s", field[6]);
        n_items++;
    }
    fclose(f);
    return 1;
}

static int passed(const item *it)
{
    return it->score >= it->max - 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: grade-report NAME RESULTS.tsv OUT_DIR NOTE\n");
        return 2;
    }
    const char *name = argv[1], *dir = argv[3], *note = argv[4];
    if (!read_results(argv[2])) {
        fprintf(stderr, "grade-report: cannot read %s\n", argv[2]);
        return 1;
    }
    char path[1200];
    double total = 0, total_max = 0;
    double lab_score[MAX_LABS] = {0}, lab_max[MAX_LABS] = {0}, part[MAX_LABS][3] = {{0}},
           part_max[MAX_LABS][3] = {{0}};
    static const char *parts[3] = {"correctness", "technique", "performance"};
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        int lab = it->lab >= 0 && it->lab < MAX_LABS ? it->lab : 0;
        total += it->score;
        total_max += it->max;
        lab_score[lab] += it->score;
        lab_max[lab] += it->max;
        for (int k = 0; k < 3; k++)
            if (!strcmp(it->part, parts[k])) {
                part[lab][k] += it->score;
                part_max[lab][k] += it->max;
            }
    }

    snprintf(path, sizeof path, "%s/results.json", dir);
    FILE *json = fopen(path, "w");
    snprintf(path, sizeof path, "%s/junit.xml", dir);
    FILE *xml = fopen(path, "w");
    snprintf(path, sizeof path, "%s/summary.txt", dir);
    FILE *txt = fopen(path, "w");
    snprintf(path, sizeof path, "%s/scores.tsv", dir);
    FILE *tsv = fopen(path, "w");
    if (!json || !xml || !txt || !tsv) {
        perror(dir);
        return 1;
    }

    fprintf(json, "{\n  \"score\": %.2f,\n  \"output\": ", total);
    char header[512];
    snprintf(header, sizeof header, "tilelab: %s, %.2f of %.2f points (%s)", name, total, total_max,
             note);
    json_string(json, header);
    fprintf(json, ",\n  \"tests\": [");
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        char *out = slurp(it->output_path);
        char title[256];
        snprintf(title, sizeof title, "lab %d %s: %s", it->lab, it->part, it->test);
        fprintf(json, "%s\n    {\"name\": ", i ? "," : "");
        json_string(json, title);
        fprintf(json, ", \"score\": %.4f, \"max_score\": %.4f, \"visibility\": ", it->score, it->max);
        json_string(json, it->visibility);
        fprintf(json, ", \"output\": ");
        json_string(json, out);
        fprintf(json, "}");
        free(out);
    }
    fprintf(json, "\n  ]\n}\n");

    fprintf(xml, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"");
    xml_text(xml, name);
    fprintf(xml, "\">\n");
    for (int lab = 0; lab < MAX_LABS; lab++) {
        int tests = 0, failures = 0;
        for (int i = 0; i < n_items; i++)
            if (items[i].lab == lab) {
                tests++;
                failures += !passed(&items[i]);
            }
        if (!tests)
            continue;
        fprintf(xml, "  <testsuite name=\"lab%02d\" tests=\"%d\" failures=\"%d\">\n", lab, tests,
                failures);
        for (int i = 0; i < n_items; i++) {
            item *it = &items[i];
            if (it->lab != lab)
                continue;
            fprintf(xml, "    <testcase classname=\"lab%02d.%s\" name=\"", lab, it->part);
            xml_text(xml, it->test);
            fprintf(xml, "\">");
            if (!passed(it)) {
                char *out = slurp(it->output_path);
                fprintf(xml, "\n      <failure message=\"%.2f of %.2f points\">", it->score, it->max);
                xml_text(xml, out);
                fprintf(xml, "</failure>\n    ");
                free(out);
            }
            fprintf(xml, "</testcase>\n");
        }
        fprintf(xml, "  </testsuite>\n");
    }
    fprintf(xml, "</testsuites>\n");

    fprintf(txt, "%s\n\n%-6s %14s %14s %14s %14s\n", header, "lab", "correctness", "technique",
            "performance", "total");
    for (int lab = 0; lab < MAX_LABS; lab++) {
        if (lab_max[lab] <= 0)
            continue;
        fprintf(txt, "%-6d", lab);
        for (int k = 0; k < 3; k++)
            fprintf(txt, " %6.2f / %5.2f", part[lab][k], part_max[lab][k]);
        fprintf(txt, " %6.2f / %5.2f\n", lab_score[lab], lab_max[lab]);
        fprintf(tsv, "%d\t%.2f\t%.2f\n", lab, lab_score[lab], lab_max[lab]);
    }
    fprintf(txt, "\nWhat lost points (first lines of each):\n");
    for (int i = 0; i < n_items; i++) {
        item *it = &items[i];
        if (passed(it))
            continue;
        char *out = slurp(it->output_path);
        fprintf(txt, "\nlab %d %s: %s (%.2f of %.2f)%s\n", it->lab, it->part, it->test, it->score,
                it->max, strcmp(it->visibility, "hidden") ? "" : " [held back]");
        int lines = 0;
        for (char *p = out; *p && lines < 8; p++) {
            if (p == out || p[-1] == '\n')
                fputs("    ", txt);
            fputc(*p, txt);
            lines += *p == '\n';
        }
        if (lines < 8 && out[0] && out[strlen(out) - 1] != '\n')
            fputc('\n', txt);
        free(out);
    }
    fclose(json);
    fclose(xml);
    fclose(txt);
    fclose(tsv);
    printf("%s: %.2f of %.2f points: %s/summary.txt\n", name, total, total_max, dir);
    return 0;
}
