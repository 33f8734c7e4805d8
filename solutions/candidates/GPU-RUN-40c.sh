#!/bin/bash
# GPU-RUN-40c.sh: issue 40, round 3 of lab 9's in-place candidates, in one
# H100 call. From the repository root of branch l9fast:
#
#   bash solutions/candidates/GPU-RUN-40c.sh
#
# on nvidia-h100-x1, carry [".devlibs"] (the GPU test suites link Criterion
# from it; the benches do not need it), timeout_s 600. About 7 minutes:
# builds ~1, benches ~5 (55 s a candidate: copy, reference and candidate
# at the six default sizes, median of 20), suites ~0.5, the control ~0.5.
#
# $OUT gets: run40c.log (everything printed, as it comes), summary.txt
# (each candidate's share of the copy per size, the reference's beside it),
# run40c.tgz (every bench CSV and log, build and suite log, ptxas report,
# nvidia-smi before and after). Nothing is committed by the run.
#
# Candidates (solutions/candidates/NAME/09-gpu-inplace/transpose.cu; each
# file's header says what it tries and why):
#   l9-halves   each 64 x 64 pair worked by two blocks of lab 6's shape
#   l9-strips   l9-w64 with its blocks launched in strips of 8 fold rows
#   l9-hstrips  both
#   l9-h4       l9-hstrips with 16-byte loads and stores (n % 4 == 0)
#   l9-h4w      l9-h4 with 256-thread blocks, 6 an SM
# and l9-w64 (rounds 1 and 2) again as the control, against the copy alone.
set -u
# The summary: share of the copy (share_of_ceiling, the bench's own column)
# of each candidate at each size, the reference's of the same run in
# brackets, and whether it meets issue 40's point 1 (>= 95 % at every
# default size, >= 92 % at 4097^2).
pct() { # "0.9518" -> "95.2"; anything else -> "?"
    [[ $1 =~ ^([0-9]+)\.([0-9]{4})$ ]] || { echo "?"; return; }
    local t=$(((10#${BASH_REMATCH[1]} * 10000 + 10#${BASH_REMATCH[2]} + 5) / 10))
    echo "$((t / 10)).$((t % 10))"
}
share() { # csv variant size -> its share_of_ceiling field, found by the header's name
    local IFS=, col=0 i
    local -a h f
    read -r -a h <<<"$(grep -v '^#' "$1" | head -1)"
    for i in "${!h[@]}"; do [ "${h[$i]}" = share_of_ceiling ] && col=$i; done
    [ "$col" -gt 0 ] || return
    grep -v '^#' "$1" | while read -r -a f; do
        [ "${f[1]}" = "$2" ] && [ "${f[2]}" = "$3" ] && echo "${f[$col]}"
    done
}
summarize() { # dir holding lab09-NAME.csv, names in order
    local dir=$1 c f s st rf cell min ok
    shift
    echo "issue 40 round 3: share of the D2D copy, %, median of 20 (the reference's, same run, in brackets)"
    sed -n 2p "$dir/smi.txt" 2>/dev/null
    printf '%-11s' candidate
    for s in $SIZES; do printf '%15s' "$s^2"; done
    echo "   >=95 all, >=92 at 4097"
    for c in "$@"; do
        f=$dir/lab09-$c.csv
        [ -f "$f" ] || { printf '%-11s no CSV (see bench-%s.log)\n' "$c" "$c"; continue; }
        printf '%-11s' "$c"
        ok=yes
        for s in $SIZES; do
            st=$(pct "$(share "$f" student "$s")") rf=$(pct "$(share "$f" reference "$s")")
            [ "$rf" = "?" ] && cell=$st || cell="$st ($rf)"
            printf '%15s' "$cell"
            min=95
            [ "$s" = 4097 ] && min=92
            [[ $st =~ ^[0-9]+\.[0-9]$ ]] && [ "${st/./}" -ge $((min * 10)) ] || ok=no
        done
        echo "   $ok"
    done
    echo
    cat "$dir/tests.txt" 2>/dev/null
    for c in "$@"; do grep -hE 'Used' "$dir/resources-$c.txt" 2>/dev/null | grep -v cmem | sed "s/^/$c: /"; done
}
SIZES='1024 2048 4096 8192 16384 4097'

# bash GPU-RUN-40c.sh --summary DIR: the summary again, from an unpacked run40c.tgz.
if [ "${1:-}" = --summary ]; then
    names=$(cd "$2" && ls lab09-*.csv 2>/dev/null | sed 's/^lab09-//; s/\.csv$//')
    summarize "$2" $names
    exit
fi

T0=$(date +%s)
OUT=${OUT:-/tmp/out40c}
L=/tmp/r40c
C='l9-halves l9-strips l9-hstrips l9-h4 l9-h4w'
CONTROL=l9-w64
ONLY=memcpy,reference,student
mkdir -p "$OUT" && rm -rf "$L" && mkdir -p "$L" || exit 1
exec > >(tee "$OUT/run40c.log") 2>&1
[ -f .devlibs/env.sh ] && . .devlibs/env.sh >/dev/null 2>&1

elapsed() { echo $(($(date +%s) - T0)); }
say() { echo "[$(elapsed) s] $*"; }
pack() { tar czf "$OUT/run40c.tgz" -C "$L" . 2>/dev/null; }
SMI='--query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv'
nvidia-smi $SMI >"$L/smi.txt" 2>&1
git log -1 --format='commit %H %s' >"$L/commit.txt" 2>&1
say "$(cat "$L/commit.txt")"

# 1. Builds, in parallel: each candidate's bench first (what the run is for),
# then its GPU test suite; a B= folder each (make rebuilds a lab file when
# it is newer than its object, not when STUDENT_DIR names another file).
pids=()
for c in $C $CONTROL; do
    d=solutions/candidates/$c
    [ -f $d/09-gpu-inplace/transpose.cu ] || { say "MISSING $d"; continue; }
    (make -s -j3 B=build/c-$c STUDENT_DIR=$d build/c-$c/lab09/bench >"$L/build-$c.log" 2>&1 \
        || echo "BENCH BUILD FAILED" >>"$L/build-$c.log"
     make -s -j3 B=build/c-$c STUDENT_DIR=$d build/c-$c/lab09/student/test >>"$L/build-$c.log" 2>&1 \
        || echo "TEST BUILD FAILED" >>"$L/build-$c.log") &
    pids+=($!)
done
wait "${pids[@]}" # by pid: a bare wait would wait for the tee above too, for ever
for c in $C $CONTROL; do
    grep -h 'FAILED' "$L/build-$c.log" | sed "s/^/$c: /"
    cp build/c-$c/lab09/student/resources.txt "$L/resources-$c.txt" 2>/dev/null
    grep -hE 'Used|spill' "$L/resources-$c.txt" 2>/dev/null | grep -v cmem | sed "s/^/$c: /"
done
say "built"

# 2. The benches, one after another (the GPU to one timing at a time):
# the copy (the ceiling), today's reference, the candidate, default sizes.
bench() { # candidate, ONLY
    local c=$1 only=$2 csv=build/c-$1/bench/lab09-ONLY${2//,/_}.csv
    rm -f "$csv"
    make B=build/c-$c STUDENT_DIR=solutions/candidates/$c lab9 bench ONLY=$only 2>&1 | tee "$L/bench-$c.log"
    [ -f "$csv" ] && cp "$csv" "$L/lab09-$c.csv" || say "NO CSV for $c"
    say "bench $c done"
    pack
}
for c in $C; do
    bench $c $ONLY
done

# 3. Each candidate's GPU suite (every bench call above was checked as well).
for c in $C; do
    if [ "$(elapsed)" -gt 500 ]; then say "suite $c skipped: out of time"; continue; fi
    timeout 45 make B=build/c-$c STUDENT_DIR=solutions/candidates/$c lab9 test >"$L/test-$c.log" 2>&1
    echo "$c test rc=$? $(grep -a Synthesis "$L/test-$c.log")" | tee -a "$L/tests.txt"
done

# 4. The control, if time is left: rounds 1 and 2 gave 91.5/99.9/95.2/93.8/
# 94.3 % and 91.9/100.1/95.3/93.8/94.4 %, 83.6 and 85.3 % at 4097.
if [ "$(elapsed)" -lt 470 ]; then bench $CONTROL memcpy,student; else say "control skipped: out of time"; fi

# 5. The summary.
summarize "$L" $C $CONTROL | tee "$L/summary.txt"
cp "$L/summary.txt" "$OUT/"
nvidia-smi $SMI >>"$L/smi.txt" 2>&1
say "total"
pack
