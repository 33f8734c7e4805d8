#!/usr/bin/env bash
# gpu-proof.sh OUT_DIR
#
# The kit's proof on a real GPU, from binaries already built (make check on
# a machine with nvcc builds them all): every GPU suite passes against the
# references and fails against the stubs, compute-sanitizer finds nothing
# in the references, and each GPU lab's bench and lab 6's sweep write their
# CSVs. It needs no make, Criterion headers or gnuplot on the GPU machine:
# only the binaries under build/ and the shared libraries they link
# (LD_LIBRARY_PATH may point at copies). Prints one line per step and a
# last tally line; logs and CSVs go to OUT_DIR.
set -u
out=${1:?usage: gpu-proof.sh OUT_DIR}
mkdir -p "$out"
passed=0 failed=0
step() { # WHAT EXPECT(pass|fail) COMMAND...
    local what=$1 expect=$2 log
    shift 2
    log=$out/$(echo "$what" | tr -c 'A-Za-z0-9_-' _).log
    "$@" >"$log" 2>&1
    local rc=$?
    if { [ "$expect" = pass ] && [ $rc -eq 0 ]; } || { [ "$expect" = fail ] && [ $rc -ne 0 ]; }; then
        passed=$((passed + 1)); echo "ok   $what ($(grep -h Synthesis "$log" | sed 's/.*Synthesis: //'))"
    else
        failed=$((failed + 1)); echo "FAIL $what (exit $rc): see $log"
    fi
}

nvidia-smi -L 2>/dev/null | head -1
labs=$(ls -d build/lab*/reference 2>/dev/null | sed 's|build/lab\([0-9]*\)/.*|\1|' | sort -u)
for n in $labs; do
    [ -f "build/lab$n/bench" ] && grep -q cudaMalloc "build/lab$n/bench" 2>/dev/null || continue
    step "lab$n reference suite" pass env TILELAB_HIDDEN=5x7,130x3 build/lab$n/reference/test --jobs 1
    step "lab$n stub suite" fail build/lab$n/student/test --jobs 1
    for tool in memcheck racecheck; do
        step "lab$n reference $tool" pass compute-sanitizer --tool $tool --error-exitcode 3 \
            build/lab$n/bench --only reference --sizes 33x31,97x89,1000x37,256 --reps 1 --warmup 0
    done
    step "lab$n bench" pass build/lab$n/bench --csv "$out/lab$n.csv"
done
for p in build/lab06/sweep/*/bench; do
    [ -x "$p" ] || continue
    t=$(basename "$(dirname "$p")")
    tile=${t%-*} rows=${t#*-}
    "$p" --only memcpy,reference --sizes 8192 --tag "TILE_DIM=${tile#T} BLOCK_ROWS=${rows#R}" \
        --csv "$out/lab06-sweep.csv" $([ -f "$out/lab06-sweep.csv" ] && echo --append) >/dev/null 2>&1 ||
        { failed=$((failed + 1)); echo "FAIL sweep $t"; }
done
echo "gpu-proof: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
