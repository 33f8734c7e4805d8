#!/usr/bin/env bash
# plot-profile.sh PROFILE.csv OUT TITLE UNIT
#
# A GPU lab's figure without a GPU: the memory requests per warp of each
# kernel in a profile (make labN profile's CSV, counted by the emulator),
# the student's beside the reference's, as OUT.png and OUT.svg (or each of
# $FORMATS), and OUT.csv, the numbers drawn. $REQUESTS is the kit's
# requests-per-warp, $VARIANTS the bench's table of labels, $CSV_ROWS the
# kit's reader of its CSVs.
set -u
csv=$1 out=$2 title=$3 unit=$4
rows=$("$REQUESTS" ${VARIANTS:+--variants "$VARIANTS"} "$csv") || exit 1
[ -n "$rows" ] || { echo "plot-profile: no kernel in $csv" >&2; exit 1; }
{
    echo "# columns: kernel,global load sectors per request,global store sectors per request,shared load passes per request,shared store passes per request"
    echo "$rows"
} >"$out.csv"
# The size its rows were counted at: "512 x 512", "512 x 512 (x 512)" for a
# product (GFLOP/s), whose depth a transpose's rows repeat to no purpose.
CSV_ROWS=${CSV_ROWS:-${B:-build}/csv-rows}
size=$("$CSV_ROWS" "$csv" rows cols depth | awk -F'\t' -v unit="$unit" 'NR == 1 { printf "%s x %s", $1, $2; if (unit == "GFLOP/s") printf " (x %s)", $3 }')
subtitle="at ${size:-the size of the profile}, counted by the CPU emulator\\nbest: 4 sectors a global request (floats), 1 pass a shared one"
lab=${title%%,*} # "lab 7"
# The student's headline variant is "student": without it, none of their kernels ran.
[ -n "$("$CSV_ROWS" --where variant=student "$csv" variant)" ] || subtitle="$subtitle\\nyour code: no kernel counted (a stub still, or it failed: make ${lab// /} test)"
for fmt in ${FORMATS:-png svg}; do
    gnuplot -e "dat='$out.csv'; out='$out'; fmt='$fmt'; title='$title: memory requests per warp, yours beside the reference'; subtitle=\"$subtitle\"; series='global_loads global_stores shared_loads shared_stores'; ylabel='sectors or passes per request'" \
        plots/bars.gp 2>"$out.log" || { cat "$out.log" >&2; exit 1; }
    rm -f "$out.log"
    [ -s "$out.${fmt/print/pdf}" ] || { echo "plot-profile: $out.${fmt/print/pdf} is empty" >&2; exit 1; }
done
