#!/usr/bin/env bash
# cache-table.sh LAB SIZE STUDENT.out REFERENCE.out CSV
#
# Reads the totals of two callgrind runs with cache simulation (one per
# transpose, collected only inside it) and prints and writes the misses.
# The simulated caches are fixed (CACHE_SIM, valgrind's flags, from the
# Makefile), so the figures depend on the code alone, not on the machine or
# its load.
set -eu
lab=$1 size=$2 student=$3 reference=$4 csv=$5
: "${CACHE_SIM:?the Makefile passes CACHE_SIM, the cache flags given to valgrind}"
# "D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines", from the flags.
caches=$(echo "$CACHE_SIM" | tr ' ' '\n' | awk -F'[=,]' '
    function size(b) { return b >= 1048576 ? b / 1048576 " MiB" : b / 1024 " KiB" }
    $1 == "--D1" || $1 == "--LL" { printf "%s%s %s %d-way", n++ ? ", " : "", substr($1, 3), size($2), $3; line = $4 }
    END { printf ", %d-byte lines\n", line }')

# Dr Dw D1mr D1mw DLmr DLmw, read as the grader reads its measurements (harness/tools/callgrind_totals.c)
totals() { "${CALLGRIND_TOTALS:?the Makefile passes CALLGRIND_TOTALS, the program that reads the totals}" "$1"; }

{
    echo "# tilelab cache simulation (valgrind callgrind --cache-sim=yes)"
    echo "# lab: $lab; size: $size (square); caches: $caches"
    echo "# machine: valgrind, simulated caches (the same on every machine)"
    echo "# flags: ${FLAGS:-unknown} (the code simulated, as the compiler made it)"
    echo "# tunables: ${TUNABLES:-none given (each file at its own defaults)}${TUNABLES:+ (your code and the reference alike)}"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "lab,variant,size,reads,writes,d1_read_misses,d1_write_misses,ll_read_misses,ll_write_misses"
    for v in student reference; do
        f=$([ $v = student ] && echo "$student" || echo "$reference")
        echo "$((10#$lab)),$v,$size,$(totals "$f" | tr ' ' ',')"
    done
} >"$csv"

elements=$(( size * size ))
echo "Simulated cache misses of one ${size}x${size} transpose ($caches):"
echo
# Its columns by their names, through csv-rows (the kit's reader of its CSVs); counts
# with %.0f, which mawk does not clamp at 2^31 as it does %d.
"${CSV_ROWS:-${B:-build}/csv-rows}" "$csv" variant d1_read_misses d1_write_misses ll_read_misses ll_write_misses |
    awk -F'\t' -v n="$elements" '
    { printf "  %-10s D1 misses: %11.0f reads %11.0f writes   LL misses: %11.0f reads %11.0f writes   (%.3f D1 misses per element)\n",
             $1, $2, $3, $4, $5, ($2 + $3) / n }'
echo
echo "A cache line holds 16 floats: a transpose that uses every line it loads"
echo "misses about 2/16 = 0.125 times per element (one line in, one line out)."
echo "wrote $csv"
