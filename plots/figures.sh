#!/usr/bin/env bash
# figures.sh OUT_DIR [recorded|local]
#
# Draws every figure whose data exists into OUT_DIR, in each of $FORMATS
# (default "png svg"), and lists them in OUT_DIR/figures.tsv: name, title,
# data files, and where the numbers came from. "recorded" draws from the
# recorded runs ($DATA, plots/data by default) only; "local" prefers this
# machine's runs in $B/bench/ and falls back on the recorded ones. The Makefile passes LAB_INFO,
# "NN|title|op" for each lab, separated by semicolons.
set -u
out=$1 mode=${2:-recorded}
formats=${FORMATS:-png svg}
B=${B:-build}
DATA=${DATA:-plots/data}
LADDER_SIZE=${LADDER_SIZE:-4096}
mkdir -p "$out"
: >"$out/figures.tsv"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
IFS=';' read -ra labs <<<"$LAB_INFO"
labs=("${labs[@]# }")

source_of() { # FILE -> the data file to use, or nothing
    if [ "$mode" = local ] && [ -s "$B/bench/$1" ]; then
        echo "$B/bench/$1"
    elif [ -s "$DATA/$1" ]; then
        echo "$DATA/$1"
    fi
}
machine_of() { sed -n 's/^# machine: //p' "$1" | head -1; }
origin_of() { # FILE -> "recorded on X" or "measured here on X"
    local m
    m=$(machine_of "$1")
    case "$1" in
    "$B"/bench/*) echo "this machine: ${m:-unnamed}" ;;
    *) echo "recorded on ${m:-an unnamed machine}" ;;
    esac
}
# column FILE NAME -> the number of the CSV column with that header
column() { awk -F, -v n="$2" '/^lab,/ { for (i = 1; i <= NF; i++) if ($i == n) { print i; exit } }' "$1"; }

draw() { # SCRIPT NAME TITLE SOURCES VARS
    local script=$1 name=$2 title=$3 sources=$4 vars=$5 fmt
    for fmt in $formats; do
        if ! gnuplot -e "out='$out/$name'; fmt='$fmt'; title='$title'; $vars" "plots/$script" 2>"$tmp/err"; then
            echo "figures: $name: gnuplot failed:" >&2
            cat "$tmp/err" >&2
            status=1
            return
        fi
        if [ ! -s "$out/$name.$fmt" ]; then
            echo "figures: $name.$fmt is empty" >&2
            status=1
        fi
    done
    printf '%s\t%s\t%s\n' "$name" "$title" "$sources" >>"$out/figures.tsv"
}

# reference_against_size NAME TITLE FILE=LABEL...: one line per data file, the
# reference's rate against the matrix side, as figure NAME.
reference_against_size() {
    local name=$1 title=$2 pair csv sources=
    shift 2
    : >"$tmp/$name.csv"
    for pair in "$@"; do
        csv=$(source_of "${pair%%=*}")
        [ -n "$csv" ] || continue
        awk -F, -v s="${pair#*=}" '$2 == "reference" { printf "%s,%.6g,%s\n", s, sqrt($3 * $4), $10 }' \
            "$csv" >>"$tmp/$name.csv"
        sources="$sources $csv"
    done
    [ -s "$tmp/$name.csv" ] || return 0
    cp "$tmp/$name.csv" "$out/$name.csv"
    draw lines.gp "$name" "$title ($(origin_of ${sources##* }))" "${sources# }" \
        "dat='$out/$name.csv'; series='$(cut -d, -f1 "$out/$name.csv" | uniq | tr '\n' ' ')'; xlabel='matrix side, sqrt(rows x cols), log_2 scale'; ylabel='GB/s (10^9 bytes/s, read + written)'"
}

# each_lab CSV OPS ROWS SUFFIX: for each lab computing one of OPS whose data
# file labNN$SUFFIX exists, ROWS N TITLE DATA_FILE prints its rows of CSV;
# $sources lists the data files that gave some.
each_lab() {
    local csv=$1 ops=$2 rows_of=$3 suffix=$4 info n title op data rows
    : >"$csv"
    sources=
    for info in "${labs[@]}"; do
        IFS='|' read -r n title op <<<"$info"
        [[ " $ops " == *" $op "* ]] || continue
        data=$(source_of "lab$n$suffix")
        [ -n "$data" ] || continue
        rows=$("$rows_of" "$n" "$title" "$data")
        [ -n "$rows" ] || continue
        echo "$rows" >>"$csv"
        sources="$sources $data"
    done
}

# -------------------------------------------------------------- each lab
for info in "${labs[@]}"; do
    IFS='|' read -r n title op <<<"$info"
    csv=$(source_of "lab$n.csv")
    [ -n "$csv" ] || continue
    unit=$([ "$op" = transpose ] && echo GB/s || echo GFLOP/s)
    title="lab $((10#$n)), $title ($(origin_of "$csv"))"
    if FORMATS="$formats" plots/plot-bench.sh "$csv" "$out/lab$n" "$title" "$unit"; then
        printf '%s\t%s\t%s\n' "lab$n" "$title" "$csv" >>"$out/figures.tsv"
    else
        status=1
    fi
done

# -------------------------------------------------------------- the ladder
ladder_row() {
    awk -F, -v c="$(column "$3" share_of_ceiling)" -v s="$LADDER_SIZE" -v name="lab $((10#$1)) $2" \
        '$2 == "reference" && $3 == s && $4 == s { print name "," $c; exit }' "$3"
}
each_lab "$tmp/ladder.csv" transpose ladder_row .csv
if [ -s "$tmp/ladder.csv" ]; then
    cp "$tmp/ladder.csv" "$out/ladder.csv"
    draw ladder.gp ladder "The ladder at ${LADDER_SIZE}x$LADDER_SIZE: each reference as a share of its ceiling" \
        "${sources# }" "dat='$out/ladder.csv'"
fi

# -------------------------------------------------------------- CPU experiments
reference_against_size cpu-olevels "Lab 1, naive transpose at -O0 to -O3" \
    lab01-O0.csv=-O0 lab01-O1.csv=-O1 lab01-O2.csv=-O2 lab01-O3.csv=-O3

# BLOCK in lab 2.
: >"$tmp/blocks.csv"
sources=
for csv in $(ls "$DATA"/lab02-BLOCK*.csv "$B"/bench/lab02-BLOCK*.csv 2>/dev/null); do
    base=$(basename "$csv")
    [ "$(source_of "$base")" = "$csv" ] || continue
    block=${base#lab02-BLOCK}
    block=${block%.csv}
    awk -F, -v b="$block" '$2 == "reference" { printf "%dx%d,%s,%s\n", $3, $4, b, $10 }' "$csv" >>"$tmp/blocks.csv"
    sources="$sources $csv"
done
if [ -s "$tmp/blocks.csv" ]; then
    sort -t, -k1,1 -k2,2n "$tmp/blocks.csv" >"$out/cpu-blocks.csv"
    draw lines.gp cpu-blocks "Lab 2, the reference against BLOCK ($(origin_of ${sources##* }))" "${sources# }" \
        "dat='$out/cpu-blocks.csv'; series='$(cut -d, -f1 "$out/cpu-blocks.csv" | sort -u | sort -t x -k1,1n | tr '\n' ' ')'; xlabel='BLOCK (floats), log_2 scale'; ylabel='GB/s (10^9 bytes/s, read + written)'"
fi

# Simulated cache misses, naive against blocked.
a=$(source_of lab01-cache.csv) b=$(source_of lab02-cache.csv)
if [ -n "$a" ] && [ -n "$b" ]; then
    for csv in "$a" "$b"; do
        awk -F, '$2 == "reference" { n = $3 * $3; printf "lab %d reference,%.4f,%.4f\n", $1, ($6 + $7) / n, ($8 + $9) / n }' "$csv"
    done >"$out/cpu-cache.csv"
    draw bars.gp cpu-cache "Cache misses per element, one transpose (valgrind, D1 32 KiB, LL 8 MiB)" "$a $b" \
        "dat='$out/cpu-cache.csv'; series='D1_misses LL_misses'; ylabel='misses per element (0.125 = one line in, one out)'"
fi

# -------------------------------------------------------------- GPU experiments
# TILE_DIM x BLOCK_ROWS for lab 6.
csv=$(source_of lab06-sweep.csv)
if [ -n "$csv" ]; then
    awk -F, -v c="$(column "$csv" share_of_ceiling)" -v tag="$(column "$csv" tag)" '$2 == "reference" {
            split($tag, t, /[= ]/); print t[2] "," t[4] "," $c }' "$csv" >"$out/gpu-sweep.csv"
    draw heatmap.gp gpu-sweep "Lab 6, the reference over TILE_DIM x BLOCK_ROWS ($(origin_of "$csv"))" "$csv" \
        "dat='$out/gpu-sweep.csv'; xlabel='TILE_DIM'; ylabel='BLOCK_ROWS'; cblabel='share of the device-to-device copy'"
fi

# Block sizes 4 to 32 against size (lab 4's square tiles, as in the seed blog).
reference_against_size gpu-tiles "Lab 4 with tiles of 4 to 32" \
    lab04-TILE_DIM4.csv=TILE_DIM=4 lab04-TILE_DIM8.csv=TILE_DIM=8 \
    lab04-TILE_DIM16.csv=TILE_DIM=16 lab04-TILE_DIM32.csv=TILE_DIM=32

# Memory requests counted by the emulator: sectors per request, ways per request.
request_rows() {
    awk -F, -v name="lab $((10#$1)) ${2#GPU }" '
        /^variant,/ { for (i = 1; i <= NF; i++) c[$i] = i }
        function per(a, b) { return $c[b] ? $c[a] / $c[b] : 0 }
        $1 == "reference" { printf "%s,%.2f,%.2f,%.2f,%.2f\n", name,
            per("global_load_sectors", "global_load_requests"), per("global_store_sectors", "global_store_requests"),
            per("shared_load_wavefronts", "shared_load_requests"), per("shared_store_wavefronts", "shared_store_requests") }' "$3"
}
each_lab "$tmp/requests.csv" transpose request_rows -profile.csv
if [ -s "$tmp/requests.csv" ]; then
    cp "$tmp/requests.csv" "$out/gpu-requests.csv"
    draw bars.gp gpu-requests "Memory requests per warp, each reference at 512x512 ($(origin_of ${sources##* }))" "${sources# }" \
        "dat='$out/gpu-requests.csv'; series='global_load_sectors global_store_sectors shared_load_ways shared_store_ways'; ylabel='per request (best: 4 global, 1 shared)'"
fi

# Global memory traffic of the matrix products, per multiply-add.
traffic_rows() {
    awk -F, -v lab="lab $((10#$1))" '
        /^variant,/ { for (i = 1; i <= NF; i++) c[$i] = i }
        /^(reference|ref_naive),/ && c["depth"] { fma = $c["rows"] * $c["cols"] * $c["depth"]
            printf "%s %s,%.4g\n", lab, $c["kernel"], 32 * $c["global_load_sectors"] / fma }' "$3" |
        sed -e 's/_kernel,/,/' -e 's/ matmul_/ /'
}
each_lab "$tmp/traffic.csv" "matmul sgemm" traffic_rows -profile.csv
if [ -s "$tmp/traffic.csv" ]; then
    sort -t, -k2,2gr "$tmp/traffic.csv" >"$out/gpu-traffic.csv"
    draw bars.gp gpu-traffic "Global memory loaded per multiply-add at 512^3 ($(origin_of ${sources##* }))" "${sources# }" \
        "dat='$out/gpu-traffic.csv'; series='global_bytes_loaded_per_multiply-add'; logy=1; ymin=1.0/32; ylabel='bytes per multiply-add, log_2 scale'"
fi

echo "figures: $(wc -l <"$out/figures.tsv") drawn in $out ($formats)"
exit $status
