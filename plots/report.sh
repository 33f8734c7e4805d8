#!/usr/bin/env bash
# report.sh OUT_DIR
#
# One self-contained HTML page, OUT_DIR/tilelab-report.html, with every
# figure (this machine's runs where there are some, the recorded ones
# otherwise, each saying which) and the tables behind them; and the same as
# OUT_DIR/tilelab-report.pdf when pandoc and LaTeX are installed (make deps
# installs them for the slides). In the PDF each heading shares its page
# with its figure, and every table is printed.
set -u
out=$1
mkdir -p "$out"
have_latex=$(command -v pandoc >/dev/null && command -v pdflatex >/dev/null && echo 1)
FORMATS="png svg${have_latex:+ pdf}" plots/figures.sh "$out" local || exit 1
html=$out/tilelab-report.html

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }
table() { # CSV -> its # lines as a note, then an HTML table
    grep '^#' "$1" | sed 's/^# *//' | esc | awk 'NF { printf "%s<br>\n", $0 }' | sed '1s/^/<p class="meta">/;$s/$/<\/p>/'
    grep -v '^#' "$1" | esc | awk -F, 'BEGIN { print "<table>" }
        { printf "<tr>"; for (i = 1; i <= NF; i++) printf (NR == 1 && ($1 == "lab" || $1 == "variant") ? "<th>%s</th>" : "<td>%s</td>"), $i; print "</tr>" }
        END { print "</table>" }'
}

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
        [ ! -f "$out/$name.csv" ] || table "$out/$name.csv"
        for f in $sources; do
            echo "<p class=\"meta\">$(echo "$f" | esc)</p>"
            table "$f"
        done
        echo "</details>"
    done <"$out/figures.tsv"
    echo "</body></html>"
} >"$html"
echo "wrote $html"

[ -n "$have_latex" ] || { echo "no PDF: pandoc and LaTeX are not installed (make deps installs them); the HTML page holds everything"; exit 0; }

# ---------------------------------------------------------------- the PDF
tex() { sed -e 's/\\/\\textbackslash{}/g' -e 's/[&%$#_{}]/\\&/g' -e 's/\^/\\^{}/g' -e 's/~/\\~{}/g'; }
# md_table CSV: a Markdown table of its rows. Columns that hold one value in
# every row are said once, above it; a table still too wide for the page is
# turned, a row per column.
md_table() {
    awk -F, '
        /^#/ { next }
        !ncol { ncol = NF; for (i = 1; i <= NF; i++) head[i] = $i; next }
        NF { n++; for (i = 1; i <= ncol; i++) { v[n, i] = $i; if (n > 1 && $i != v[1, i]) varies[i] = 1 } }
        function cell(s) { gsub(/\|/, "/", s); return s == "" ? " " : s }
        END {
            if (!n) exit
            same = ""; k = 0
            for (i = 1; i <= ncol; i++) {
                if (n > 1 && !varies[i]) { if (v[1, i] != "") same = same (same ? ", " : "") head[i] "=" v[1, i] }
                else keep[++k] = i
            }
            if (same != "") printf "In every row: %s.\n\n", same
            width = 0
            for (j = 1; j <= k; j++) width += length(head[keep[j]]) + 3
            if (width <= 120) {
                line = "|"; rule = "|"
                for (j = 1; j <= k; j++) { line = line " " cell(head[keep[j]]) " |"; rule = rule "---|" }
                print line; print rule
                for (r = 1; r <= n; r++) { line = "|"; for (j = 1; j <= k; j++) line = line " " cell(v[r, keep[j]]) " |"; print line }
            } else {
                line = "| column |"; rule = "|---|"
                for (r = 1; r <= n; r++) { line = line " " r " |"; rule = rule "---|" }
                print line; print rule
                for (j = 1; j <= k; j++) { line = "| " cell(head[keep[j]]) " |"; for (r = 1; r <= n; r++) line = line " " cell(v[r, keep[j]]) " |"; print line }
            }
            print ""
        }' "$1"
}
md=$out/tilelab-report.md
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
        printf '\\centering\\includegraphics[width=\\linewidth,height=0.4\\textheight,keepaspectratio]{%s}\n' "$(cd "$out" && pwd)/$name.pdf"
        printf '\\end{minipage}\\par\\medskip\n```\n\n'
        if [ -f "$out/$name.csv" ]; then
            echo "The figure's numbers ($name.csv):"
            echo
            awk -F, 'NR == 1 { n = NF; s = "| "; r = "|"; for (i = 1; i <= NF; i++) { s = s (i == 1 ? "series" : "value " i - 1) " | "; r = r "---|" } print s; print r }
                     { s = "| "; for (i = 1; i <= n; i++) s = s $i " | "; print s }
                     END { print "" }' "$out/$name.csv"
        fi
        for f in $sources; do
            echo "From \`$f\`: $(grep -E '^# (machine|date|tunables|flags|compiler):' "$f" | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
            echo
            md_table "$f"
        done
    done <"$out/figures.tsv"
} >"$md"
if pandoc "$md" --from markdown --to latex --standalone -V documentclass=article -V papersize=a4 \
    --output "$out/tilelab-report.tex" 2>"$out/pandoc.log" &&
    (cd "$out" && pdflatex -interaction=nonstopmode -halt-on-error tilelab-report.tex >/dev/null 2>&1 &&
        pdflatex -interaction=nonstopmode -halt-on-error tilelab-report.tex >/dev/null 2>&1); then
    echo "wrote $out/tilelab-report.pdf"
else
    echo "report: the PDF failed ($out/tilelab-report.log):" >&2
    grep -A5 '^!' "$out/tilelab-report.log" 2>/dev/null | head -12 >&2
    cat "$out/pandoc.log" >&2
    exit 1
fi
