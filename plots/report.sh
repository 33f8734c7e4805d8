#!/usr/bin/env bash
# report.sh OUT_DIR
#
# One self-contained HTML page, OUT_DIR/tilelab-report.html, with every
# figure (this machine's runs where there are some, the recorded ones
# otherwise, each saying which) and the tables behind them; and a PDF of it
# when a browser that prints is installed (chromium, or wkhtmltopdf).
set -u
out=$1
mkdir -p "$out"
FORMATS="png svg" plots/figures.sh "$out" local || exit 1
html=$out/tilelab-report.html

esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }
table() { # CSV -> its # lines as a note, then an HTML table
    grep '^#' "$1" | sed 's/^# *//' | esc | awk 'NF { printf "%s<br>\n", $0 }' | sed '1s/^/<p class="meta">/;$s/$/<\/p>/'
    grep -v '^#' "$1" | esc | awk -F, 'BEGIN { print "<table>" }
        { printf "<tr>"; for (i = 1; i <= NF; i++) printf (NR == 1 && $1 == "lab" ? "<th>%s</th>" : "<td>%s</td>"), $i; print "</tr>" }
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
</style></head><body>
<h1>tilelab: figures and the numbers behind them</h1>
<p class="meta">Built $(date -u +%Y-%m-%dT%H:%MZ) by make report. Each figure says where its numbers come
from: this machine's runs (build/bench/) where they exist, else the runs recorded in plots/data/.
Bandwidth is (bytes read + bytes written) / 10<sup>9</sup> / s; the ceiling is a copy of the same
bytes in the same run.</p>
HEAD
    while IFS=$'\t' read -r name title sources; do
        echo "<h2>$(echo "$title" | esc)</h2>"
        echo "<img alt=\"$name\" src=\"data:image/png;base64,$(base64 -w0 "$out/$name.png")\">"
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

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$browser" ]; then
    "$browser" --headless --disable-gpu --no-sandbox --print-to-pdf="$out/tilelab-report.pdf" "file://$(cd "$out" && pwd)/tilelab-report.html" 2>/dev/null &&
        echo "wrote $out/tilelab-report.pdf"
elif command -v wkhtmltopdf >/dev/null; then
    wkhtmltopdf -q "$html" "$out/tilelab-report.pdf" && echo "wrote $out/tilelab-report.pdf"
else
    echo "no PDF: install chromium or wkhtmltopdf for one (the HTML page holds everything)"
fi
