#!/usr/bin/env bash
# report.sh OUT_DIR
#
# One self-contained HTML page, OUT_DIR/tilelab-report.html, with every
# figure (this machine's runs where there are some, the recorded ones
# otherwise, each saying which) and the tables behind them; and the same as
# OUT_DIR/tilelab-report.pdf when pandoc and LaTeX are installed (make deps
# installs them for the slides). Both print each table as $REPORT_TABLE
# writes it (harness/tools/report_table.c): in the units people read, its
# constant columns said once, cut to the page's width, never turned. In the
# PDF each heading shares its page with its figure, the same figure as the
# page's, drawn as a PDF of the PNG's layout ('print').
set -u
out=$1
CSV_ROWS=${CSV_ROWS:-${B:-build}/csv-rows}
mkdir -p "$out"
have_latex=$(command -v pandoc >/dev/null && command -v pdflatex >/dev/null && echo 1)
steps=$([ -n "$have_latex" ] && echo 4 || echo 2)
step() { echo "report: step $1 of $steps: $2"; }

step 1 "the figures (png svg${have_latex:+, and a PDF of each for the PDF})"
FORMATS="png svg${have_latex:+ print}" plots/figures.sh "$out" local || exit 1
html=$out/tilelab-report.html

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }
# What a CSV's # lines say of its run (csv-rows reads them): machine, date, tunables, flags, compiler.
# A tunable given to make is recorded as the compiler's -DTILE_DIM=4: written
# TILE_DIM=4 here, as the figures and every other line of the report write it.
provenance() {
    "$CSV_ROWS" --facts "$1" | awk -F'\t' '$1 ~ /^(machine|date|tunables|flags|compiler)$/ { print $1 ": " $2 }' |
        sed -e '/^tunables:/s/-D\([A-Za-z_][A-Za-z0-9_]*=\)/\1/g' | paste -sd ';' | sed 's/; */; /g'
}

step 2 "the HTML page"
declare -A shown=()
{
    cat <<HEAD
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>tilelab report</title>
<style>
body { font-family: Helvetica, Arial, sans-serif; max-width: 60em; margin: 2em auto; color: #111; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2.2em; border-bottom: 1px solid #ccc; }
img { max-width: 100%; } .meta { color: #555; font-size: 0.85em; }
table { border-collapse: collapse; font-size: 0.8em; margin: 0.5em 0 1em; }
td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: right; } th { background: #eee; }
td.name { text-align: left; }
details { margin-bottom: 1em; }
@media print { .figure { break-inside: avoid; } h2 { break-after: avoid; } }
</style>
<script>/* printed, the page shows every table, not only the ones opened */
window.addEventListener('beforeprint', function () { document.querySelectorAll('details').forEach(function (d) { d.open = true; }); });
</script></head><body>
<h1>tilelab: figures and the numbers behind them</h1>
<p class="meta">Built $(date -u +%Y-%m-%dT%H:%MZ) by make report. Each figure says where its numbers come
from: this machine's runs (build/bench/) where they exist, else the runs recorded in plots/data/;
a figure never draws the two as one. Bandwidth is (bytes read + bytes written) / 10<sup>9</sup> / s;
the ceiling is a copy of the same bytes in the same run.</p>
HEAD
    while IFS=$'\t' read -r name title sources; do
        echo "<div class=\"figure\"><h2>$(echo "$title" | esc)</h2>"
        echo "<img alt=\"$name\" src=\"data:image/png;base64,$(base64 <"$out/$name.png" | tr -d '\n')\"></div>"
        echo "<details><summary>The data</summary>"
        if [ -f "$out/$name.csv" ]; then
            echo "<p class=\"meta\">The figure's numbers ($name.csv):</p>"
            "$REPORT_TABLE" --html "$out/$name.csv"
        fi
        for f in $sources; do
            echo "<p class=\"meta\">From $(echo "$f" | esc): $(provenance "$f" | esc)</p>"
            # A figure with its own table is summed up by it (a sweep's runs would take
            # pages); each other run's table once: a figure drawn from runs shown above points there.
            [ ! -f "$out/$name.csv" ] || continue
            if [ -z "${shown[$f]:-}" ]; then "$REPORT_TABLE" --html "$f"; else echo "<p class=\"meta\">(its table is under ${shown[$f]} above)</p>"; fi
            [ -n "${shown[$f]:-}" ] || shown[$f]="\"${title%% (*}\""
        done
        echo "</details>"
    done <"$out/figures.tsv"
    echo "</body></html>"
} >"$html"
echo "wrote $html"

[ -n "$have_latex" ] || { echo "no PDF: pandoc and LaTeX are not installed (make deps installs them); the HTML page holds everything"; exit 0; }

# ---------------------------------------------------------------- the PDF
tex() { sed -e 's/\\/\\textbackslash{}/g' -e 's/[&%$#_{}]/\\&/g' -e 's/\^/\\^{}/g' -e 's/~/\\~{}/g'; }
# timed FILE...: whether every one is a bench's run, with each repetition's times
# (median_s, min_s, max_s); a profile's or a cache simulation's CSV holds counts.
timed() {
    local f
    for f in "$@"; do "$CSV_ROWS" "$f" median_s >/dev/null 2>&1 || return 1; done
}
step 3 "the PDF's text (pandoc)"
md=$out/tilelab-report.md
shown=()
{
    printf -- '---\ntitle: "tilelab: figures and the numbers behind them"\ngeometry: margin=2cm\nfontsize: 10pt\n'
    printf -- 'header-includes: |\n  \\usepackage{graphicx}\n  \\usepackage{etoolbox}\n  \\AtBeginEnvironment{longtable}{\\scriptsize}\n---\n\n'
    echo "Built $(date -u +%Y-%m-%dT%H:%MZ) by make report. Each figure says where its numbers come from:"
    echo "this machine's runs (build/bench/) where they exist, else the runs recorded in plots/data/;"
    echo "a figure never draws the two as one. Bandwidth is (bytes read + bytes written) / 10^9^ / s."
    echo
    while IFS=$'\t' read -r name title sources; do
        # The heading and its figure in one unbreakable box: never a heading
        # at the foot of a page and its figure on the next.
        printf '```{=latex}\n\\par\\bigskip\\noindent\\begin{minipage}{\\linewidth}\n'
        printf '\\subsection*{%s}\n' "$(echo "$title" | tex)"
        printf '\\centering\\includegraphics[width=\\linewidth,height=0.45\\textheight,keepaspectratio]{%s}\n' "$(cd "$out" && pwd)/$name.pdf"
        printf '\\end{minipage}\\par\\medskip\n```\n\n'
        if [ -f "$out/$name.csv" ]; then
            echo "The figure's numbers ($name.csv):"
            echo
            "$REPORT_TABLE" "$out/$name.csv"
        fi
        # A figure with its own table is summed up by it: the tables of the runs it was
        # drawn from (a page or more each, for a sweep) are not printed again.
        for f in $sources; do
            echo "From \`$f\`: $(provenance "$f" | sed 's/[][\\`*_<>#|^~$]/\\&/g')"
            echo
            [ ! -f "$out/$name.csv" ] || continue
            if [ -z "${shown[$f]:-}" ]; then "$REPORT_TABLE" "$f"; else echo "(Its table is under ${shown[$f]} above.)"; echo; fi
            [ -n "${shown[$f]:-}" ] || shown[$f]="\"${title%% (*}\""
        done
        if [ -f "$out/$name.csv" ] && [ "$(wc -w <<<"$sources")" -gt 1 ]; then
            # shellcheck disable=SC2086
            if timed $sources; then
                echo "(Each run's own numbers, with the median, fastest and slowest run and the spread: the CSV files above.)"
            else
                echo "(Each run's own counts, row by row: the CSV files above.)"
            fi
            echo
        fi
    done <"$out/figures.tsv"
} >"$md"
# --columns: no table is wider than the page (report-table cuts them to it), so none
# needs pandoc's relative widths, which wrap each cell into a narrow column.
pandoc "$md" --from markdown --to latex --standalone --columns=250 -V documentclass=article -V papersize=a4 \
    --output "$out/tilelab-report.tex" 2>"$out/pandoc.log" || { cat "$out/pandoc.log" >&2; exit 1; }
step 4 "the PDF's pages (pdflatex, twice)"
if (cd "$out" && pdflatex -interaction=nonstopmode -halt-on-error tilelab-report.tex >/dev/null 2>&1 &&
    pdflatex -interaction=nonstopmode -halt-on-error tilelab-report.tex >/dev/null 2>&1); then
    echo "wrote $out/tilelab-report.pdf ($(pdfinfo "$out/tilelab-report.pdf" 2>/dev/null | awk '/^Pages:/ { print $2 " pages" }'))"
else
    echo "report: the PDF failed ($out/tilelab-report.log):" >&2
    grep -A5 '^!' "$out/tilelab-report.log" 2>/dev/null | head -12 >&2
    exit 1
fi
