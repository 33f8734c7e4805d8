#!/usr/bin/env bash
# A reference must stay right at the tile sizes a student tries, not only at
# its own: lab 6's rows cut at 32-byte sectors gave half of a 4097 x 4097
# matrix wrong at TILE_DIM=4 on the H100, and the suites ran only the default.
# Each GPU lab with TILE_DIM and BLOCK_ROWS among its tunables (labs/labs.mk)
# runs its correctness tests, on the emulator, at tiles that are not a whole
# number of sectors; each with TILE_WIDTH, at widths that are not a whole
# number of warps. Prints TAP; make check counts it.
source "$(dirname "$0")/tap.sh"

for lab in $(sed -n 's/^LABS := //p' labs/labs.mk); do
    grep -q "^lab${lab}_kind := gpu" labs/labs.mk || continue
    grep -q -E "^lab${lab}_tunables := .*(TILE_DIM.*BLOCK_ROWS|BLOCK_ROWS.*TILE_DIM)" labs/labs.mk || continue
    for t in 4:2 12:4; do
        tile=${t%:*} rows=${t#*:}
        log=$tmp/lab$lab-$tile.log
        if make -s B="$build/tunables" GPU=emu "lab$((10#$lab))" test SOLUTION=1 TILE_DIM="$tile" \
                BLOCK_ROWS="$rows" TEST_ARGS="--filter=lab$lab/*" >"$log" 2>&1 &&
            grep -Eq "Tested: [1-9][0-9]* \| Passing: [0-9]+ \| Failing: 0 \| Crashing: 0" "$log"; then
            ok "lab $((10#$lab))'s reference passes its correctness tests at TILE_DIM=$tile BLOCK_ROWS=$rows"
        else
            not_ok "lab $((10#$lab))'s reference at TILE_DIM=$tile BLOCK_ROWS=$rows" "$log"
        fi
    done
done

# Lab 7's reference pairs lanes where TILE_WIDTH is a multiple of 8 and runs
# the textbook kernel elsewhere: both, at widths that end mid-warp (12, 24).
for lab in $(sed -n 's/^LABS := //p' labs/labs.mk); do
    grep -q "^lab${lab}_tunables := .*TILE_WIDTH" labs/labs.mk || continue
    for width in 4 12 24; do
        log=$tmp/lab$lab-w$width.log
        if make -s B="$build/tunables" GPU=emu "lab$((10#$lab))" test SOLUTION=1 TILE_WIDTH="$width" \
                TEST_ARGS="--filter=lab$lab/*" >"$log" 2>&1 &&
            grep -Eq "Tested: [1-9][0-9]* \| Passing: [0-9]+ \| Failing: 0 \| Crashing: 0" "$log"; then
            ok "lab $((10#$lab))'s reference passes its correctness tests at TILE_WIDTH=$width"
        else
            not_ok "lab $((10#$lab))'s reference at TILE_WIDTH=$width" "$log"
        fi
    done
done
tap_plan
