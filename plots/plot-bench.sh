#!/usr/bin/env bash
# plot-bench.sh CSV OUT TITLE UNIT [NOTE]
#
# Draws one bench CSV (rate against size, a line per variant, in the order
# the bench wrote them) as OUT.png and OUT.svg, or in each of $FORMATS. The
# line under the title says where the numbers came from, as csv-rows --origin
# tells (csv.h decides): this machine (a CSV in build/bench/, where make labN
# bench writes) or a recorded run, with its machine and date, and NOTE after it; the legend
# gives each line the variant's label, from the CSV's label column (or, for
# a CSV written before it had one, from $VARIANTS, the bench's table as
# build/bench/variants.csv), and each role's headline its side's tunables.
# The CSV is read through $CSV_ROWS (harness/tools/csv_rows.c), by its columns' names.
set -u
csv=$1 out=$2 title=$3 unit=$4 note=${5:-}
CSV_ROWS=${CSV_ROWS:-${B:-build}/csv-rows}
# "name|label|role" for each variant, in the order of the CSV.
lines=$("$CSV_ROWS" ${VARIANTS:+--variants "$VARIANTS"} "$csv" variant label role | awk -F'\t' '!seen[$1]++ { print $1 "|" $2 "|" $3 }')
[ -n "$lines" ] || { echo "plot-bench: no measurements in $csv" >&2; exit 1; }
meta() { "$CSV_ROWS" --fact "$1" "$csv" | tr -d "'\"\\\\"; }
tunables() { meta tunables | tr ';' '\n' | sed -n "s/^ *$1 //p" | sed -e 's/-D//g' -e 's/^none$//'; }
machine=$(meta machine) date=$(meta date)
# A size that is a count of elements (the bench's "# dims: 1", a reduction's n) is drawn as
# that count; a CSV without the line is a matrix's.
counts=$([ "$(meta dims | cut -d' ' -f1)" = 1 ] && echo 1 || echo 0)
case $("$CSV_ROWS" --origin "$csv") in
here) origin="this machine: ${machine:-unnamed}, run ${date:0:10}" ;;
*) origin="recorded on ${machine:-an unnamed machine}${date:+, ${date:0:10}}" ;;
esac
# No line of the title wider than the figure: the origin folds at 72 columns.
origin=$(printf '%s\n' "$origin${note:+ $note}" | fold -s -w 72 | sed 's/ *$//' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }')
# The variants, and a gnuplot variable label1, label2 ... for each: its
# label, and the tunables of its side when it is its role's headline.
variants= labels= headlines= i=0
while IFS='|' read -r name label role; do
    i=$((i + 1)) variants="$variants$name "
    case " $headlines " in *" $role "*) ;; *)
        headlines="$headlines $role"
        if [ "$role" = student ] || [ "$role" = reference ]; then
            t=$(tunables "$role")
            label="$label${t:+ ($t)}"
        fi ;;
    esac
    labels="$labels label$i='$(printf '%s' "$label" | tr -d "'")';"
done <<<"$lines"
# Rates more than 8 times apart (a naive loop at 1 GB/s beside a copy at 20): a
# log y axis, on which every line keeps its shape instead of lying flat on 0.
logy=$("$CSV_ROWS" "$csv" rate | awk '$1 > 0 { if (!lo || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { print (lo && hi > 8 * lo) ? 1 : 0 }')
for fmt in ${FORMATS:-png svg}; do
    gnuplot -e "csv='$csv'; csv_rows='$CSV_ROWS'; out='$out'; fmt='$fmt'; title='$title'; subtitle=\"$origin\"; unit='$unit'; variants='$variants'; logy=$logy; counts=$counts; $labels" \
        plots/bench.gp 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
    rm -f "$out.log"
    [ -s "$out.${fmt/print/pdf}" ] || { echo "plot-bench: $out.${fmt/print/pdf} is empty" >&2; exit 1; }
done
