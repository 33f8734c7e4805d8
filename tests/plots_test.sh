#!/usr/bin/env bash
# Every figure the recorded data allows is drawn, and none is missing or
# empty; the report holds them all. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

if make -s plots PLOT_DIR="$tmp/plots" >"$tmp/log" 2>&1; then ok "make plots draws from plots/data"; else not_ok "make plots failed" "$tmp/log"; fi

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
expect cpu-olevels plots/data/lab01-O*.csv
expect cpu-blocks plots/data/lab02-BLOCK*.csv
expect cpu-cache plots/data/lab02-cache.csv
expect gpu-sweep plots/data/lab06-sweep.csv
expect gpu-tiles plots/data/lab04-TILE_DIM*.csv
expect gpu-requests plots/data/lab0[3-6]-profile.csv
expect gpu-traffic plots/data/lab0[78]-profile.csv

if make -s report B="$build" >"$tmp/report.log" 2>&1 && [ -s "$build/report/tilelab-report.html" ]; then
    figures=$(wc -l <"$build/report/figures.tsv")
    images=$(grep -c 'src="data:image/png;base64,' "$build/report/tilelab-report.html")
    if [ "$figures" -gt 0 ] && [ "$images" -eq "$figures" ]; then ok "the report holds all $figures figures"; else not_ok "the report holds $images of $figures figures"; fi
else
    not_ok "make report failed" "$tmp/report.log"
fi
tap_plan
