#!/usr/bin/env bash
# Every figure the recorded data allows is drawn, and none is missing or
# empty; make plots names what it could not draw; the report holds them
# all. Then a student's day, in a copy of the kit whose labs hold complete
# solutions: their own plot survives make plots, and the report never draws
# this machine's runs and recorded ones as one series, nor a profile built
# with other tunables as the reference's. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

if make -s plots FIGURE_DIR="$tmp/plots" >"$tmp/log" 2>&1; then ok "make plots draws from plots/data"; else not_ok "make plots failed" "$tmp/log"; fi

# expect FIGURE DATA...: the figure exists, non-empty, when any of its data files does
expect() {
    local fig=$1 f have=0
    shift
    for f in "$@"; do [ ! -s "$f" ] || have=1; done
    [ $have -eq 1 ] || return 0
    for fmt in png svg; do
        if [ -s "$tmp/plots/$fig.$fmt" ]; then ok "$fig.$fmt drawn"; else not_ok "$fig.$fmt missing or empty"; fi
    done
}
for csv in plots/data/lab[0-9][0-9].csv; do
    [ -e "$csv" ] || continue
    expect "$(basename "$csv" .csv)" "$csv"
done
expect ladder plots/data/lab0[1-6].csv
# Every lab with a run at the ladder's size has its bar: a sum's at as many floats (its rows x
# cols carry a count as 1 x N), which the ladder once left out (README: "every lab").
if [ -s plots/data/lab10.csv ]; then
    if grep -q '^lab 10 reduction,0\.9' "$tmp/plots/ladder.csv"; then
        ok "the ladder has lab 10's bar, its reference at 4096 x 4096 floats"
    else
        not_ok "the ladder leaves lab 10 out" "$tmp/plots/ladder.csv"
    fi
fi
expect cpu-olevels plots/data/lab01-O*.csv
expect cpu-blocks plots/data/lab02-BLOCK*.csv
expect cpu-cache plots/data/lab02-cache.csv
expect gpu-sweep plots/data/lab06-sweep.csv
expect gpu-tiles plots/data/lab04-TILE_DIM*.csv
expect gpu-requests plots/data/lab0[3-6]-profile.csv
expect gpu-traffic plots/data/lab0[78]-profile.csv

# Every reader of a CSV goes by its header's names: the recorded runs with
# their columns in reverse order draw the very same figures.
mkdir -p "$tmp/reversed"
for f in plots/data/*; do
    [ -f "$f" ] || continue # a folder of raw runs (ncu, logs): no figure reads it
    case $f in
    *.csv) awk -F, '/^#/ || !NF { print; next } { s = $NF; for (i = NF - 1; i >= 1; i--) s = s "," $i; print s }' "$f" ;;
    *) cat "$f" ;;
    esac >"$tmp/reversed/${f##*/}"
done
if make -s plots FIGURE_DIR="$tmp/plots-reversed" PLOTS_DATA="$tmp/reversed" >"$tmp/reversed.log" 2>&1; then
    same=0 differ=
    for f in "$tmp"/plots/*.svg; do
        if cmp -s "$f" "$tmp/plots-reversed/${f##*/}"; then same=$((same + 1)); else differ="$differ ${f##*/}"; fi
    done
    if [ "$same" -gt 0 ] && [ -z "$differ" ]; then
        ok "all $same figures are the same drawn from CSVs with their columns reversed: read by column name"
    else
        not_ok "figures that change when the CSVs' columns are reordered (read by position?):${differ:- none compared}" "$tmp/reversed.log"
    fi
else
    not_ok "make plots failed on CSVs with their columns reversed" "$tmp/reversed.log"
fi

# Each figure the README promises is drawn or named, with how to make it.
unnamed=
kit_labs || not_ok "the table of labs"
for fig in "${labs[@]/#/lab}" \
    ladder cpu-olevels cpu-blocks cpu-cache gpu-sweep gpu-tiles gpu-inplace-blocks gpu-requests gpu-traffic; do
    [ -s "$tmp/plots/$fig.png" ] || grep -qE "^ +$fig +.*make " "$tmp/log" || unnamed="$unnamed $fig"
done
if [ -z "$unnamed" ]; then ok "make plots names each figure it did not draw, and how to make it"; else not_ok "not drawn and not named:$unnamed" "$tmp/log"; fi

# Read at the back of a lecture hall: a slide shows a PDF figure at about
# 60 % of its text height (200 pt), where a label should be 9 pt or more:
# 7.5 % of the figure's height, whose glyphs measure 0.78 of that, 5.8 %.
if FORMATS=pdf LABS_TSV=$tmp/labs/labs.tsv \
    plots/figures.sh "$tmp/pdf" recorded >"$tmp/pdf.log" 2>&1; then
    small=
    for pdf in "$tmp"/pdf/*.pdf; do
        h=$(pdftotext -bbox "$pdf" - | awk -F'"' '/<page / { h = $4 }
            /<word / { w = $9; sub(/^>/, "", w); sub(/<.*/, "", w); if (w ~ /^[0-9.%]+$/) print ($8 - $4) / h }' |
            sort -g | awk '{ a[NR] = $1 } END { print NR ? a[int((NR + 1) / 2)] : 0 }')
        awk -v h="$h" 'BEGIN { exit !(h >= 0.058) }' || small="$small $(basename "$pdf") ($h)"
    done
    if [ -z "$small" ]; then ok "tick labels of every PDF figure are large enough for a projector"; else not_ok "tick labels too small:$small"; fi
    # No two words of a figure overlap (ladder.png once read "coalescedbank-free"): the
    # PDFs, a slide's size, are the most crowded of the formats.
    overlaps=
    for pdf in "$tmp"/pdf/*.pdf; do
        o=$(pdftotext -bbox "$pdf" - | awk '/<word / { split($0, a, "\""); n++; x0[n] = a[2]; y0[n] = a[4]; x1[n] = a[6]; y1[n] = a[8]
                w = $0; sub(/.*">/, "", w); sub(/<.*/, "", w); t[n] = w }
            END { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) {
                    ox = (x1[i] < x1[j] ? x1[i] : x1[j]) - (x0[i] > x0[j] ? x0[i] : x0[j])
                    oy = (y1[i] < y1[j] ? y1[i] : y1[j]) - (y0[i] > y0[j] ? y0[i] : y0[j])
                    if (ox > 0.5 && oy > 0.5) { print t[i] "/" t[j]; exit } } }')
        [ -z "$o" ] || overlaps="$overlaps $(basename "$pdf" .pdf) ($o)"
    done
    if [ -z "$overlaps" ]; then ok "no two words overlap in any PDF figure"; else not_ok "words drawn over each other:$overlaps"; fi
else
    not_ok "drawing the PDF figures failed" "$tmp/pdf.log"
fi

# Each bench point has its bar (slowest to fastest run), and a point whose
# side is no tick's is named: lab 1's 4097x8191.
if grep -q '4097x8191' "$tmp/plots/lab01.svg" &&
    awk -F, '/^#/ { next } $3 != "NaN" && !($4 <= $3 && $3 <= $5) { bad = 1 } END { exit bad || NR == 0 }' "$tmp/plots/cpu-olevels.csv" &&
    grep -q ',4097x8191$' "$tmp/plots/cpu-olevels.csv"; then
    ok "bench figures draw each point's spread and name the 4097x8191 point"
else
    not_ok "a figure without its spread, or 4097x8191 unnamed" "$tmp/plots/cpu-olevels.csv"
fi
# The heatmap says at which size it was swept.
if awk -F'\t' '$1 == "gpu-sweep"' "$tmp/plots/figures.tsv" | grep -qE ' at [0-9]+x[0-9]+' || [ ! -s plots/data/lab06-sweep.csv ]; then
    ok "the sweep's heatmap names its matrix size"
else
    not_ok "the sweep's heatmap omits its size"
fi

# The cache figure says at which size it simulated.
if awk -F'\t' '$1 == "cpu-cache"' "$tmp/plots/figures.tsv" | grep -qE '[0-9]+x[0-9]+' || [ ! -s plots/data/lab02-cache.csv ]; then
    ok "the cache-miss figure names its matrix size"
else
    not_ok "the cache-miss figure omits the size it simulated"
fi

# svg_texts FILE: "y<TAB>text" for each text of a gnuplot SVG, in the order drawn.
svg_texts() {
    awk '/<g transform="translate\(/ { y = $0; sub(/.*translate\([^,]*,/, "", y); sub(/[) ].*/, "", y) }
        /<text>/ { t = $0; gsub(/<[^>]*>/, "", t); sub(/^[ \t]+/, "", t); print y "\t" t }' "$1"
}

# over_lines SVG: each text of a gnuplot SVG drawn over a line or a point of it (its
# box estimated from its anchor, font size and length; rotated text, the y label, left out).
over_lines() {
    awk '
        buf != "" { buf = buf " " $0; if ($0 !~ /\/>/) next; $0 = buf; buf = "" }
        /<path / && $0 !~ /\/>/ { buf = $0; next }
        /<path / && !/class="gridline"/ && !/id=\047gpPt/ && match($0, /d=\047M[^\047]*\047/) {
            n = split(substr($0, RSTART + 3, RLENGTH - 4), tok, /[ \t]+/)
            for (i = 1; i <= n; i++) {
                if (split(substr(tok[i], 2), p, ",") != 2) continue
                if (substr(tok[i], 1, 1) == "L") for (k = 0; k <= 40; k++) { ns++; sx[ns] = px + (p[1] - px) * k / 40; sy[ns] = py + (p[2] - py) * k / 40 }
                px = p[1]; py = p[2]
            }
        }
        /<use / && !/scale\(0\.00\)/ && match($0, /translate\([^)]*\)/) { split(substr($0, RSTART + 10, RLENGTH - 11), p, ","); ns++; sx[ns] = p[1]; sy[ns] = p[2] }
        /<g transform="translate\(/ && !/rotate/ {
            t = $0; sub(/.*translate\(/, "", t); split(t, p, /[,)]/); tx = p[1]; ty = p[2]
            fs = 17; if (match($0, /font-size="[0-9.]+"/)) fs = substr($0, RSTART + 11, RLENGTH - 12)
            anchor = $0 ~ /text-anchor="end"/ ? "end" : $0 ~ /text-anchor="middle"/ ? "middle" : "start"; want = 1; next
        }
        want && /<text>/ { s = $0; gsub(/<[^>]*>/, "", s); gsub(/^[ \t]+|[ \t]+$/, "", s); want = 0
            if (s == "") next
            nt++; txt[nt] = s; w = 0.5 * fs * length(s)
            x0[nt] = anchor == "start" ? tx : anchor == "middle" ? tx - w / 2 : tx - w; x1[nt] = x0[nt] + w
            y0[nt] = ty - 0.7 * fs; y1[nt] = ty + 0.1 * fs
        }
        END { for (t = 1; t <= nt; t++) for (i = 1; i <= ns; i++)
                if (sx[i] > x0[t] && sx[i] < x1[t] && sy[i] > y0[t] && sy[i] < y1[t]) { print txt[t]; break } }' "$1"
}
# A size with no tick of its own is named on the axis, where no line or point lies: named
# beside its point, lab 8's 2000³ sat on the reference's line, lab 3's 4097x8191 on cuBLAS's.
drawn_over=
for svg in "$tmp"/plots/lab[0-9][0-9].svg; do
    o=$(over_lines "$svg" | paste -sd'|')
    [ -z "$o" ] || drawn_over="$drawn_over $(basename "$svg") ($o)"
done
if [ -z "$drawn_over" ]; then ok "no text of a bench figure lies over its lines or points"; else not_ok "text drawn over a figure's lines:$drawn_over"; fi

# A bench figure whose rates lie more than 8 times apart (lab 1's naive loop at
# 1 GB/s beside a copy at 20) has a log y axis, so that no line lies flat on 0;
# one whose rates lie close has a linear one. A square is named by its
# side alone ("1000"), so that 1000's and 1500's never run together.
wrong=
for csv in plots/data/lab[0-9][0-9].csv; do
    svg=$tmp/plots/$(basename "$csv" .csv).svg
    [ -s "$svg" ] || continue
    far=$(awk -F, 'FNR == 1 { h = 0 } /^#/ || NF == 0 { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["rate"] > 0 { if (!lo || $c["rate"] < lo) lo = $c["rate"]; if ($c["rate"] > hi) hi = $c["rate"] } END { print (hi > 8 * lo) }' "$csv")
    if [ "$far" = 1 ]; then grep -q 'log scale (bars' "$svg" || wrong="$wrong ${svg##*/}(linear)"; else ! grep -q 'log scale (bars' "$svg" || wrong="$wrong ${svg##*/}(log)"; fi
done
if grep -q '^2,[a-z]*,1000,1000,' plots/data/lab02.csv; then
    svg_texts "$tmp/plots/lab02.svg" | grep -q '	1000$' && ! grep -q '1000x1000' "$tmp/plots/lab02.svg" || wrong="$wrong lab02.svg(1000x1000 named in full)"
fi
if [ -z "$wrong" ]; then ok "bench figures: a log y axis where rates lie far apart, a square named by its side"; else not_ok "bench figures' scales or names:$wrong"; fi
# The -O levels' table gives sizes as sizes (4097x8191), not as the side of a square (5792.97).
if grep -q '^-O0,4097x8191,' "$tmp/plots/cpu-olevels.csv" &&
    "$build/report-table" "$tmp/plots/cpu-olevels.csv" | grep -q '^| -O0 | 4097x8191 |' &&
    ! "$build/report-table" "$tmp/plots/cpu-olevels.csv" | grep -q '5792'; then
    ok "the -O levels' table names each size, 4097x8191"
else
    not_ok "the -O levels' table gives a side (5792.97) for 4097x8191" "$tmp/plots/cpu-olevels.csv"
fi

# Titles fit the figure (no line over 80 characters), and 10^9 is written
# one way: a superscript, never "10^9" as typed.
# Each bench line runs left to right: a recorded run that appends an odd
# shape (lab 3's 4097x8191) after its squares is drawn in order of size, not
# joined back from 16384 to 5793. Read off the SVG: every line's points after
# its legend sample.
backwards=$(awk -v RS="<g id=\"gnuplot_plot_" 'NR > 1 && /<path stroke=.rgb/ {
        d = $0; sub(/.* d=.M[^M]*M/, "", d); sub(/\047.*/, "", d)
        n = split(d, pt, / *L */); last = -1
        for (i = 1; i <= n; i++) { split(pt[i], xy, ","); if (xy[1] + 0 < last) { print FILENAME; break }; last = xy[1] + 0 }
    }' "$tmp"/plots/lab0[3-9].svg | sort -u | xargs -r -n1 basename | paste -sd' ')
if [ -z "$backwards" ]; then ok "every bench figure joins its points in order of size"; else not_ok "lines joined out of order in: $backwards"; fi
long=$(grep -ho '<text[^>]*>[^<]*' "$tmp"/plots/*.svg | sed 's/<text[^>]*>//' | awk 'length > 80' | head -2)
if [ -z "$long" ]; then ok "no line of text in a figure runs past 80 characters"; else not_ok "text lines too long for a figure: $long"; fi
if ! grep -l -e '10^9' -e '10^{9}' "$tmp"/plots/*.svg >/dev/null; then ok "no figure writes 10^9 as typed (it is a superscript where it appears)"; else not_ok "a figure writes 10^9 as typed: $(grep -l -e '10^9' -e '10^{9}' "$tmp"/plots/*.svg | head -2)"; fi

if make -s report B="$build" >"$tmp/report.log" 2>&1 && [ -s "$build/report/tilelab-report.html" ]; then
    figures=$(wc -l <"$build/report/figures.tsv")
    images=$(grep -c 'src="data:image/png;base64,' "$build/report/tilelab-report.html")
    if [ "$figures" -gt 0 ] && [ "$images" -eq "$figures" ]; then ok "the report holds all $figures figures"; else not_ok "the report holds $images of $figures figures"; fi
    # Tunables in one form: TILE_DIM=4, as the figures write them, never the compiler's -DTILE_DIM=4.
    if grep -q 'tunables: student [A-Z_]*=[0-9]' "$build/report/tilelab-report.html" &&
        ! grep -oE 'tunables: student [^;]*; reference [^;]*' "$build/report/tilelab-report.html" | grep -qE -- '-D[A-Z_]+='; then
        ok "the report writes tunables as TILE_DIM=4 everywhere, never -DTILE_DIM=4"
    else
        not_ok "the report writes tunables in two forms: $(grep -oE -- '-D[A-Z_]+=[0-9]+' "$build/report/tilelab-report.html" | sort -u | head -3 | paste -sd' ')"
    fi
else
    not_ok "make report failed" "$tmp/report.log"
fi

# The report's PDF: each heading on the page of its figure, every table in it.
pdf=$build/report/tilelab-report.pdf
if ! command -v pandoc >/dev/null || ! command -v pdflatex >/dev/null; then
    ok "# SKIP the report's PDF needs pandoc and LaTeX (make deps installs them)"
elif [ -s "$pdf" ]; then
    pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
    apart= missing=
    while IFS=$'\t' read -r name title sources; do
        head=$(echo "$title" | cut -c1-30)
        # the longest line of the figure's own text: a legend entry or an axis label
        inside=$(pdftotext "$build/report/$name.pdf" - | awk 'length > length(best) { best = $0 } END { print best }')
        together=0
        for p in $(seq 1 "$pages"); do
            text=$(pdftotext -f "$p" -l "$p" "$pdf" - | tr '\n' ' ' | tr -s ' ')
            if [[ $text == *"$head"* ]] && [[ $text == *"$inside"* ]]; then together=1; fi
        done
        [ $together -eq 1 ] || apart="$apart $name"
        # a figure with its own table is summed up by it; the others, by their runs' tables
        [ ! -f "$build/report/$name.csv" ] || sources=$build/report/$name.csv
        for f in $sources; do
            # a bench CSV's rate, or a figure's first measurement (its header is a "# columns:" line)
            value=$(awk -F, 'FNR == 1 { h = 0 } /^# columns: / { h = 1; next } /^#/ || !NF { next } !h++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
                { v = $NF; if (c["rate"]) v = $(c["rate"]); else for (i = 2; i <= NF; i++) if ($i ~ /^-?[0-9]+\.[0-9]+$/) { v = $i; break }
                  a = v < 0 ? -v : v   # as report-table prints it: three figures
                  if (v ~ /[.eE]/) v = a >= 1000 ? sprintf("%.0f", v) : a >= 0.001 || a == 0 ? sprintf("%.3g", v) : sprintf("%.6f", v)
                  print v; exit }' "$f")
            pdftotext "$pdf" - | grep -qF -- "$value" || missing="$missing $f($value)"
        done
    done <"$build/report/figures.tsv"
    if [ -z "$apart" ]; then ok "in the report's PDF each heading shares its page with its figure"; else not_ok "headings apart from their figures:$apart"; fi
    # It prints: no word past the right margin (2 cm), no number in exponent form, every
    # bench table with its columns in units, no cell shifted, and as many tables as the page.
    wide=$(pdftotext -bbox "$pdf" - | awk -F'"' '/<page / { w = $2; p++ } /<word / && $6 > w - 54 { print "page " p ": " $0; exit }')
    if [ -z "$wide" ]; then ok "no word of the report's PDF runs past its right margin"; else not_ok "the report's PDF runs off the page: $wide"; fi
    text=$(pdftotext "$pdf" -)
    if ! grep -qE '[0-9]e[-+][0-9]' <<<"$text"; then ok "the report's PDF prints no number in exponent form"; else not_ok "numbers in exponent form: $(grep -oE '[0-9.]+e[-+][0-9]+' <<<"$text" | head -3 | paste -sd' ')"; fi
    if grep -q 'median us' <<<"$text" && grep -q 'of ceiling' <<<"$text" && grep -q 'vs reference' <<<"$text" &&
        grep -qE '[0-9]+\.[0-9] %' <<<"$text" && grep -qE '[0-9]\.[0-9]{2}x' <<<"$text"; then
        ok "the report's bench tables give times in us or ms, shares in %, ratios as 1.00x"
    else
        not_ok "the report's tables lack their units" "$build/report/tilelab-report.md"
    fi
    shifted=$(awk '/^\|/ { n = gsub(/[^\\]\|/, "&"); if (!inside) { cells = n; inside = 1 } else if (n != cells) { print; exit } next } { inside = 0 }' \
        "$build/report/tilelab-report.md")
    if [ -z "$shifted" ]; then ok "every row of the report's tables has its header's cells"; else not_ok "a row whose cells shift: $shifted"; fi
    md_tables=$(grep -c '^|:---\|^|---' "$build/report/tilelab-report.md") html_tables=$(grep -c '<table>' "$build/report/tilelab-report.html")
    if [ "$md_tables" -gt 0 ] && [ "$md_tables" -eq "$html_tables" ]; then ok "the PDF and the HTML page print the same $md_tables tables"; else not_ok "$md_tables tables in the PDF, $html_tables in the HTML page"; fi
    if [ -z "$missing" ]; then ok "the report's PDF prints the tables behind every figure"; else not_ok "tables missing from the PDF:$missing"; fi
    # What a figure's files hold, said under it, true for them: a bench's runs have a median,
    # fastest and slowest run; the emulator's profiles and the cache simulations hold counts.
    i=0 untrue=
    while IFS=$'\t' read -r name title sources; do
        i=$((i + 1))
        timed=1
        for f in $sources; do "$build/csv-rows" "$f" median_s >/dev/null 2>&1 || timed=0; done
        [ $timed -eq 0 ] || continue
        awk -v i="$i" '/^\\subsection\*\{/ { n++ } n == i' "$build/report/tilelab-report.md" |
            grep -q 'median, fastest and slowest' && untrue="$untrue $name"
    done <"$build/report/figures.tsv"
    if [ -z "$untrue" ]; then ok "the report says runs and timings only under figures drawn from runs"; else not_ok "the report speaks of runs' medians under figures of counts:$untrue"; fi
    caret=$(pdftotext "$pdf" - | grep -E '[0-9](\^|ˆ)[0-9]' | head -2)
    if [ -z "$caret" ]; then ok "the report's PDF writes no power with a caret (512³, not 512^3)"; else not_ok "a power written with a caret in the report's PDF: $caret"; fi
else
    not_ok "make report wrote no PDF" "$tmp/report.log"
fi

# The figures the handouts state are recorded runs: after a
# "<!-- recorded: FILES -->" line, every GB/s figure of the table is a rate
# in FILES, and the handout names their machine and date.
for readme in labs/*/README.md; do
    marks=$(grep -c '<!-- recorded: ' "$readme")
    [ "$marks" -gt 0 ] || continue
    # "<!-- recorded: FILES; cited: WORD -->": columns whose heading starts
    # with WORD hold another source's figures (the seeds'), left out here.
    bad=$(awk -F'|' '/<!-- recorded: / { files = $0; sub(/.*recorded: /, "", files); sub(/ *-->.*/, "", files)
                cited = ""; if (split(files, part, "; *cited: ") == 2) { files = part[1]; cited = part[2] }
                inside = 1; next }
        inside && !row && /^ *$/ { next }
        inside && /^ *\|/ {
            if ($0 ~ /---/) next
            if (++row == 1) { for (i = 1; i <= NF; i++) { h = $i; sub(/^ +/, "", h); skip[i] = cited != "" && index(h, cited) == 1 }; next }
            line = ""; for (i = 2; i < NF; i++) if (!skip[i]) line = line "|" $i
            print files "\t" line; next }
        inside { inside = 0; row = 0; delete skip }' "$readme" |
        while IFS=$'\t' read -r files line; do
            for x in $(echo "$line" | tr '|' '\n' | tr -d '*' | sed 's/([^)]*)//g' | grep -oE '(^| )[0-9]+\.[0-9]+( |$)'); do
                # shellcheck disable=SC2086
                awk -F, -v x="$x" 'FNR == 1 { h = 0 } /^#/ || !NF { next } !h++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
                    sprintf("%." length(substr(x, index(x, ".") + 1)) "f", $c["rate"]) == x { found = 1 } END { exit !found }' $files || echo "$x"
            done
            for f in $files; do
                m=$(sed -n 's/^# machine: //p' "$f" | sed 's/ *(.*//;s/,.*//') d=$(sed -n 's/^# date: //p' "$f" | cut -c1-10)
                grep -qF "$m" "$readme" && grep -qF "$d" "$readme" || echo "$f's machine ($m) or date ($d)"
            done
        done | sort -u | head -5)
    if [ "$marks" -gt 0 ] && [ -z "$bad" ]; then
        ok "$readme: its $marks table(s) of figures are recorded runs, machine and date named"
    else
        not_ok "$readme: figures not from the recorded runs it cites (or none cited): $(echo $bad)"
    fi
done

# Lab 2's default sizes include one, not a power of two (where a tile's rows
# share a cache set), at which the recorded textbook loop (BLOCK 32, lab 1's
# order inside the tile) runs at least 1.5 times the recorded naive loop.
rate_at() { # CSV VARIANT ROWSxCOLS
    awk -F, -v v="$2" -v s="$3" 'FNR == 1 { h = 0 } /^#/ || !NF { next } !h++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["variant"] == v && $c["rows"] "x" $c["cols"] == s { print $c["rate"]; exit }' "$1"
}
if "$build/lab02/bench" --reps 1 --warmup 0 --only memcpy,reference --csv "$tmp/sizes.csv" >"$tmp/sizes.log" 2>&1; then
    gains=
    for size in $(awk -F, 'FNR == 1 { h = 0 } /^#/ || !NF { next } !h++ { split("", c); for (i = 1; i <= NF; i++) c[$i] = i; next }
                  { print $c["rows"] "x" $c["cols"] }' "$tmp/sizes.csv" | sort -u); do
        r=${size%x*} c=${size#*x}
        [ $((r & (r - 1))) -ne 0 ] || [ $((c & (c - 1))) -ne 0 ] || continue
        naive=$(rate_at plots/data/lab01.csv reference "$size") blocked=$(rate_at plots/data/lab02-textbook.csv student "$size")
        [ -n "$naive" ] && [ -n "$blocked" ] || continue
        awk -v a="$blocked" -v b="$naive" 'BEGIN { exit !(a >= 1.5 * b) }' && gains="$gains $size ($blocked vs $naive GB/s)"
    done
    if [ -n "$gains" ]; then ok "lab 2's default sizes show a textbook BLOCK 32 gaining on lab 1:$gains"; else not_ok "no default size of lab 2 shows the textbook blocked loop's gain in the recorded runs"; fi
else
    not_ok "lab 2's bench did not run at its default sizes" "$tmp/sizes.log"
fi

# ---------------------------------------------------------------- the report's tables
# report-table on planted CSVs, as make report prints them.
table() { "$build/report-table" "$@"; }
# A profile whose student and reference counted the very same: no table of the
# variants' names alone, the names and the numbers on one line.
cat >"$tmp/same.csv" <<'CSV'
# tilelab profile
variant,kernel,rows,cols,launches,global_load_requests,shared_load_requests
reference,transpose_naive,256,256,1,2048,0
student,transpose_naive,256,256,1,2048,0
CSV
table "$tmp/same.csv" >"$tmp/same.md"
table --html "$tmp/same.csv" >"$tmp/same.html"
if ! grep -q '^|' "$tmp/same.md" && ! grep -q '<table>' "$tmp/same.html" &&
    grep -q '^The same in each row (variant reference, student): kernel transpose\\_naive; size 256x256; launches 1; global load requests 2048' "$tmp/same.md" &&
    grep -q 'The same in each row (variant reference, student): kernel transpose_naive' "$tmp/same.html"; then
    ok "a table whose every number is the same in each row is one line naming the rows and the numbers, not a table of names"
else
    not_ok "a table whose every number is constant is printed as an empty table, or its values are lost" "$tmp/same.md"
fi

# A bench's measurements to three figures (36.8413 GB/s is 36.8), counts whole.
cat >"$tmp/rates.csv" <<'CSV'
lab,variant,rows,cols,reps,median_s,q1_s,q3_s,min_s,max_s,rate,unit,share_of_ceiling,ratio_to_reference
4,memcpy,4096,4096,20,4.91234e-05,4.9e-05,4.95e-05,4.8e-05,5.01e-05,2736.4321,GB/s,1.0,12.9211
4,reference,4096,4096,20,0.000634123,0.000634,0.000635,0.000634,0.000635,36.8413,GB/s,0.0774,1.0
CSV
table "$tmp/rates.csv" >"$tmp/rates.md"
if grep -qF '| reference | 634 | \+-0 % | 634 | 635 | 36.8 |' "$tmp/rates.md" && grep -qF '| memcpy | 49.1 | \+-1 % | 48 | 50.1 | 2736 |' "$tmp/rates.md" &&
    ! grep -qE '36\.84|49\.12' "$tmp/rates.md"; then
    ok "the report's bench tables give each measurement to three figures (36.8 GB/s, 49.1 us)"
else
    not_ok "the report's bench tables print more figures than a run holds" "$tmp/rates.md"
fi

# A sum's sizes are counts (its "# dims: 1"), carried as rows x cols: the table says n.
cat >"$tmp/counts.csv" <<'CSV'
# tilelab bench
# dims: 1 (sizes are N (a count of floats))
lab,variant,rows,cols,depth,reps,median_s,q1_s,q3_s,min_s,max_s,rate,unit,share_of_ceiling,ratio_to_reference
10,stream,1,4194304,1,20,1.18e-05,1.17e-05,1.19e-05,1.17e-05,1.2e-05,1415.08,GB/s,1.0,1.08
10,reference,2,134217728,1,20,0.00036,0.000359,0.00036,0.000358,0.00036,2986.5,GB/s,0.999,1.0
CSV
table "$tmp/counts.csv" >"$tmp/counts.md"
if grep -qF '| stream | 4194304 |' "$tmp/counts.md" && grep -qF '| reference | 268435456 |' "$tmp/counts.md" &&
    grep -q '| n |' "$tmp/counts.md" && ! grep -q 'x4194304' "$tmp/counts.md"; then
    ok "the report's tables give a sum's sizes as counts of elements (n = 4194304), not as 1x4194304x1"
else
    not_ok "the report's tables give a sum's sizes as the shapes that carry them" "$tmp/counts.md"
fi

# ---------------------------------------------------------------- a student's day
kit=$tmp/kit
copy_kit "$kit"
for sol in solutions/[0-9]*/*.c solutions/[0-9]*/*.cu; do
    [ -e "$sol" ] && cp "$sol" "$kit/labs/${sol#solutions/}"
done
day() { make -s -C "$kit" B=build "$@" >>"$tmp/day.log" 2>&1; }
: >"$tmp/day.log"
day lab1 plot SIZES=96,4096 REPS=1
if [ -s "$kit/build/bench/lab01-SIZES96_4096-REPS1.csv" ] && [ ! -e "$kit/build/bench/lab01.csv" ]; then
    ok "a bench run with SIZES= and REPS= writes a CSV of its own, never build/bench/lab01.csv"
else
    not_ok "make lab1 plot SIZES=96,4096 REPS=1 wrote: $(ls "$kit/build/bench" | paste -sd' ')" "$tmp/day.log"
fi
# As if the student had run the whole bench (minutes, at every default size): lab 1's
# CSV of this machine, which the ladder draws beside the recorded runs.
cp "$kit/build/bench/lab01-SIZES96_4096-REPS1.csv" "$kit/build/bench/lab01.csv" 2>/dev/null
if day lab2 plot SIZES=64,96 REPS=1 BLOCK=16 &&
    day lab1 bench OPT=-O0 SIZES=64,96 REPS=1 && day lab2 bench BLOCK=8 SIZES=64 REPS=1 && day lab2 bench BLOCK=32 SIZES=64,96 REPS=1 &&
    { day lab5 profile TILE_DIM=16 || true; } && day plots && day report; then
    ok "a student's day runs: plots of labs 1-2, an -O0 run, two partial BLOCK runs, a TILE_DIM=16 profile, plots, report"
else
    not_ok "a student's day failed" "$tmp/day.log"
fi
# A profile with a tunable is a run of its own: it never takes the place of the default
# run's, which make lab5 plot, the figures and the report draw as the default's.
if [ -s "$kit/build/bench/lab05-profile-TILE_DIM16.csv" ] && [ ! -e "$kit/build/bench/lab05-profile.csv" ]; then
    ok "make lab5 profile TILE_DIM=16 writes lab05-profile-TILE_DIM16.csv, never build/bench/lab05-profile.csv"
else
    not_ok "make lab5 profile TILE_DIM=16 wrote: $(ls "$kit/build/bench" | paste -sd' ')" "$tmp/day.log"
fi
mine=$kit/build/plots
if [ -s "$mine/lab01.svg" ] && grep -q 'this machine' "$mine/lab01.svg" && ! grep -q 'recorded on' "$mine/lab01.svg"; then
    ok "make plots leaves the student's build/plots/lab01 as they drew it"
else
    not_ok "the student's lab01 figure was replaced or is missing"
fi
if grep -q 'your code (BLOCK=16)' "$mine/lab02.svg" && grep -q 'reference (BLOCK=16)' "$mine/lab02.svg"; then
    ok "the lab 2 legend gives each side's BLOCK"
else
    not_ok "the lab 2 legend omits BLOCK"
fi
report=$kit/build/report
mixed=$(awk -F'\t' '$1 != "ladder" && $1 != "gpu-requests" && $1 != "gpu-traffic" && $3 ~ /bench\// && $3 ~ /plots\/data\// { print $1 }' "$report/figures.tsv")
if [ -s "$report/figures.tsv" ] && [ -z "$mixed" ]; then ok "no report figure draws this machine's runs and recorded ones as one"; else not_ok "figures mixing sources: ${mixed:-no figures.tsv}"; fi
# A GPU lab's plot without a GPU: the student's kernel counted by the emulator beside the
# reference's, and why there is no bandwidth.
if make -s -C "$kit" B=build lab3 plot GPU=emu PROFILE_SIZE=64 >"$tmp/gpuplot.log" 2>&1 &&
    grep -q '^your code; transpose_naive,4.00,32.00,' "$mine/lab03.csv" &&
    grep -q '^reference; transpose_naive,4.00,32.00,' "$mine/lab03.csv" && [ -s "$mine/lab03.png" ] &&
    grep -q 'No bandwidth: this machine has no GPU' "$tmp/gpuplot.log" && grep -q 'your kernels beside the reference' "$tmp/gpuplot.log"; then
    ok "make lab3 plot without a GPU draws the student's kernel counted by the emulator beside the reference's, and says why no GB/s"
else
    not_ok "make lab3 plot without a GPU: not the student's counts, or no word on bandwidth" "$tmp/gpuplot.log"
fi
# No shared request is not a request that cost nothing: "-", and no bar or "0" drawn
# for it (the y axis's own 0 is the one "0" of the figure).
zeros=$(svg_texts "$mine/lab03.svg" | awk -F'\t' '$2 == "0"' | wc -l)
if grep -q '^your code; transpose_naive,4.00,32.00,-,-$' "$mine/lab03.csv" && [ "$zeros" -eq 1 ]; then
    ok "lab 3's figure writes '-' for shared requests it never made, and draws no 0 for them"
else
    not_ok "lab 3's figure draws shared requests it never made as 0 ($zeros texts '0')" "$mine/lab03.csv"
fi
# Where this machine profiled the student's code, the report's request figure draws it
# beside the reference, as make lab3 plot does: the default run's profile (the one at 64 x 64
# above, as if at the default size, which takes longer; a run at another size is a CSV of
# its own, which the report never draws).
cp "$kit/build/bench/lab03-profile-SIZE64.csv" "$kit/build/bench/lab03-profile.csv"
(cd "$kit" && LABS_TSV=build/labs.tsv B=build FORMATS=svg plots/figures.sh "$tmp/local" local) >"$tmp/local.log" 2>&1
if grep -q '^lab 3; yours; [0-9x]* *here,4.00,32.00,-,-$' "$tmp/local/gpu-requests.csv" &&
    grep -q '^lab 3; naive; [0-9x]* *here,4.00,32.00,-,-$' "$tmp/local/gpu-requests.csv" &&
    awk -F'\t' '$1 == "gpu-requests"' "$tmp/local/figures.tsv" | grep -q 'the references and yours'; then
    ok "the report's request figure draws the student's profiled kernel beside the reference's"
else
    not_ok "the report's request figure lacks the student's profiled kernel" "$tmp/local/gpu-requests.csv"
fi
# The bar figures' layout: the key under the title (never above it), and the labels under the
# bars near the foot of the figure (no empty band below them).
for svg in "$mine/lab03.svg" "$tmp/local/gpu-requests.svg" "$tmp/plots/cpu-cache.svg"; do
    height=$(grep -o '<svg [^>]*height="[0-9.]*' "$svg" | head -1 | sed 's/.*height="//')
    svg_texts "$svg" | awk -F'\t' -v h="$height" -v f="${svg##*/}" '
        NR == 1 { first = $2 } { y[NR] = $1; t[NR] = $2; if ($1 > low) low = $1 }
        END { # the title: the last texts gnuplot writes, from its first line on
              for (i = NR; i > 0 && t[i] !~ /^(lab [0-9]|Memory requests|Cache misses)/; i--) ;
              for (j = i; j <= NR; j++) if (y[j] > title) title = y[j]
              for (k = 1; k < i; k++) if (t[k] ~ /^(global loads|D1 misses)$/ && y[k] <= title) { print f ": the key (" t[k] ") above the last line of the title"; exit }
              if (!i) print f ": no title found"; else if (low < h - 45) print f ": an empty band of " int(h - low) " px under its lowest text" }'
done >"$tmp/layout"
if [ ! -s "$tmp/layout" ]; then ok "bar figures: the key under the title, no empty band under the labels"; else not_ok "bar figures laid out badly: $(paste -sd' ' "$tmp/layout")"; fi
here=$(awk -F'\t' '$1 == "cpu-olevels-here"' "$report/figures.tsv")
if [[ $here == *bench/lab01-O0-SIZES64_96-REPS1.csv* ]] && [[ $here == *"this machine"* ]] &&
    [[ $here == *"at -O0 (your code; this machine"* ]] && [[ $here != *-O3* ]] &&
    awk -F'\t' '$1 == "cpu-olevels"' "$report/figures.tsv" | grep -q '(the reference; recorded on'; then
    ok "this machine's -O0 run is a figure of its own, labelled this machine and your code, titled with -O0 alone"
else
    not_ok "this machine's -O0 run is not drawn on its own" "$report/figures.tsv"
fi
if grep -q '^64x64,8,' "$report/cpu-blocks-here.csv" && grep -q '^96x96,8,NaN,' "$report/cpu-blocks-here.csv" &&
    ! grep -q 'bench/' <(awk -F'\t' '$1 == "cpu-blocks"' "$report/figures.tsv"); then
    ok "partial BLOCK runs of this machine are a figure of their own, each line broken where a BLOCK was not run"
else
    not_ok "partial BLOCK runs are mixed with the recorded ones, or drawn across the BLOCKs they lack" "$report/cpu-blocks-here.csv"
fi
if grep -q 'here' "$report/ladder.csv" && grep -q 'rec' "$report/ladder.csv"; then
    ok "each bar of the ladder says where its numbers came from"
else
    not_ok "the ladder's bars do not say where they came from" "$report/ladder.csv"
fi
if grep -q '^lab 5; bank-free; 32 .*,1.00,1.00$' "$report/gpu-requests.csv" && ! grep -q '; 16' "$report/gpu-requests.csv"; then
    ok "the bank-conflict figure takes lab 5 as built with its own TILE_DIM"
else
    not_ok "the bank-conflict figure shows a profile built with other tunables" "$report/gpu-requests.csv"
fi
tap_plan
