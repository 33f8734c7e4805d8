#!/usr/bin/env bash
# A reference must stay right at the tile sizes a student tries, not only at
# its own: lab 6's rows cut at 32-byte sectors gave half of a 4097 x 4097
# matrix wrong at TILE_DIM=4 on the H100, and the suites ran only the default.
# Each GPU lab with TILE_DIM and BLOCK_ROWS among its tunables (labs/labs.mk)
# runs its correctness tests, on the emulator, at tiles that are not a whole
# number of sectors; each with TILE_WIDTH, at widths that are not a whole
# number of warps. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

# passes LAB NAME TUNABLE=VALUE...: the reference of lab LAB passes its
# correctness tests on the emulator, built with those tunables (NAME: the log's).
passes() {
    local lab=$1 log=$tmp/lab$1-$2.log
    shift 2
    if make -s B="$build/tunables" GPU=emu "lab$((10#$lab))" test SOLUTION=1 "$@" \
            TEST_ARGS="--filter=lab$lab/*" >"$log" 2>&1 &&
        grep -Eq "Tested: [1-9][0-9]* \| Passing: [0-9]+ \| Failing: 0 \| Crashing: 0" "$log"; then
        ok "lab $((10#$lab))'s reference passes its correctness tests at $*"
    else
        not_ok "lab $((10#$lab))'s reference at $*" "$log"
    fi
}

kit_labs || not_ok "the table of labs"
for lab in "${labs[@]}"; do
    [ "${lab_kind[$lab]}" = gpu ] || continue
    [[ " ${lab_tunables[$lab]} " == *" TILE_DIM "* && " ${lab_tunables[$lab]} " == *" BLOCK_ROWS "* ]] || continue
    for t in 4:2 12:4; do
        passes "$lab" "$t" TILE_DIM="${t%:*}" BLOCK_ROWS="${t#*:}"
    done
done

# Lab 7's reference pairs lanes where TILE_WIDTH is a multiple of 8 and runs
# the textbook kernel elsewhere: both, at widths that end mid-warp (12, 24).
for lab in "${labs[@]}"; do
    [[ " ${lab_tunables[$lab]} " == *" TILE_WIDTH "* ]] || continue
    for width in 4 12 24; do
        passes "$lab" "w$width" TILE_WIDTH="$width"
    done
done
tap_plan
