#!/usr/bin/env bash
# figures.sh OUT_DIR [recorded|local]
#
# Draws every figure whose data exists into OUT_DIR, in each of $FORMATS
# (default "png svg"), and lists them in OUT_DIR/figures.tsv: name, title,
# data files. "recorded" draws from the recorded runs ($DATA, plots/data by
# default) only; "local" also uses this machine's runs in $B/bench/. The
# Makefile passes LABS_TSV, the table of labs (harness/tools/labs.sh reads
# it). It ends naming each figure it could not draw, and why.
#
# A figure never mixes sources without saying so. A lab's figure comes from
# one CSV. An experiment over several files (-O levels, BLOCK, tile sizes)
# is drawn from the recorded runs as NAME and, when this machine has runs
# of its own, from those alone as NAME-here. The ladder and the memory
# request bars put each bar's source under its label.
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
: >"$tmp/skipped"
status=0

# Every CSV of a run is read through csv_rows (csv-rows, harness/tools/csv_rows.c):
# its columns by name, a line a row, tab-separated, which the awks below
# take in the order they asked for; csv_rows --fact KEY FILE its "# KEY: value".
csv_rows() { "${CSV_ROWS:-$B/csv-rows}" "$@"; }
# The labs: their numbers in $labs, a column each in lab_dir, lab_title, lab_op, lab_kind ...
. harness/tools/labs.sh
labs_read "${LABS_TSV:-}" || exit 1

skip() { printf '  %-14s %s\n' "$1" "$2" >>"$tmp/skipped"; }
# columns FILE NAMES: a figure's CSV says what its columns hold, on a first
# "# columns: a,b,c" line, which gnuplot skips and make report prints.
columns() { { echo "# columns: $2"; cat "$1"; } >"$1.new" && mv "$1.new" "$1"; }

# labs_of OPS [KIND]: the numbers of the labs of KIND (any kind without it)
# computing one of OPS, "3 4 5", in the table's order.
labs_of() {
    local n
    for n in "${labs[@]}"; do
        [[ " $1 " == *" ${lab_op[$n]} "* ]] && [ "${2:-${lab_kind[$n]}}" = "${lab_kind[$n]}" ] && echo "$((10#$n))"
    done | paste -sd ' ' -
}
# ops: what the labs compute, each once.
ops() { local n; for n in "${labs[@]}"; do echo "${lab_op[$n]}"; done | awk '!seen[$0]++' | paste -sd ' ' -; }
# to_profile OPS: "labs 3, 4, 5: make lab3 profile (4, 5)", the GPU labs computing one of OPS.
to_profile() {
    local l
    l=$(labs_of "$1" gpu)
    printf 'labs %s: make lab%s profile' "$(echo "$l" | sed 's/ /, /g')" "${l%% *}"
    [ "${l#* }" = "$l" ] || printf ' (%s)' "$(echo "${l#* }" | sed 's/ /, /g')"
}

here_file() { [ "$mode" = local ] && [ -s "$B/bench/$1" ] && echo "$B/bench/$1"; }
# here_run NAME.csv: this machine's run of an experiment: NAME.csv, or the
# newest run of it with sizes, repetitions or variants of its own
# (NAME-SIZES...csv, -REPS, -ONLY: make labN bench names them so).
here_run() {
    [ "$mode" = local ] || return 1
    local f
    f=$(ls -t "$B/bench/$1" "$B/bench/${1%.csv}"-SIZES*.csv "$B/bench/${1%.csv}"-REPS*.csv \
        "$B/bench/${1%.csv}"-ONLY*.csv 2>/dev/null | head -1)
    [ -s "$f" ] && echo "$f"
}
recorded_file() { [ -s "$DATA/$1" ] && echo "$DATA/$1"; }
source_of() { here_file "$1" || recorded_file "$1"; } # this machine's first

meta() { csv_rows --fact "$2" "$1"; } # FILE KEY
# Whether FILE is this machine's run or a recorded one: csv-rows says (csv.h decides).
is_here() { [ "$(csv_rows --origin "$1")" = here ]; }
# The machine in a few words: "AMD EPYC", "NVIDIA H100 80GB HBM3".
short_machine() { meta "$1" machine | sed -e 's/,.*//' -e 's/ *(.*)//'; }
origin_of() { # FILE -> "this machine: M" or "recorded on M, DATE"
    local m d
    m=$(meta "$1" machine) d=$(meta "$1" date)
    if is_here "$1"; then
        echo "this machine: ${m:-unnamed}"
    else
        echo "recorded on ${m:-an unnamed machine}${d:+, ${d:0:10}}"
    fi
}
short_origin() { # FILE -> "here" or "rec. DATE"
    local d
    d=$(meta "$1" date)
    if is_here "$1"; then echo here; else echo "rec.${d:+ ${d:0:10}}"; fi
}
# tunables_of FILE student|reference -> "TILE_DIM=16" ("" when none).
tunables_of() {
    meta "$1" tunables | tr ';' '\n' | sed -n "s/^ *$2 //p" | sed -e 's/-D//g' -e 's/^none$//' -e 's/^unknown$//'
}
# The distinct origins of FILE..., one line.
origins() { local f; for f in "$@"; do origin_of "$f"; done | awk '!seen[$0]++' | paste -sd ';' | sed 's/;/; /g'; }

draw() { # SCRIPT NAME TITLE SUBTITLE SOURCES VARS
    local script=$1 name=$2 title=$3 subtitle=$4 sources=$5 vars=$6 fmt lines
    # Each origin on a line of its own, and lines of 64 characters at most, so that no title
    # runs off the edge (the ladder centres its title right of its long labels).
    lines=$(printf '%s\n' "$subtitle" | tr -d "\"\\\\" | awk '{ gsub(/; /, "\n"); print }' | fold -s -w 64 | sed 's/ *$//' | awk 'NR > 1 { printf "\\n" } { printf "%s", $0 }')
    for fmt in $formats; do
        if ! gnuplot -e "out='$out/$name'; fmt='$fmt'; title='$title'; subtitle=\"$lines\"; $vars" "plots/$script" 2>"$tmp/err"; then
            echo "figures: $name: gnuplot failed:" >&2
            cat "$tmp/err" >&2
            status=1
            return
        fi
        if [ ! -s "$out/$name.${fmt/print/pdf}" ]; then
            echo "figures: $name.${fmt/print/pdf} is empty" >&2
            status=1
        fi
    done
    printf '%s\t%s (%s)\t%s\n' "$name" "$title" "$subtitle" "$sources" >>"$out/figures.tsv"
}

# rates CSV WHO VAR=VALUE AWK: WHO's rows of a bench CSV (the reference's, or
# the student's) as "s,x,rate,slowest,fastest,name" (the rates of its slowest
# and fastest repetitions; a name for a point whose x is no tick's,
# "4097x8191" at a side of 5793, "4097x4097" on 4096's tick), s, x and name
# set by AWK from $1, $2 (rows, cols) and VAR.
rates() {
    csv_rows --where "variant=$2" "$1" rows cols rate median_s min_s max_s |
        awk -F'\t' -v "$3" "$4"'{ r = $3 * $4; printf "%s,%s,%s,%.6g,%.6g,%s\n", s, x, $3, r / $6, r / $5, name }'
}

# experiment NAME HOW TITLE FILE=LABEL...: a rate against the matrix size, a
# line per file, drawn once from the recorded files (NAME: the reference's)
# and once from this machine's (NAME-here: the student's code, the reference's
# where a run has none of theirs), never from both at once. TITLE ends with
# what was drawn: "at -O0, -O3"; the line under it says whose code it is.
experiment() {
    local name=$1 how=$2 title=$3 pass fig pair csv sources files drawn who
    shift 3
    for pass in recorded here; do
        fig=$name$([ $pass = here ] && echo -here)
        : >"$tmp/$fig.csv"
        sources= files=() drawn= who=reference
        if [ $pass = here ]; then
            for pair in "$@"; do
                csv=$(here_run "${pair%%=*}") && [ -n "$(csv_rows --where variant=student "$csv" variant)" ] && who=student
            done
        fi
        for pair in "$@"; do
            if [ $pass = here ]; then csv=$(here_run "${pair%%=*}"); else csv=$(recorded_file "${pair%%=*}"); fi
            [ -n "$csv" ] || continue
            # x: the size, "4097x8191" (lines.gp places it at the side of a square as large).
            rates "$csv" "$who" s="${pair#*=}" 'function pow2(n) { while (n > 1 && n % 2 == 0) n /= 2; return n == 1 }
                { x = $1 "x" $2; name = $1 == $2 && pow2($1) ? "" : $1 "x" $2 }' >>"$tmp/$fig.csv"
            sources="$sources $csv" files+=("$csv") drawn="$drawn, ${pair#*=}"
        done
        if [ ! -s "$tmp/$fig.csv" ]; then
            [ $pass = here ] || skip "$name" "no recorded run: $how, then copy build/bench/${1%%=*} ... to $DATA/"
            continue
        fi
        # A point's name once, over the highest bar at its x.
        awk -F, -v OFS=, 'NR == FNR { if ($6 != "" && $5 + 0 > top[$2] + 0) { top[$2] = $5; at[$2] = FNR }; next }
            { if (at[$2] != FNR) $6 = ""; print }' "$tmp/$fig.csv" "$tmp/$fig.csv" >"$out/$fig.csv"
        columns "$out/$fig.csv" "line,size,GB/s,slowest run GB/s,fastest run GB/s,point"
        draw lines.gp "$fig" "$title ${drawn#, }" "$([ $who = student ] && echo "your code" || echo "the reference"); $(origins "${files[@]}")" "${sources# }" \
            "dat='$out/$fig.csv'; series='$(grep -v "^#" "$out/$fig.csv" | cut -d, -f1 | awk '!seen[$0]++' | tr '\n' ' ')'; xlabel='matrix side, sqrt(rows x cols), log_2 scale'; ylabel='GB/s (bars: slowest to fastest run)'"
    done
}

# each_lab CSV OPS ROWS SUFFIX: for each lab computing one of OPS whose data
# file labNN$SUFFIX exists, ROWS N TITLE DATA_FILE prints its rows of CSV;
# $sources lists the data files that gave some.
each_lab() {
    local csv=$1 ops=$2 rows_of=$3 suffix=$4 n title data rows
    : >"$csv"
    sources=
    for n in "${labs[@]}"; do
        title=${lab_title[$n]}
        [[ " $ops " == *" ${lab_op[$n]} "* ]] || continue
        # This machine's run first, the recorded one when it lacks the rows.
        for data in $(here_file "lab$n$suffix") $(recorded_file "lab$n$suffix"); do
            rows=$("$rows_of" "$n" "$title" "$data")
            [ -n "$rows" ] || continue
            echo "$rows" >>"$csv"
            sources="$sources $data"
            break
        done
    done
}

# -------------------------------------------------------------- each lab
for n in "${labs[@]}"; do
    title=${lab_title[$n]} kind=${lab_kind[$n]}
    csv=$(source_of "lab$n.csv")
    if [ -z "$csv" ]; then
        skip "lab$n" "no run of lab $((10#$n)): make lab$((10#$n)) bench$([ "$kind" = gpu ] && echo " on a GPU"), then copy build/bench/lab$n.csv to $DATA/"
        continue
    fi
    unit=${lab_unit[$n]}
    title="lab $((10#$n)), $title"
    if FORMATS="$formats" plots/plot-bench.sh "$csv" "$out/lab$n" "$title" "$unit"; then
        printf '%s\t%s (%s)\t%s\n' "lab$n" "$title" "$(origin_of "$csv")" "$csv" >>"$out/figures.tsv"
    else
        status=1
    fi
done

# -------------------------------------------------------------- the ladder
# A lab's title without what the bar's other words say: "GPU SGEMM (extension)" -> "SGEMM".
short_title() { echo "$1" | sed -e 's/ (.*//' -e 's/^[CG]PU //'; }
# Beside each bar a few words: "H100", "AMD EPYC"; the figure's sources list the rest.
# An operation of one dimension (a CSV's "# dims: 1": lab 10's sum) at as many elements,
# which its rows x cols carry as 1 x N.
ladder_row() {
    local m where=("rows=$LADDER_SIZE" "cols=$LADDER_SIZE")
    m=$(short_machine "$3" | sed -e 's/^NVIDIA //' -e 's/^AMD //' -e 's/^Intel(R) //' -e 's/ [0-9]*GB.*//')
    [[ $(csv_rows --fact dims "$3" 2>/dev/null) != 1* ]] || where=("rows=1" "cols=$((LADDER_SIZE * LADDER_SIZE))")
    csv_rows --where variant=reference --where "${where[0]}" --where "${where[1]}" "$3" share_of_ceiling |
        awk -v name="lab $((10#$1)) $(short_title "$2")" -v m="$m" -v o="$(is_here "$3" && echo here || echo rec.)" \
            '{ print name "," $1 "," m "," o; exit }'
}
each_lab "$tmp/ladder.csv" "$(ops)" ladder_row .csv
if [ -s "$tmp/ladder.csv" ]; then
    cp "$tmp/ladder.csv" "$out/ladder.csv"
    columns "$out/ladder.csv" "lab,share of its ceiling,machine,origin"
    draw ladder.gp ladder "The ladder at ${LADDER_SIZE}x$LADDER_SIZE: each reference as a share of its ceiling" \
        "a copy of the same bytes (the transposes), cuBLAS SGEMM (the products), a read of as many floats (the sum); after each bar its machine, rec(orded) or here" "${sources# }" "dat='$out/ladder.csv'"
else
    skip ladder "no lab has a run at ${LADDER_SIZE}x$LADDER_SIZE"
fi

# -------------------------------------------------------------- CPU experiments
experiment cpu-olevels "make lab1 bench OPT=-O0 (and -O1, -O2, -O3)" "Lab 1, the naive transpose at" \
    lab01-O0.csv=-O0 lab01-O1.csv=-O1 lab01-O2.csv=-O2 lab01-O3.csv=-O3

# BLOCK in lab 2: a line per size, the reference's rate against BLOCK.
for pass in recorded here; do
    fig=cpu-blocks$([ $pass = here ] && echo -here)
    dir=$([ $pass = here ] && echo "$B/bench" || echo "$DATA")
    [ $pass = recorded ] || [ "$mode" = local ] || continue
    : >"$tmp/blocks.csv"
    sources= files=()
    # Each BLOCK once: lab02-BLOCK8.csv, or here the newest run of BLOCK=8
    # (lab02-BLOCK8-SIZES2000_4000-REPS9.csv).
    for block in $(for f in "$dir"/lab02-BLOCK[0-9]*.csv; do
        b=${f##*/lab02-BLOCK}
        echo "${b%%[!0-9]*}"
    done | sort -un); do
        if [ $pass = here ]; then csv=$(here_run "lab02-BLOCK$block.csv"); else csv=$(recorded_file "lab02-BLOCK$block.csv"); fi
        [ -n "$csv" ] || continue
        rates "$csv" reference x="$block" '{ s = $1 "x" $2 }' >>"$tmp/blocks.csv"
        sources="$sources $csv" files+=("$csv")
    done
    if [ ! -s "$tmp/blocks.csv" ]; then
        [ $pass = here ] || skip cpu-blocks "no recorded run: make lab2 bench BLOCK=4 (8, 16, ...), then copy build/bench/lab02-BLOCK*.csv to $DATA/"
        continue
    fi
    # A size some BLOCK run did not measure gets a NaN there: lines.gp breaks
    # its line at the gap rather than draw across it.
    awk -F, '{ have[$1, $2] = 1; size[$1] = 1; block[$2] = 1; print }
        END { for (s in size) for (b in block) if (!have[s, b]) print s "," b ",NaN,NaN,NaN," }' "$tmp/blocks.csv" |
        sort -t, -k1,1 -k2,2n >"$out/$fig.csv"
    columns "$out/$fig.csv" "size,BLOCK,GB/s,slowest run GB/s,fastest run GB/s,point"
    draw lines.gp "$fig" "Lab 2, the reference against BLOCK, a line per size" "$(origins "${files[@]}")" "${sources# }" \
        "dat='$out/$fig.csv'; series='$(grep -v "^#" "$out/$fig.csv" | cut -d, -f1 | sort -u | sort -t x -k1,1n | tr '\n' ' ')'; xlabel='BLOCK (floats), log_2 scale'; ylabel='GB/s (bars: slowest to fastest run)'"
done

# Simulated cache misses, naive against blocked, at the size the runs used.
a=$(source_of lab01-cache.csv) b=$(source_of lab02-cache.csv)
if [ -n "$a" ] && [ -n "$b" ]; then
    for csv in "$a" "$b"; do
        csv_rows --where variant=reference "$csv" lab size d1_read_misses d1_write_misses ll_read_misses ll_write_misses |
            awk -F'\t' '{ n = $2 * $2; printf "lab %d reference (%dx%d),%.4f,%.4f\n", $1, $2, $2, ($3 + $4) / n, ($5 + $6) / n }'
    done >"$out/cpu-cache.csv"
    columns "$out/cpu-cache.csv" "transpose,D1 misses per element,LL misses per element"
    sizes=$(grep -v '^#' "$out/cpu-cache.csv" | cut -d, -f1 | sed 's/.*(\(.*\))/\1/' | sort -u | paste -sd/)
    draw bars.gp cpu-cache "Cache misses per element, one ${sizes} transpose" \
        "simulated by valgrind ($(meta "$a" lab | sed -n 's/.*caches: //p')), the same on every machine; 0.125 misses per element: one line in, one out; lab 1: $(short_origin "$a"), lab 2: $(short_origin "$b")" "$a $b" \
        "dat='$out/cpu-cache.csv'; series='D1_misses LL_misses'; ylabel='misses per element'"
else
    skip cpu-cache "needs lab01-cache.csv and lab02-cache.csv: make lab1 cachegrind, make lab2 cachegrind"
fi

# -------------------------------------------------------------- GPU experiments
# TILE_DIM x BLOCK_ROWS for lab 6, read from the tag column "TILE_DIM=32 BLOCK_ROWS=8".
csv=$(source_of lab06-sweep.csv)
if [ -n "$csv" ]; then
    csv_rows --where variant=reference "$csv" tag share_of_ceiling |
        awk -F'\t' '{ split($1, t, /[= ]/); print t[2] "," t[4] "," $2 }' >"$out/gpu-sweep.csv"
    columns "$out/gpu-sweep.csv" "TILE_DIM,BLOCK_ROWS,share of the copy"
    at=$(csv_rows --where variant=reference "$csv" rows cols | awk -F'\t' '!seen[$1 "x" $2]++ { print $1 "x" $2 }' | paste -sd/ -)
    draw heatmap.gp gpu-sweep "Lab 6, the reference over TILE_DIM x BLOCK_ROWS at $at" "$(origin_of "$csv")" "$csv" \
        "dat='$out/gpu-sweep.csv'; xlabel='TILE_DIM'; ylabel='BLOCK_ROWS'; cblabel='share of the D2D copy'"
else
    skip gpu-sweep "no recorded run: make lab6 sweep on a GPU, then copy build/bench/lab06-sweep.csv to $DATA/"
fi

# Block sizes 4 to 32 against size (lab 4's square tiles, as in the seed blog).
experiment gpu-tiles "make lab4 bench TILE_DIM=4 (8, 16, 32) on a GPU" "Lab 4, square tiles of TILE_DIM x TILE_DIM:" \
    lab04-TILE_DIM4.csv=4x4 lab04-TILE_DIM8.csv=8x8 \
    lab04-TILE_DIM16.csv=16x16 lab04-TILE_DIM32.csv=32x32
# The same for lab 3's naive kernel: blocks of b x b threads.
experiment gpu-blocks "make lab3 bench TILE_DIM=4 BLOCK_ROWS=4 (8, 16, 32) on a GPU" "Lab 3 with square blocks (threads) of" \
    lab03-TILE_DIM4-BLOCK_ROWS4.csv=4x4 lab03-TILE_DIM8-BLOCK_ROWS8.csv=8x8 \
    lab03-TILE_DIM16-BLOCK_ROWS16.csv=16x16 lab03-TILE_DIM32-BLOCK_ROWS32.csv=32x32

# The in-place blog's experiment: its tiled kernel over blocks of 4 to 32 a side.
experiment gpu-inplace-blocks "make lab9 bench TILE_DIM=4 BLOCK_ROWS=4 (8, 16, 32) on a GPU" "Lab 9 in place, square blocks (threads) of" \
    lab09-TILE_DIM4-BLOCK_ROWS4.csv=4x4 lab09-TILE_DIM8-BLOCK_ROWS8.csv=8x8 \
    lab09-TILE_DIM16-BLOCK_ROWS16.csv=16x16 lab09-TILE_DIM32-BLOCK_ROWS32.csv=32x32

# The emulator's profile of a lab, fit for a figure of the references: this
# machine's only when its reference was built with its own tunables (a
# "make lab5 profile TILE_DIM=16" measures something else).
profile_of() {
    local here recorded
    here=$(here_file "lab$1-profile.csv") recorded=$(recorded_file "lab$1-profile.csv")
    if [ -n "$here" ]; then
        local t
        t=$(meta "$here" tunables | tr ';' '\n' | sed -n 's/^ *reference //p')
        if [ -n "$t" ] && [[ $t != *-D* ]] && [ "$t" != unknown ]; then
            echo "$here"
            return
        fi
        echo "figures: $here: its reference was built with ${t:-unknown tunables}, not its own; ${recorded:+drawn from $recorded instead}" >&2
    fi
    [ -z "$recorded" ] || echo "$recorded"
}
each_profile() { # CSV OPS ROWS: as each_lab, over the right profiles
    local csv=$1 ops=$2 rows_of=$3 n title data rows
    : >"$csv"
    sources=
    for n in "${labs[@]}"; do
        title=${lab_title[$n]}
        [[ " $ops " == *" ${lab_op[$n]} "* ]] || continue
        data=$(profile_of "$n")
        [ -n "$data" ] || continue
        rows=$("$rows_of" "$n" "$title" "$data")
        [ -n "$rows" ] || continue
        echo "$rows" >>"$csv"
        sources="$sources $data"
    done
}
# The sizes the references of the profiles in $sources ran at, read off
# their rows: "512x512" for a matrix (DIMS 2), "512³" for a product
# (DIMS 3, m n k); several joined by "/". A title is drawn as typed
# (noenhanced), and the report's headings are LaTeX: a power is its
# character, never a caret.
profile_sizes() { # DIMS
    local f
    for f in $sources; do csv_rows --where variant=reference "$f" rows cols depth; done |
        awk -F'\t' -v dims="$1" '{ s = dims == 2 ? $1 "x" $2 : $1 == $2 && $2 == $3 ? $1 "³" : $1 "x" $2 "x" $3
            if (!seen[s]++) print s }' | paste -sd/ -
}
# "lab 6; unrolled; 64x8 rec.": a bar's name, its tunables' values
# (TILE_DIM x BLOCK_ROWS) and its source, a line each under the bar (no
# comma and no '|': the name is a cell of a CSV and of Markdown tables).
bar_name() { # N TITLE FILE
    local t
    t=$(tunables_of "$3" reference | sed -e 's/[A-Z_]*=//g' -e 's/ /x/g')
    echo "lab $((10#$1)); $(short_title "$2"); ${t:+$t }$(short_origin "$3")"
}

# Memory requests counted by the emulator: sectors per request, passes (wavefronts) per request.
# Where this machine profiled the student's code (make labN profile), their
# kernels' bars stand beside the reference's, as make labN plot draws them:
# "lab 3; yours; 32x8 here".
request_rows() {
    "${REQUESTS:-$B/requests-per-warp}" --only reference --name "$(bar_name "$@")" "$3"
    if is_here "$3"; then
        local t
        t=$(tunables_of "$3" student | sed -e 's/[A-Z_]*=//g' -e 's/ /x/g')
        "${REQUESTS:-$B/requests-per-warp}" --only student --name "lab $((10#$1)); yours; ${t:+$t }here" "$3"
    fi
}
each_profile "$tmp/requests.csv" "transpose inplace" request_rows
if [ -s "$tmp/requests.csv" ]; then
    cp "$tmp/requests.csv" "$out/gpu-requests.csv"
    columns "$out/gpu-requests.csv" "lab,global load sectors per request,global store sectors per request,shared load passes per request,shared store passes per request"
    whose="each reference"
    grep -q "; yours; " "$out/gpu-requests.csv" && whose="the references and yours"
    draw bars.gp gpu-requests "Memory requests per warp at $(profile_sizes 2), $whose" \
        "counted by the CPU emulator: 32-byte sectors a global request, passes a shared one; under each bar: TILE_DIMxBLOCK_ROWS (or TILE_DIM), here or rec(orded)" "${sources# }" \
        "dat='$out/gpu-requests.csv'; series='global_loads global_stores shared_loads shared_stores'; ylabel='per request (best: 4 and 1)'"
else
    skip gpu-requests "no profile of $(to_profile "transpose inplace"), on the emulator or a GPU"
fi

# Global memory traffic of the matrix products, per multiply-add.
traffic_rows() {
    csv_rows "$3" variant kernel rows cols 'depth?' global_load_sectors |
        awk -F'\t' -v lab="lab $((10#$1))" '($1 == "reference" || $1 == "ref_naive") && $5 != "" {
            printf "%s %s,%.4g\n", lab, $2, 32 * $6 / ($3 * $4 * $5) }' |
        sed -e 's/_kernel,/,/' -e 's/ matmul_/ /'
}
each_profile "$tmp/traffic.csv" "matmul sgemm" traffic_rows
if [ -s "$tmp/traffic.csv" ]; then
    sort -t, -k2,2gr "$tmp/traffic.csv" >"$out/gpu-traffic.csv"
    columns "$out/gpu-traffic.csv" "kernel,global bytes loaded per multiply-add"
    draw bars.gp gpu-traffic "Global memory loaded per multiply-add at $(profile_sizes 3)" "$(origins ${sources})" "${sources# }" \
        "dat='$out/gpu-traffic.csv'; series='global_bytes_loaded_per_multiply-add'; logy=1; ymin=1.0/32; ylabel='bytes per multiply-add'"
else
    skip gpu-traffic "no profile of $(to_profile "matmul sgemm"), on the emulator or a GPU"
fi

echo "figures: $(wc -l <"$out/figures.tsv") drawn in $out ($formats)"
if [ -s "$tmp/skipped" ]; then
    echo "not drawn, for want of data (each line says how to make it):"
    cat "$tmp/skipped"
fi
exit $status
