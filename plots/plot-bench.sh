#!/usr/bin/env bash
# plot-bench.sh CSV OUT TITLE UNIT
#
# Draws one bench CSV (rate against size, a line per variant, in the order
# the bench wrote them) as OUT.png and OUT.svg, or in each of $FORMATS.
set -u
csv=$1 out=$2 title=$3 unit=$4
variants=$(awk -F, '/^[0-9]+,/ && !seen[$2]++ { printf "%s ", $2 }' "$csv")
[ -n "$variants" ] || { echo "plot-bench: no measurements in $csv" >&2; exit 1; }
for fmt in ${FORMATS:-png svg}; do
    gnuplot -e "csv='$csv'; out='$out'; fmt='$fmt'; title='$title'; unit='$unit'; variants='$variants'" \
        plots/bench.gp || exit 1
    [ -s "$out.$fmt" ] || { echo "plot-bench: $out.$fmt is empty" >&2; exit 1; }
done
